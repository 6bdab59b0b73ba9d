"""The files an import reads: their bytes, hash and date, read once, and the refusal every
import raises for bad input (one line: the file, the line when there is one, the cause)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from harness.errors import UserError


class ImportRefused(UserError):
    """Bad input: nothing was written."""


def refused(where: str | Path, cause: str, line: int | None = None) -> ImportRefused:
    """The one-line refusal: `path:line: cause`, or `path: cause` without a line."""
    return ImportRefused(f"{where}:{line}: {cause}" if line is not None else f"{where}: {cause}")


@dataclass(frozen=True)
class Source:
    path: Path  # as the user gave it
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def text(self) -> str:
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = self.data[: exc.start].count(b"\n") + 1
            raise refused(self.path, "not UTF-8 text", line) from None

    def modified(self) -> datetime:
        """When the file was last written: for a log, when its run ended."""
        return datetime.fromtimestamp(self.path.stat().st_mtime, UTC).replace(microsecond=0)


def read_source(path: Path) -> Source:
    try:
        return Source(path, path.read_bytes())
    except OSError as exc:
        raise refused(path, f"cannot read ({exc.strerror or exc})") from None
