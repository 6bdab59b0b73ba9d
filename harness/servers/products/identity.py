"""Which product and version a server binary is: MariaDB, MySQL or Percona Server, read from
its `--version` output."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UserError
from harness.servers.products.versions import Version

PROBE_TIMEOUT_S = 30
DISPLAY_NAMES = {"mariadb": "MariaDB", "mysql": "MySQL", "percona": "Percona Server"}


@dataclass(frozen=True)
class Product:
    name: str  # "mariadb" | "mysql" | "percona"
    version: Version  # (10, 11, 19)
    version_text: str  # as printed: "10.11.19-MariaDB-0+deb12u1"

    @property
    def family(self) -> str:
        return "mariadb" if self.name == "mariadb" else "mysql"

    @property
    def label(self) -> str:
        return f"{DISPLAY_NAMES[self.name]} {'.'.join(map(str, self.version))}"


# "mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)"
# "mysqld  Ver 8.0.39-30 for Linux on x86_64 (Percona Server (GPL), Release '30', ...)"
_VERSION_LINE = re.compile(
    r"\bVer\s+(?P<text>(?P<number>[0-9]+(?:\.[0-9]+)+)\S*)(?P<rest>.*)$", re.MULTILINE
)


def parse_version_output(text: str) -> Product:
    """The product behind a `--version` output. MariaDB always tags its version string; Percona
    names itself in the comment. Anything else is MySQL (Ubuntu's "8.0.36-0ubuntu0.22.04.1" has
    a numeric suffix too, so the suffix alone cannot identify Percona)."""
    match = _VERSION_LINE.search(text)
    if match is None:
        first_line = text.strip().splitlines()[0] if text.strip() else "(nothing)"
        raise UserError(f"no 'Ver X.Y.Z' in its --version output: {first_line[:120]}")
    version_text = match["text"]
    if "mariadb" in version_text.lower():
        name = "mariadb"
    elif "percona" in match["rest"].lower():
        name = "percona"
    else:
        name = "mysql"
    return Product(name, tuple(int(part) for part in match["number"].split(".")), version_text)


def probe(server_binary: Path) -> Product:
    """Run `<server_binary> --version` (no datadir needed) and identify the product."""
    try:
        result = subprocess.run(
            [str(server_binary), "--version"],
            check=False,
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UserError(f"{server_binary}: cannot run it to read its version: {exc}") from exc
    try:
        return parse_version_output(result.stdout + result.stderr)
    except UserError as exc:
        raise UserError(f"{server_binary} (exit {result.returncode}): {exc}") from None
