"""`mybench import runs DIR...`: run documents produced elsewhere (another machine's data/, a
CI artifact) merged into a results directory.

Every *.json in a runs/ folder under the directories (or, without one, every *.json under
them) is a run document and must validate; each comes with the
files it refers to, relative to the results directory holding its runs/: a measured run's
stored provenance diff (harness.snapshot.diff.path) and its server profile (profile.file), each
checked against its hash (the profile against its schema and its run too), so a merge never
leaves a run whose diff or profile is missing. Landing (landing.py) refuses an id that is already
there with other content and writes nothing unless everything passed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import contract
from harness.importing.landing import Arrival
from harness.importing.sources import ImportRefused, read_source, refused


def gather(directories: list[Path]) -> tuple[list[Arrival], dict[str, bytes]]:
    """The run documents under directories, checked, and the files they refer to (by path
    relative to a results directory)."""
    arrivals: list[Arrival] = []
    referred: dict[str, bytes] = {}
    for directory in directories:
        if not directory.is_dir():
            raise refused(directory, "not a directory")
        paths = run_documents(directory)
        if not paths:
            raise refused(directory, "no run document (*.json) under it")
        for path in paths:
            raw = read_source(path).data
            document, problems = contract.check_run(str(path), raw)
            if document is None:
                raise ImportRefused(str(problems[0]))
            arrivals.append(Arrival(document.copy(), str(path), raw, checked=True))
            if (diff := document["harness"].get("snapshot", {}).get("diff")) is not None:
                referred[diff["path"]] = _stored_diff(path, diff["path"], diff["sha256"])
            if "file" in (profile := document.get("profile", {})):
                referred[profile["file"]] = _profile_file(path, document)
    return arrivals, referred


def run_documents(directory: Path) -> list[Path]:
    """The run files under directory: those of every runs/ folder in it (a results directory
    holds other JSON, its schema), or every *.json when it has no runs/ folder (a folder of
    bare run files)."""
    folders = [directory] if directory.name == "runs" else []  # runs/ itself given
    folders += sorted(directory.rglob("runs"))
    found = [p for folder in folders if folder.is_dir() for p in folder.glob("*.json")]
    if not found and not folders:
        found = list(directory.rglob("*.json"))
    return sorted(p for p in found if not p.name.startswith("."))


def _results_dir(run_file: Path) -> Path:
    return run_file.parent.parent if run_file.parent.name == "runs" else run_file.parent


def _profile_file(run_file: Path, document: contract.RunDocument) -> bytes:
    """The run's profile file, checked as the site checks it (contract.load_profile)."""
    results = _results_dir(run_file)
    _, problems = contract.load_profile(results, document)
    if problems:
        raise ImportRefused(f"{run_file}: its profile: {problems[0]}")
    return (results / document["profile"]["file"]).read_bytes()


def _stored_diff(run_file: Path, relative: str, sha256: str) -> bytes:
    stored = _results_dir(run_file) / relative
    try:
        data = stored.read_bytes()
    except OSError as exc:
        raise refused(
            run_file, f"refers to {relative}, not readable at {stored} ({exc.strerror})"
        ) from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise refused(stored, f"not the diff {run_file.name} names (sha256 {sha256})")
    return data
