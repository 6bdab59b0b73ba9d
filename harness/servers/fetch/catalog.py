"""The releases `mybench server fetch` knows (catalog.toml beside this file): where each comes
from and how it is pinned."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import UserError

CATALOG = Path(__file__).with_name("catalog.toml")


@dataclass(frozen=True)
class Maven:
    artifact: str  # group:artifact:version
    sha1: str


@dataclass(frozen=True)
class Debian:
    suite: str  # the Debian codename: bullseye, bookworm, trixie
    packages: dict[str, str]  # package -> exact version


@dataclass(frozen=True)
class Release:
    name: str  # also the folder under .servers/
    product: str
    version: str
    origin: Maven | Debian

    @property
    def origin_text(self) -> str:
        """Where the build comes from, in words, for the manifest and the pages."""
        if isinstance(self.origin, Maven):
            return f"generic binaries, Maven Central {self.origin.artifact}"
        return f"Debian {self.origin.suite} packages " + ", ".join(
            f"{package} {version}" for package, version in self.origin.packages.items()
        )


def _release(name: str, entry: dict[str, Any]) -> Release:  # a catalog.toml table
    if entry["origin"] == "maven":
        origin: Maven | Debian = Maven(entry["artifact"], entry["sha1"])
    else:
        origin = Debian(entry["suite"], dict(entry["packages"]))
    return Release(name, entry["product"], entry["version"], origin)


def releases() -> dict[str, Release]:
    raw = tomllib.loads(CATALOG.read_text(encoding="utf-8"))
    return {name: _release(name, entry) for name, entry in raw.items()}


def release(name: str) -> Release:
    """The release called name; UserError listing the known ones otherwise."""
    known = releases()
    if name not in known:
        raise UserError(
            f"{name}: not a release {CATALOG.name} knows; known: {', '.join(sorted(known))}"
        )
    return known[name]
