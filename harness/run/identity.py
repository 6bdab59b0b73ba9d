"""What a run document says about the harness that wrote it: version and git commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness import PROJECT_ROOT, __version__


def _git(*args: str) -> str | None:
    try:
        result = subprocess.run(
            check=False, args=["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True
        )
    except FileNotFoundError:  # a results machine need not have git; the run then says null
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def harness_identity() -> dict[str, object]:
    commit = _git("rev-parse", "HEAD")
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return {"version": __version__, "git_commit": commit, "git_dirty": bool(dirty)}


def relative_to_project(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)
