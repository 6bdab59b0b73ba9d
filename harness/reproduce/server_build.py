"""Find a server build on this machine of the product and version a run measured: the --basedir
given, the run's own basedir when it exists here, Debian's packages under /usr, and the releases
`mybench server fetch` installs under .servers/. The same version is taken first; a build of the
same release series (10.11.x) is taken with a note, since a distribution rarely ships the exact
patch release another machine had."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UserError
from harness.servers.fetch import SERVERS_DIR, installed
from harness.servers.fetch.catalog import releases
from harness.servers.products.basedir import find_binaries
from harness.servers.products.identity import DISPLAY_NAMES, Product, probe

DEBIAN_BASEDIR = Path("/usr")


@dataclass(frozen=True)
class Build:
    basedir: Path
    product: Product
    note: str | None  # set when the version differs from the run's within its series


def _candidates(given: Path | None, recorded: str) -> list[Path]:
    if given is not None:
        return [given.resolve()]
    folders = sorted(SERVERS_DIR.iterdir()) if SERVERS_DIR.is_dir() else []
    fetched = [found.basedir if (found := installed(folder)) else folder for folder in folders]
    candidates = [Path(recorded), DEBIAN_BASEDIR, *fetched]
    return list(dict.fromkeys(path for path in candidates if path.is_dir()))


def _identify(basedir: Path) -> Product | None:
    try:
        server, _ = find_binaries(basedir)
        return probe(server)
    except UserError:
        return None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"[0-9]+", text))


def how_to_get(product: str, version: str) -> str:
    """What a reader runs to get the build: `mybench server fetch` when it knows a release of
    that version, else the product's own download, then --basedir."""
    name = DISPLAY_NAMES.get(product, product)
    fetchable = [
        known.name
        for known in releases().values()
        if (known.product, known.version) == (product, version)
    ]
    if fetchable:
        commands = " or ".join(f"`mybench server fetch {release}`" for release in fetchable)
        return f"run {commands} (it installs {name} {version} under .servers/)"
    debian = " or Debian's package mariadb-server" if product == "mariadb" else ""
    return (
        f"install the {name} {version} binary tarball{debian} and give its folder with --basedir"
    )


def find_build(product: str, version: str, recorded_basedir: str, given: Path | None) -> Build:
    """The build to run; UserError saying where it looked and how to get one."""
    wanted = _version(version)
    found = [(path, p) for path in _candidates(given, recorded_basedir) if (p := _identify(path))]
    same_product = [(path, p) for path, p in found if p.name == product]
    for path, found_product in same_product:
        if found_product.version == wanted:
            return Build(path, found_product, None)
    for path, found_product in same_product:
        if found_product.version[:2] == wanted[:2]:
            note = (
                f"{found_product.label} at {path} stands in for {version}"
                " (same release series, another patch release)"
            )
            return Build(path, found_product, note)
    name = f"{DISPLAY_NAMES.get(product, product)} {version}"
    if given is not None:
        what = found[0][1].label if found else "no mariadbd or mysqld"
        raise UserError(f"--basedir {given}: holds {what}, not {name} (server.version)")
    looked = ", ".join(str(path) for path in _candidates(None, recorded_basedir)) or "nowhere"
    raise UserError(
        f"server.version: {name} is not on this machine (looked in {looked}):"
        f" {how_to_get(product, version)}"
    )
