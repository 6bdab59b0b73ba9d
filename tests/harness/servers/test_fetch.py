"""`mybench server fetch`: the catalog, where the Debian route finds its mirror, and a real fetch of
the Maven release from the local Maven repository (`make servers` put the jar there)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from harness.errors import UserError
from harness.servers import fetch
from harness.servers.fetch import catalog, debian
from harness.servers.fetch.catalog import Debian, Maven
from harness.servers.sandbox import Binaries
from tests.helpers.paths import REPO


def test_every_release_is_pinned_and_named_after_its_version():
    known = catalog.releases()
    assert "mariadb-11.4.5" in known
    for name, release in known.items():
        assert name.startswith(f"{release.product}-{release.version}"), name
        if isinstance(release.origin, Maven):
            assert re.fullmatch(r"[0-9a-f]{40}", release.origin.sha1), name
            assert release.origin.artifact.endswith(f":{release.version}"), name
        else:
            assert isinstance(release.origin, Debian)
            assert release.origin.packages, name
            for package, version in release.origin.packages.items():
                assert release.version in version, (name, package)


def test_an_unknown_release_names_the_known_ones():
    with pytest.raises(
        UserError, match=r"^mariadb-9\.9: not a release catalog\.toml knows; known: "
    ):
        catalog.release("mariadb-9.9")


@pytest.fixture
def sources(tmp_path, monkeypatch):
    listing, parts = tmp_path / "sources.list", tmp_path / "sources.list.d"
    parts.mkdir()
    monkeypatch.setattr(debian, "SOURCES", (listing, parts))
    for name in ("MYBENCH_DEBIAN_MIRROR", "MYBENCH_DEBIAN_SECURITY_MIRROR"):
        monkeypatch.delenv(name, raising=False)
    return listing, parts


def test_the_mirror_is_the_one_the_systems_deb822_sources_name(sources):
    _, parts = sources
    (parts / "debian.sources").write_text(
        "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\n"
        "Components: main\n\nTypes: deb\nURIs: http://mirror.example/debian-security\n"
        "Suites: bookworm-security\nComponents: main\n"
    )
    (parts / "other.sources").write_text(
        "Types: deb\nURIs: https://deb.example/node\nSuites: nodistro\n"
    )
    assert debian.mirrors() == (
        "http://mirror.example/debian",
        "http://mirror.example/debian-security",
    )


def test_the_mirror_of_a_one_line_sources_list_and_the_overrides(sources, monkeypatch):
    listing, _ = sources
    listing.write_text("# comment\ndeb [arch=amd64] http://ftp.example/debian bookworm main\n")
    assert debian.mirrors() == ("http://ftp.example/debian", "http://ftp.example/debian-security")
    monkeypatch.setenv("MYBENCH_DEBIAN_MIRROR", "http://other.example/debian")
    assert debian.mirrors()[0] == "http://other.example/debian"


def test_no_debian_mirror_says_which_variable_to_set(sources):
    with pytest.raises(UserError, match="set MYBENCH_DEBIAN_MIRROR"):
        debian.mirrors()


@pytest.mark.server
@pytest.mark.skipif(shutil.which("mvn") is None, reason="mvn not installed (make servers)")
def test_the_maven_release_installs_with_a_manifest_and_is_not_fetched_twice(tmp_path):
    into = tmp_path / "servers"
    (into / "mariadb-11.4.5").mkdir(parents=True)  # an interrupted fetch: no manifest
    (into / "mariadb-11.4.5" / "leftover").write_text("")
    result = subprocess.run(
        [REPO / ".venv/bin/mybench", "server", "fetch", "mariadb-11.4.5", "--into", into],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    folder = into / "mariadb-11.4.5"
    assert result.stdout.strip() == str(folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["release"] == "mariadb-11.4.5"
    assert manifest["sha1"] == catalog.release("mariadb-11.4.5").origin.sha1
    assert manifest["version_text"].startswith("11.4.5-MariaDB")
    assert not (folder / "leftover").exists()
    binaries = Binaries.find(folder)
    assert binaries.product.version == (11, 4, 5)
    assert fetch.of_basedir(folder) is not None
    assert fetch.fetch("mariadb-11.4.5", into).manifest == manifest  # not fetched again


@pytest.mark.server
@pytest.mark.skipif(shutil.which("patchelf") is None, reason="patchelf not installed")
def test_a_newer_debian_release_runs_on_its_own_loader_and_libraries(tmp_path):
    """Debian 13's server needs a newer glibc than Debian 12 has: fetched with its libraries and
    patched to use them, it runs here, and every library it loads comes from its own root."""
    fetched = fetch.fetch("mariadb-11.8.9-deb13", tmp_path)
    assert fetched.manifest["version_text"].startswith("11.8.9-MariaDB")
    assert {"mariadb-server-core", "libc6"} <= {p["package"] for p in fetched.manifest["packages"]}
    server = fetched.basedir / "sbin" / "mariadbd"
    loader = fetched.folder / fetched.manifest["loader"]
    listing = subprocess.run(
        [loader, "--list", server], capture_output=True, text=True, check=True
    ).stdout
    loaded = re.findall(r"=> (\S+) \(", listing)
    assert loaded and all(path.startswith(str(tmp_path)) for path in loaded), listing
    binaries = Binaries.find(fetched.basedir)
    assert binaries.product.version == (11, 8, 9)
    assert binaries.own_folders["plugin_dir"].startswith(str(tmp_path))
    assert fetch.of_basedir(fetched.basedir) == fetched
