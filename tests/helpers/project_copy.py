"""A throwaway copy of the project as its own git repository, for tests of what the harness
records about its checkout: a test dirties or commits in the copy, never in the real worktree.
`mybench` run with the copy as working directory imports the copy's code, so its project root
(and its data/) is the copy's."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import REPO

# What `mybench run` needs: the CLI imports the generator (whose chart style is a site asset
# the charts' JavaScript shares), the harness validates against the schema, and .gitignore
# keeps the results' neighbours (caches) out of git's view.
COPIED = ("cli", "harness", "contract", "generator", "data/schema", "campaigns", "pyproject.toml",
          "site/assets/js/chart-style.json")  # fmt: skip
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")


def git(copy: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@invalid", *args],
        cwd=copy, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip


def project_copy(tmp_path: Path) -> Path:
    """The copy, with everything committed: a clean tree."""
    copy = tmp_path / "project"
    for name in COPIED:
        source, target = REPO / name, copy / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=IGNORED)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, target)
    shutil.copy(REPO / ".gitignore", copy / ".gitignore")
    git(copy, "init", "-q")
    git(copy, "add", "-A")
    git(copy, "commit", "-q", "-m", "copy")
    return copy


# `mybench` as the copy's code: run it with the copy as the working directory.
MYBENCH = [sys.executable, "-m", "cli"]


def run_in(copy: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*MYBENCH, *args], cwd=copy, capture_output=True, text=True, check=False, timeout=300
    )
