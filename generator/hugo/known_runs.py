"""What a long-lived process (`mybench serve`) knows of the run files between builds: each valid
file's parsed document, with the stat it was read at. A build after one new run then reads,
parses and validates that run only; every other file costs a stat.

A file counts as unchanged while its inode, size, mtime and ctime are those it was read at: an
atomic rename gives a new inode, an edit in place moves mtime and ctime. An invalid file is
never remembered, so it is reported on every build, as `load.load_runs` does. The checks across
files (an id used twice, two runs sharing a taxonomy page) run on every build.
"""

from __future__ import annotations

import os
from pathlib import Path

import contract
from generator.hugo.errors import InvalidData
from generator.hugo.load import RunFile
from generator.hugo.term_pages import shared_term_pages

Stamp = tuple[int, int, int, int]  # inode, size, mtime_ns, ctime_ns


def _stamp(entry: os.DirEntry[str]) -> Stamp:
    stat = entry.stat()
    return stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


class KnownRuns:
    """Run documents by path and stamp, kept from one build to the next of the same data dirs."""

    def __init__(self) -> None:
        self._known: dict[Path, tuple[Stamp, contract.RunDocument]] = {}
        self._loaded: set[Path] = set()  # the files of the last load that succeeded
        self.read = 0  # files the last load read (new, changed or invalid)
        self.removed = 0  # files of the last successful load that this one no longer found

    def _document(
        self, path: Path, stamp: Stamp, memo: contract.ValidationMemo
    ) -> tuple[contract.RunDocument | None, list[contract.Problem]]:
        known = self._known.get(path)
        if known is not None and known[0] == stamp:
            return known[1], []
        self.read += 1
        return contract.load_run(path, memo)

    def load(self, data_dirs: list[Path], memo: contract.ValidationMemo) -> list[RunFile]:
        """Every run of every data dir, sorted by id, as load.load_runs returns them; raises
        InvalidData listing every problem."""
        self.read = 0
        found: dict[str, RunFile] = {}
        known: dict[Path, tuple[Stamp, contract.RunDocument]] = {}
        problems: list[contract.Problem] = []
        for data_dir in data_dirs:
            runs_dir = Path(data_dir) / "runs"
            try:
                entries = sorted(os.scandir(runs_dir), key=lambda entry: entry.name)
            except OSError as error:
                problems.append(contract.Problem(str(runs_dir), "$", f"cannot list: {error}"))
                continue
            for entry in entries:
                path = Path(entry.path)
                if not entry.name.endswith(".json"):
                    if not entry.name.startswith("."):  # hidden: a writer's staged file
                        problems.append(contract.Problem(str(path), "$", "not a .json run file"))
                    continue
                try:
                    stamp = _stamp(entry)
                except FileNotFoundError:  # removed since the listing: the next build sees it
                    continue
                doc, doc_problems = self._document(path, stamp, memo)
                problems += doc_problems
                if doc is None:
                    continue
                known[path] = (stamp, doc)
                if (first := found.get(doc["id"])) is not None:
                    why = f"id also used by {first.path}"
                    problems.append(contract.Problem(str(path), "$.id", why))
                else:
                    found[doc["id"]] = RunFile(path, doc)
        self._known = known
        runs = [found[run_id] for run_id in sorted(found)]
        problems += shared_term_pages(runs)
        if problems:
            raise InvalidData(problems)
        self.removed = len(self._loaded - known.keys())
        self._loaded = set(known)
        return runs
