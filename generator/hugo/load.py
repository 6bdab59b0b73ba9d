"""Read every data directory through the contract; fail as a whole if any document is unusable
or two would share a page."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import contract
from generator.hugo.errors import InvalidData
from generator.hugo.term_pages import shared_term_pages


class RunFile(NamedTuple):
    path: Path
    doc: contract.RunDocument


def load_runs(data_dirs: list[Path]) -> list[RunFile]:
    """Every run of every data dir, sorted by id; raises InvalidData listing every problem."""
    loaded: dict[str, RunFile] = {}
    problems: list[contract.Problem] = []
    for data_dir in data_dirs:
        docs, dir_problems = contract.validate_dir(Path(data_dir))
        problems += dir_problems
        for doc in docs:
            path = Path(data_dir) / "runs" / f"{doc['id']}.json"
            if doc["id"] in loaded:
                other = loaded[doc["id"]].path
                problems.append(contract.Problem(str(path), "$.id", f"id also used by {other}"))
                continue
            loaded[doc["id"]] = RunFile(path, doc)
    runs = [loaded[run_id] for run_id in sorted(loaded)]
    problems += shared_term_pages(runs)
    if problems:
        raise InvalidData(problems)
    return runs
