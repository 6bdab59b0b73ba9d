"""A results directory checked whole: every run document, and the profile file each names."""

from __future__ import annotations

from pathlib import Path

from contract._profiles import load_profile
from contract._run_document import RunDocument
from contract._validate import Problem, load_run, run_files


def validate_dir(data_dir: Path) -> tuple[list[RunDocument], list[Problem]]:
    """Validate every runs/*.json of a results directory, and the profile file each names."""
    paths, strays = run_files(data_dir)
    runs: list[RunDocument] = []
    problems: list[Problem] = []
    for path in paths:
        doc, found = load_run(path)
        problems += found
        if doc is not None:
            problems += load_profile(data_dir, doc)[1]
            runs.append(doc)
    return runs, problems + strays
