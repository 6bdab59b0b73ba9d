"""Server releases installed as data: `mybench server fetch <release>` puts a release of
catalog.toml into .servers/<release>/ from the registry that carries it (maven.py, debian.py)
and writes manifest.json beside it: where it came from, what was downloaded with its hashes,
the basedir to start it from, and the options that keep it on its own files.

The manifest is written last: a folder without one is an interrupted fetch, removed and fetched
again. A fetched release is never refetched over itself; remove its folder to fetch it anew."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NotRequired, TypedDict, cast

from harness import PROJECT_ROOT
from harness.errors import UserError
from harness.servers.fetch import debian, maven
from harness.servers.fetch.catalog import Maven, Release, release
from harness.servers.products.basedir import find_binaries
from harness.servers.products.identity import probe

SERVERS_DIR = PROJECT_ROOT / ".servers"
MANIFEST = "manifest.json"
APT_STATE = ".apt"  # under SERVERS_DIR: the private apt state of each Debian suite


class ServerPackage(TypedDict):
    package: str
    version: str


class Manifest(TypedDict):
    """What the harness reads of manifest.json (maven.py and debian.py record more)."""

    release: str
    basedir: str  # relative to the release's folder
    server_options: NotRequired[dict[str, str]]
    server_package: NotRequired[ServerPackage]  # a Debian suite's release
    suite: NotRequired[str]


@dataclass(frozen=True)
class Fetched:
    folder: Path
    manifest: Manifest

    @property
    def basedir(self) -> Path:
        return self.folder / self.manifest["basedir"]

    @property
    def server_options(self) -> dict[str, str]:
        return dict(self.manifest.get("server_options", {}))


def installed(folder: Path) -> Fetched | None:
    """The fetched release in folder, or None when folder holds none (or an interrupted one)."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    # Written by fetch() below, last of all: a folder with one holds a whole release.
    return Fetched(folder, cast(Manifest, json.loads(path.read_text(encoding="utf-8"))))


def of_basedir(basedir: Path) -> Fetched | None:
    """The fetched release a basedir belongs to, if any (wherever it was fetched to)."""
    resolved = basedir.resolve()
    for folder in (resolved, resolved.parent):
        if (found := installed(folder)) is not None and found.basedir.resolve() == resolved:
            return found
    return None


def _check_version(wanted: Release, basedir: Path) -> str:
    """The server's own --version text, which must be the release's version."""
    server, _ = find_binaries(basedir)
    product = probe(server)
    if (product.name, ".".join(map(str, product.version))) != (wanted.product, wanted.version):
        raise UserError(f"{server}: reports {product.version_text}, not {wanted.name}")
    return product.version_text


def fetch(name: str, servers_dir: Path = SERVERS_DIR) -> Fetched:
    """The release called name, fetched into servers_dir/<name>/ unless it is there already."""
    wanted = release(name)
    folder = servers_dir / name
    if found := installed(folder):
        return found
    if folder.exists():  # an interrupted fetch
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    try:
        if isinstance(wanted.origin, Maven):
            details = maven.unpack(wanted, folder)
        else:
            details = debian.unpack(wanted, folder, servers_dir / APT_STATE)
        details["version_text"] = _check_version(wanted, folder / str(details["basedir"]))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    manifest = {
        "release": wanted.name,
        "product": wanted.product,
        "version": wanted.version,
        "origin": wanted.origin_text,
        "fetched_at": datetime.now(UTC).isoformat(timespec="seconds"),
        **details,
    }
    staged = folder / f".{MANIFEST}.partial"
    staged.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    staged.replace(folder / MANIFEST)
    found = installed(folder)
    if found is None:
        raise UserError(f"{folder}: no {MANIFEST} after the fetch")
    return found
