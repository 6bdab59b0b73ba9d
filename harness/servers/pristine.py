"""Load each dataset once per server, keep the loaded datadir pristine, hand out copies.

Variants that only change runtime options restart on a copy of the same loaded data, so every
variant starts from identical bytes and none pays for the load. Variants that change an option
fixed at initialisation (innodb_page_size ...) or one that shapes the tables created by the load
(character_set_server ...) get a pristine copy of their own: the key says which.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import contract
from harness.errors import UserError

# Copies need their size plus room for the server to grow the redo log and temp files.
COPY_HEADROOM = 1.1
READY_MARK = "pristine.json"


@dataclass(frozen=True)
class PristineCopy:
    """A stopped, cleanly shut down datadir holding one loaded dataset."""

    key: str
    datadir: Path
    loaded_by: str  # variant label whose my.cnf the load ran under
    load_seconds: float
    rows: int
    data_bytes: int
    load_commands: list[contract.ReproduceCommand]  # as recorded for the reader
    load_check: contract.TpccCheck | None = None  # tpcc: the consistency check of the fresh load

    def origin(self, restore_seconds: float) -> contract.DataOrigin:
        """The run document's workload.data_origin for a run on a restored copy."""
        return {
            "method": "restored",
            "pristine_key": self.key,
            "loaded_by": self.loaded_by,
            "load_seconds": round(self.load_seconds, 2),
            "restore_seconds": round(restore_seconds, 2),
        }


def pristine_key(server: str, fixed_options: dict[str, str], dataset: str) -> str:
    """One readable line: the server, the options the data depends on, and the dataset."""
    options = ", ".join(f"{name}={value}" for name, value in sorted(fixed_options.items()))
    return f"server {server}; {options or 'default data options'}; {dataset}"


def tree_bytes(path: Path) -> int:
    return sum(entry.stat().st_size for entry in path.rglob("*") if entry.is_file())


def ensure_room(source: Path, destination_parent: Path) -> None:
    """Refuse a copy that cannot fit before writing a byte of it."""
    destination_parent.mkdir(parents=True, exist_ok=True)
    needed = int(tree_bytes(source) * COPY_HEADROOM)
    free = shutil.disk_usage(destination_parent).free
    if free < needed:
        raise UserError(
            f"{destination_parent}: not enough space for a copy of the loaded datadir"
            f" ({needed / 2**20:.0f} MiB needed, {free / 2**20:.0f} MiB free)"
        )


def copy_datadir(source: Path, destination: Path) -> float:
    """Copy a stopped datadir; returns seconds taken. A failed copy leaves nothing behind."""
    ensure_room(source, destination.parent)
    started = time.monotonic()
    try:
        shutil.copytree(source, destination, symlinks=True)
    except (OSError, shutil.Error) as exc:
        shutil.rmtree(destination, ignore_errors=True)
        full = isinstance(exc, OSError) and exc.errno == errno.ENOSPC
        cause = "the filesystem is full" if full else str(exc)
        raise UserError(f"{destination}: copying the loaded datadir failed: {cause}") from None
    return time.monotonic() - started


@dataclass
class PristineStore:
    """Pristine copies of one campaign execution, under root/<short hash of the key>/."""

    root: Path
    copies: dict[str, PristineCopy]

    @classmethod
    def at(cls, root: Path) -> PristineStore:
        return cls(root, {})

    def slot(self, key: str) -> Path:
        return self.root / hashlib.sha256(key.encode()).hexdigest()[:12]

    def get(self, key: str) -> PristineCopy | None:
        """A copy made earlier in this execution, or by an interrupted one being resumed."""
        if key in self.copies:
            return self.copies[key]
        mark = self.slot(key) / READY_MARK
        if not mark.is_file():
            return None
        saved = json.loads(mark.read_text())
        copy = PristineCopy(**{**saved, "datadir": Path(saved["datadir"])})
        self.copies[key] = copy
        return copy

    def keep(
        self,
        key: str,
        loaded_datadir: Path,
        *,
        loaded_by: str,
        load_seconds: float,
        rows: int,
        data_bytes: int,
        load_commands: list[contract.ReproduceCommand],
        load_check: contract.TpccCheck | None = None,
    ) -> PristineCopy:
        """Move a just-loaded, stopped datadir into the store (a rename: no second copy)."""
        slot = self.slot(key)
        shutil.rmtree(slot, ignore_errors=True)  # a half-made slot of an interrupted load
        slot.mkdir(parents=True)
        datadir = slot / "datadir"
        try:
            os.rename(loaded_datadir, datadir)
        except OSError:  # another filesystem (the load ran elsewhere): copy then remove
            copy_datadir(loaded_datadir, datadir)
            shutil.rmtree(loaded_datadir, ignore_errors=True)
        copy = PristineCopy(
            key, datadir, loaded_by, load_seconds, rows, data_bytes, load_commands, load_check
        )
        saved = {**asdict(copy), "datadir": str(datadir)}
        (slot / READY_MARK).write_text(json.dumps(saved, indent=1) + "\n")
        self.copies[key] = copy
        return copy

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
