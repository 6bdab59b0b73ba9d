"""A server build's compiled defaults: SHOW GLOBAL VARIABLES of a freshly initialised server
started with an empty my.cnf (only the sandbox's own placement: paths, port, socket).

Run pages disclose every variable whose value differs from its build's default, so a reader
sees what the configuration changed, whether my.cnf set it or not. The probe costs a server
start, so its answer is cached per build (binary path, size and mtime) under the user's cache
directory and reused by every later campaign.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import TypedDict, cast

import contract
from harness.servers.sandbox import Binaries, Sandbox

UNIQUE_PER_START = frozenset({"server_uid", "server_uuid"})
# Part of the cache key: 2 since the secret rule stopped redacting plain settings (secure_auth),
# which a cache written before holds as "<redacted>".
CACHE_FORMAT = 2
SOURCE = "SHOW GLOBAL VARIABLES of a fresh server of the same build started with an empty my.cnf"


class BuildDefaults(TypedDict):
    """A build's defaults, as cached: its binary, the variables, and the names left out."""

    binary: str
    variables: dict[str, str]
    per_instance: list[str]


def cache_dir() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "mybench" / "compiled-defaults"


def _build_key(binaries: Binaries) -> str:
    stat = binaries.server.stat()
    identity = f"{CACHE_FORMAT}|{binaries.server.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    return hashlib.sha256(identity.encode()).hexdigest()[:16]


def compiled_defaults(binaries: Binaries, scratch: Path) -> BuildDefaults:
    """{"variables": the build's defaults, "per_instance": names left out because their value
    named the probe instance itself (its paths, port, socket, uid), where every server differs
    by construction}. Starts a throwaway server in scratch/ unless cached."""
    cached = cache_dir() / f"{_build_key(binaries)}.json"
    if cached.is_file():
        return cast(BuildDefaults, json.loads(cached.read_text()))  # written below
    with Sandbox(binaries, scratch / "compiled-defaults", "[mysqld]\n") as box:
        with box.connect() as conn, conn.cursor() as cursor:
            cursor.execute("SHOW GLOBAL VARIABLES")
            found = contract.redact_options(
                {name: "" if v is None else str(v) for name, v in cursor}
            )
        own = (str(box.workdir), str(box.socket_dir), str(box.port))
    per_instance = sorted(
        name
        for name, value in found.items()
        if name in UNIQUE_PER_START or any(mark in value for mark in own)
    )
    document: BuildDefaults = {
        "binary": str(binaries.server),
        "variables": {n: v for n, v in found.items() if n not in per_instance},
        "per_instance": per_instance,
    }
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=cached.parent, delete=False) as handle:
        json.dump(document, handle, indent=1)
    os.replace(handle.name, cached)  # atomic: a concurrent campaign never reads half a file
    return document


def differences(variables: dict[str, str], compiled: BuildDefaults) -> dict[str, str | None]:
    """name -> the build's default, for every variable whose value is not that default (None:
    the probe had no such variable, e.g. a plugin loaded by my.cnf)."""
    defaults, per_instance = compiled["variables"], set(compiled["per_instance"])
    return {
        name: defaults.get(name)
        for name, value in sorted(variables.items())
        if name not in per_instance and defaults.get(name) != value
    }
