"""The run documents as committed at HEAD, for benchmarks that build the site.

data/runs/ changes while a campaign runs (a run file appears at each completed run), so timing
the build on the working tree would measure whatever happened to be there.
"""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def committed_data(into: Path) -> Path:
    """Extract HEAD's data/runs under into/; returns the data dir (into/data)."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", "HEAD", "data/runs"],
        capture_output=True,
        check=True,
    ).stdout
    into.mkdir(parents=True, exist_ok=True)
    archive_path = into / "committed.tar"
    archive_path.write_bytes(archive)
    with tarfile.open(archive_path) as tar:
        tar.extractall(into, filter="data")
    archive_path.unlink()
    return into / "data"
