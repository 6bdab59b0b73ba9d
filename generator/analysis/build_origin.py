"""Where each compared server build came from, and whether the builds of a comparison differ
in origin, so a version difference that is partly a build difference says so.

A run written since the harness records `server.build` says it; for an older run the origin is
derived from what it did record (binary and basedir paths, version comment, the TLS library
variable), and marked derived so a page can say so.
"""

from __future__ import annotations

from typing import Any

from contract import Build, RunDocument

TARBALL_MARK = "/.servers/"  # `mybench server fetch` puts MariaDB's generic binaries there


def _derived_build(run: RunDocument) -> Build:
    server = run["server"]
    variables = server.get("variables", {})
    reported = {
        name: variables[name]
        for name in ("version_comment", "version_compile_machine", "version_ssl_library")
        if variables.get(name)
    }
    basedir = server.get("basedir", "")
    build: Build
    if server.get("kind") == "existing":
        build = {"origin": "existing"}
    elif basedir == "/usr" or server.get("binary", "").startswith("/usr/sbin/"):
        build = {"origin": "package", "distribution": server.get("version_comment", "")}
    elif TARBALL_MARK in f"{basedir}/":
        build = {"origin": "tarball", "basedir": basedir}
    else:
        build = {"origin": "basedir", "basedir": basedir}
    return {**build, "reported": reported}


def build_of(run: RunDocument) -> dict[str, Any]:
    """The run's build as recorded, or derived for an older run; with a one-line description."""
    build = _recorded_or_derived(run)
    derived = "build" not in run["server"]
    return {**build, "derived": derived, "description": describe(build)}


def _recorded_or_derived(run: RunDocument) -> Build:
    recorded = run["server"].get("build")
    return recorded if recorded is not None else _derived_build(run)


def _tarball_dir(basedir: str) -> str:
    """The basedir from `.servers/` on: where the tarball sits under the clone that ran it is
    machine-specific, and the same tarball in two clones is one build."""
    return basedir[basedir.index(TARBALL_MARK) + 1 :] if TARBALL_MARK in basedir else basedir


def describe(build: Build) -> str:
    """E.g. "a Debian GNU/Linux 12 (bookworm) package (mariadb-server-core 1:10.11.19-0+deb12u1)
    built with OpenSSL 3.0.19"."""
    origin = build["origin"]
    if origin == "package":
        where = build.get("distribution") or "distribution"
        package = " ".join(filter(None, (build.get("package"), build.get("package_version"))))
        text = f"a {where} package" + (f" ({package})" if package else "")
    elif origin == "tarball":
        text = f"MariaDB's generic binaries ({_tarball_dir(build.get('basedir', ''))})"
    elif origin == "basedir":
        text = f"a build from the basedir {build.get('basedir', '')}"
    else:
        text = "a running server the harness did not start (binary unknown)"
    if ssl := build.get("reported", {}).get("version_ssl_library"):
        text += f" built with {ssl}"
    return text


def _key(build: Build) -> tuple[str, ...]:
    """What makes two builds of different origin: how they were obtained, and which package or
    basedir, TLS library and target they are."""
    reported = build.get("reported", {})
    return (
        build["origin"],
        build.get("package", ""),
        _tarball_dir(build.get("basedir", "")),
        reported.get("version_ssl_library", ""),
        reported.get("version_compile_machine", ""),
    )


def build_comparison(runs: list[RunDocument]) -> dict[str, Any] | None:
    """None when every run's server has the same build origin; else one entry per distinct
    build (the server versions it ran, its description, whether derived), in order of first
    appearance."""
    builds: dict[tuple[str, ...], dict[str, Any]] = {}
    # An imported run records no build: deriving one from nothing would invent a difference.
    measured = [run for run in runs if "origin" not in run]
    for run in sorted(measured, key=lambda run: run["started_at"]):
        build = build_of(run)
        entry = builds.setdefault(_key(_recorded_or_derived(run)), {**build, "versions": []})
        version = run["server"]["version"]
        if version not in entry["versions"]:
            entry["versions"].append(version)
    if len(builds) < 2:
        return None
    entries = [
        {key: entry[key] for key in ("versions", "description", "derived", "origin")}
        for entry in builds.values()
    ]
    return {"builds": entries, "derived": any(entry["derived"] for entry in entries)}
