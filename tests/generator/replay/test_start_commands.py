"""replay.sh of a run that ran after others on its server start: the load and the start once,
then the earlier runs' own commands, then its own (the fixtures' Callaghan runs of one variant
share a start: point-query, then random-points)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from generator.analysis.server_starts import server_starts
from generator.pages.run_sequence import earlier_runs
from generator.replay.commands import replay_commands, start_commands
from generator.replay.script import replay_page, replay_script

VARIANT = "callaghan-10-11-vs-11-4-20261122-045700.mariadb-10-11.base"


@pytest.fixture(scope="module")
def start(fixture_runs) -> list[dict]:
    """The runs of one server start, in the order they ran."""
    docs = [run for _, run in fixture_runs]
    ids = server_starts(docs)[f"{VARIANT}.point-query-r100"]["runs"]
    assert len(ids) >= 2
    return [next(run for run in docs if run["id"] == run_id) for run_id in ids]


def _purposes(commands) -> list[str]:
    return [command["purpose"] for command in commands]


def test_the_first_run_of_a_start_replays_as_it_did_alone(start):
    assert earlier_runs(start[0], start) == []
    assert start_commands(start[0], []) == replay_commands(start[0])


def test_a_later_run_replays_after_the_earlier_ones_on_one_start(start):
    last = start[-1]
    earlier = earlier_runs(last, start)
    assert [run["id"] for run in earlier] == [run["id"] for run in start[:-1]]
    commands = start_commands(last, earlier)
    alone = replay_commands(last)
    purposes = _purposes(commands)
    # the load and the start once, as alone: no second restore of the datadir
    assert purposes.count("start the server") == _purposes(alone).count("start the server")
    assert sum(p.startswith("copy the loaded datadir") for p in purposes) == 1
    # every earlier run's own commands, in order, named, then this run's own
    name = start[0]["workload"]["name"]
    first_own = purposes.index(f"before this run, {name}: {_own(start[0])[0]['purpose']}")
    shared = commands[:first_own]
    assert shared == alone[:first_own]
    named = [p for p in purposes if p.startswith("before this run, ")]
    assert named == [
        f"before this run, {run['workload']['name']}: {command['purpose']}"
        for run in earlier
        for command in _own(run)
    ]
    assert commands[first_own + len(named) :] == alone[first_own:]
    measures = [c["command"] for c in commands if "measure at" in c["purpose"]]
    assert measures == [
        c["command"] for run in start for c in _own(run) if "measure at" in c["purpose"]
    ]


def _own(run: dict) -> list:
    """The commands of a run past its server start (the last start or metric enable)."""
    commands = replay_commands(run)
    ends = [
        i
        for i, c in enumerate(commands)
        if c["purpose"].startswith(("start the server", "enable a sampled InnoDB metric"))
    ]
    return commands[ends[-1] + 1 :]


def test_the_script_and_the_page_name_the_earlier_runs(start, tmp_path: Path):
    run, earlier = start[1], start[:1]
    script = replay_script(run, earlier)
    name = start[0]["workload"]["name"]
    assert f"# It ran on its server start after {name}, as this script does:" in script
    assert f"before this run, {name}: measure at" in script
    path = tmp_path / "replay.sh"
    path.write_text(script)
    checked = subprocess.run(
        ["shellcheck", str(path)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout
    page = replay_page(run, earlier)
    assert page["earlier"] == [{"id": start[0]["id"], "workload": name}]
    assert page["commands"] == start_commands(run, earlier)
    assert replay_page(run)["earlier"] == []


def test_a_run_whose_earlier_run_recorded_no_start_replays_alone(start):
    broken = {**start[0], "reproduce": {**start[0]["reproduce"], "commands": []}}
    assert start_commands(start[1], [broken]) == replay_commands(start[1])
