"""KnownRuns, what `mybench serve` keeps between builds: the same runs and problems as load_runs,
reading only the files that are new or changed since the last load."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.hugo.errors import InvalidData
from generator.hugo.known_runs import KnownRuns
from generator.hugo.load import load_runs
from tests.helpers.paths import FIXTURE_RUNS


class NoMemo:
    """A validation memo that remembers nothing: every file read is validated."""

    def __contains__(self, document: tuple[str, bytes]) -> bool:
        return False

    def add(self, document: tuple[str, bytes]) -> None:
        pass


def copied_fixtures(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE_RUNS / "runs", tmp_path / "data" / "runs")
    return tmp_path / "data"


def problems_of(load, data_dirs: list[Path]) -> list[str]:
    with pytest.raises(InvalidData) as refused:
        load(data_dirs, NoMemo())
    return [str(problem) for problem in refused.value.problems]


def test_loads_what_load_runs_loads_and_then_reads_only_what_changed(tmp_path):
    data = copied_fixtures(tmp_path)
    known = KnownRuns()
    assert known.load([data], NoMemo()) == load_runs([data])
    assert (known.read, known.removed) == (len(list((data / "runs").glob("*.json"))), 0)
    assert known.load([data], NoMemo()) == load_runs([data])
    assert known.read == 0

    first, second = sorted((data / "runs").glob("*.json"))[:2]
    edited = json.loads(first.read_text())
    edited["server"]["my_cnf"] += "# edited\n"
    first.write_text(json.dumps(edited))  # in place
    moved = tmp_path / second.name
    second.rename(moved)
    runs = known.load([data], NoMemo())
    assert (known.read, known.removed) == (1, 1)
    assert runs == load_runs([data])
    assert next(run.doc for run in runs if run.path == first) == edited

    moved.rename(second)  # back, a file it read before under another inode
    assert known.load([data], NoMemo()) == load_runs([data])
    assert (known.read, known.removed) == (1, 0)


def test_an_invalid_file_is_reported_on_every_load(tmp_path):
    data = copied_fixtures(tmp_path)
    known = KnownRuns()
    known.load([data], NoMemo())
    broken = min((data / "runs").glob("*.json"))
    doc = json.loads(broken.read_text())
    del doc["steps"]
    broken.write_text(json.dumps(doc))
    for _ in range(2):
        assert problems_of(known.load, [data]) == problems_of(load_runs, [data])
        assert known.read == 1
    broken.unlink()  # removed while invalid: gone since the last load that succeeded
    known.load([data], NoMemo())
    assert (known.read, known.removed) == (0, 1)


@pytest.mark.parametrize("stray", ["notes.txt", "run.json.bak"])
def test_stray_files_and_ids_used_twice_are_refused_as_load_runs_does(tmp_path, stray):
    data = copied_fixtures(tmp_path / "one")
    twin = copied_fixtures(tmp_path / "two")
    (data / "runs" / stray).write_text("not a run")
    hidden = data / "runs" / ".run.json.tmp"  # a writer's file before its rename: ignored
    hidden.write_text("{")
    expected = problems_of(load_runs, [data, twin])
    assert any("not a .json run file" in problem for problem in expected)
    assert any("id also used by" in problem for problem in expected)
    assert problems_of(KnownRuns().load, [data, twin]) == expected
