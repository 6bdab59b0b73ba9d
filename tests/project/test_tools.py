"""Checks on the scripts in tools/: shell that passes shellcheck, downloads only through the
ecosystems' own clients (mvn, npm, go), and the site comparison of tools/site-diff.py."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers.paths import REPO, TOOLS_DIR
from tests.helpers.tools import required_tool

SHELL_SCRIPTS = sorted(TOOLS_DIR.glob("*.sh"))
SITE_DIFF = TOOLS_DIR / "site-diff.py"
URL = re.compile(r"\bhttps?://")


def site_diff() -> ModuleType:
    spec = importlib.util.spec_from_file_location("site_diff", SITE_DIFF)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("script", SHELL_SCRIPTS, ids=lambda path: path.name)
def test_script_passes_shellcheck(script: Path) -> None:
    result = subprocess.run(
        [required_tool("shellcheck"), str(script)], capture_output=True, text=True, check=False
    )

    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("script", sorted(TOOLS_DIR.glob("*.*")), ids=lambda path: path.name)
def test_script_names_no_download_host(script: Path) -> None:
    # A hard-coded host bypasses the mirror or proxy the user's Maven, npm or Go is set up with.
    assert not URL.search(script.read_text(encoding="utf-8")), f"{script.name} names a URL"


def write_tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content)
    return root


def test_site_diff_reports_each_kind_of_difference(tmp_path: Path) -> None:
    same = {"index.html": b"<p>same</p>\n", "img/a.png": b"\x89PNG\x00\x01"}
    a = write_tree(tmp_path / "a", {**same, "old.html": b"x", "page.html": b"one\ntwo\n"})
    b = write_tree(tmp_path / "b", {**same, "new.html": b"y", "page.html": b"one\nthree\n"})

    report = site_diff().compare(a, b)

    assert report[:3] == ["only in A: old.html", "only in B: new.html", "differs: page.html"]
    assert "    -two" in report
    assert "    +three" in report
    assert not any("index.html" in line or "a.png" in line for line in report)


def test_site_diff_of_identical_trees_is_empty(tmp_path: Path) -> None:
    files = {"index.html": b"<p>same</p>\n", "img/a.png": b"\x89PNG\x00\x01"}

    assert (
        site_diff().compare(write_tree(tmp_path / "a", files), write_tree(tmp_path / "b", files))
        == []
    )


def test_site_diff_exits_2_on_an_unknown_revision() -> None:
    result = subprocess.run(
        [sys.executable, str(SITE_DIFF), "no-such-revision"],
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 2, result.stdout + result.stderr
    assert "no-such-revision" in result.stderr


def test_make_help_lists_every_target_once() -> None:
    makefile = (REPO / "Makefile").read_text()
    phony = re.search(r"^\.PHONY:(.*)$", makefile, re.MULTILINE)
    assert phony is not None
    listed = subprocess.run(
        ["make", "-s", "-C", str(REPO), "help"], capture_output=True, text=True, check=True
    ).stdout
    named = re.findall(r"^make (\S+)\s+- \S", listed, re.MULTILINE)
    assert sorted(named) == sorted(phony[1].split())
    assert makefile.index("\nhelp:") < makefile.index("\ndemo:")  # plain `make` lists them
