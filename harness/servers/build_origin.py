"""How a server binary was obtained, for the run document's server.build.

A version comparison between two builds is partly a build comparison: Debian's package and
MariaDB's generic binaries differ in TLS library, compiler flags and allocator. So every run
records where its binary came from:

- package: a distribution package owns the binary (`dpkg -S`), with its version (`dpkg-query`);
- package: also a Debian suite's packages `mybench server fetch` unpacked into a root of their own;
- tarball: MariaDB's generic binaries in the project's .servers/ (`mybench server fetch`);
- basedir: any other basedir the campaign names;
- existing: a server the harness did not start, whose binary it does not know;

and what the server itself reports about its build (REPORTED, where it has them).
"""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path

import contract
from harness.servers.fetch import SERVERS_DIR, Manifest, of_basedir

REPORTED = (
    "version_comment",
    "version_compile_machine",
    "version_compile_os",
    "version_malloc_library",
    "version_source_revision",
    "version_ssl_library",
    "have_ssl",
    "have_openssl",
)


def _run(*argv: str) -> str | None:
    try:
        result = subprocess.run(list(argv), check=False, capture_output=True, text=True)
    except FileNotFoundError:  # not a dpkg-based system
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def owning_package(binary: Path) -> tuple[str, str] | None:
    """(package, version) of the distribution package that installed binary, if one did."""
    for path in dict.fromkeys((binary, binary.resolve())):
        owner = _run("dpkg", "-S", str(path))
        if owner:
            package = owner.splitlines()[0].split(":", 1)[0].strip()
            version = _run("dpkg-query", "-W", "-f", "${Version}", package)
            if version:
                return package, version
    return None


def _distribution() -> str | None:
    try:
        return platform.freedesktop_os_release().get("PRETTY_NAME")
    except OSError:
        return None


def reported(variables: dict[str, str]) -> dict[str, str]:
    return {name: variables[name] for name in REPORTED if variables.get(name)}


def sandbox_build(binary: Path, basedir: Path, variables: dict[str, str]) -> contract.Build:
    """The build of a server the harness starts from basedir."""
    build: contract.Build
    if (package := owning_package(binary)) is not None:
        build = {"origin": "package", "package": package[0], "package_version": package[1]}
        if (distribution := _distribution()) is not None:
            build["distribution"] = distribution
    elif (fetched := of_basedir(basedir)) is not None:
        build = _fetched_build(fetched.manifest, basedir)
    elif basedir.resolve().is_relative_to(SERVERS_DIR.resolve()):
        build = {"origin": "tarball", "basedir": str(basedir)}
    else:
        build = {"origin": "basedir", "basedir": str(basedir)}
    return {**build, "reported": reported(variables)}


def _fetched_build(manifest: Manifest, basedir: Path) -> contract.Build:
    """A release `mybench server fetch` installed: a Debian suite's packages unpacked into a
    root of their own, or generic binaries from Maven Central."""
    release, where = manifest["release"], str(basedir)
    if "server_package" in manifest:
        package = manifest["server_package"]
        return {
            "origin": "package",
            "package": package["package"],
            "package_version": package["version"],
            "distribution": f"Debian {manifest['suite']} (unpacked by mybench server fetch)",
            "release": release,
            "basedir": where,
        }
    return {"origin": "tarball", "release": release, "basedir": where}


def existing_build(variables: dict[str, str]) -> contract.Build:
    """The build of a server the harness connected to: only what it reports."""
    return {"origin": "existing", "reported": reported(variables)}
