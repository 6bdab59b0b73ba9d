"""Where the inferno flame-graph tools are: the harness folds perf's samples with
inferno-collapse-perf, the generator draws with inferno-flamegraph and inferno-diff-folded.

tools/ensure-inferno.sh builds the pinned version into the repository's .tools/inferno (make
demo, test and build run it); a copy on PATH is used first.
"""

from __future__ import annotations

import shutil
from pathlib import Path

REPO_TOOLS = Path(__file__).resolve().parents[1] / ".tools" / "inferno" / "bin"


class InfernoMissing(RuntimeError):
    pass


def inferno(tool: str) -> str:
    """The path of one inferno tool (inferno-flamegraph, ...); InfernoMissing says how to get
    it."""
    found = shutil.which(tool) or shutil.which(tool, path=str(REPO_TOOLS))
    if found is None:
        raise InfernoMissing(
            f"{tool} not found on PATH nor in {REPO_TOOLS}: run tools/ensure-inferno.sh"
        )
    return found
