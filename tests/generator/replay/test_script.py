"""replay.sh from the fixture run documents (sysbench, TPC-C-like, the Insert Benchmark; all
recorded before the harness wrote its commands in the replay variables) and from the committed
runs as the site publishes them: shellcheck-clean at its strictest severity, one socket
throughout, no path of the measuring machine, the copy of the loaded datadir, a write-debt wait
that stops the script when the debt never settles, the pause between thread levels."""

from __future__ import annotations

import copy
import re
import subprocess
from pathlib import Path

import pytest

from contract.sweep_pause import PAUSE_PURPOSE
from generator.pages.run_sequence import earlier_runs
from generator.replay.commands import replay_commands
from generator.replay.script import replay_page, replay_script

MEASURING_PATHS = re.compile(r"/tmp/mybench-|/work/|\.scratch")


def _kind(run: dict) -> str:
    return "tpcc" if "tpcc" in run["workload"] else run["workload"]["tool"]


@pytest.fixture(scope="module")
def runs_by_kind(fixture_runs) -> dict[str, dict]:
    """One run of each kind, the first in id order."""
    kinds: dict[str, dict] = {}
    for _, run in fixture_runs:
        kinds.setdefault(_kind(run), run)
    assert set(kinds) == {"sysbench", "tpcc", "ibench"}
    return kinds


def _shellcheck(tmp_path: Path, name: str, script: str) -> subprocess.CompletedProcess:
    path = tmp_path / f"{name}.sh"
    path.write_text(script)
    return subprocess.run(
        ["shellcheck", "--severity=style", str(path)], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("kind", ["sysbench", "tpcc", "ibench"])
def test_every_kind_gives_a_shellcheck_clean_script(runs_by_kind, tmp_path, kind):
    checked = _shellcheck(tmp_path, kind, replay_script(runs_by_kind[kind]))
    assert checked.returncode == 0, checked.stdout


def test_every_fixture_gives_a_shellcheck_clean_script(fixture_runs, tmp_path):
    for _, run in fixture_runs:
        checked = _shellcheck(tmp_path, run["id"], replay_script(run))
        assert checked.returncode == 0, f"{run['id']}: {checked.stdout}"


def _published(run: dict, committed_runs) -> str:
    """The run's replay.sh as the build writes it: after the runs before it on its server start."""
    campaign = [other for _, other in committed_runs if other["campaign"] == run["campaign"]]
    return replay_script(run, earlier_runs(run, campaign))


@pytest.fixture(scope="module")
def published_by_kind(committed_runs) -> dict[tuple[str, str], tuple[dict, str]]:
    """By campaign and kind, its last run (by id, so most often one that ran after others on its
    server start) and that run's published replay.sh; imported runs have no commands."""
    last: dict[tuple[str, str], dict] = {}
    for _, run in sorted(committed_runs, key=lambda run_file: run_file[1]["id"]):
        if "reproduce" in run:
            last[run["campaign"]["id"], _kind(run)] = run
    return {key: (run, _published(run, committed_runs)) for key, run in last.items()}


def test_the_published_scripts_of_every_committed_campaign_and_kind_are_shellcheck_clean(
    published_by_kind, tmp_path
):
    """The committed runs record the write-debt waits and server starts the fixtures predate;
    sysbench OLTP, TPC-C-like and Insert Benchmark runs among them."""
    assert {kind for _, kind in published_by_kind} == {"sysbench", "tpcc", "ibench"}
    assert len(published_by_kind) > 10
    paths = []
    for (campaign, kind), (_, script) in sorted(published_by_kind.items()):
        paths.append(tmp_path / f"{campaign}.{kind}.sh")
        paths[-1].write_text(script)
    checked = subprocess.run(
        ["shellcheck", "--severity=style", *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout


_WAIT_COMMENT = re.compile(
    r"# settle write debt: wait \(at most (?P<s>\d+) s\) for (?P<limits>.+)"
)


def _settle_wait(script: str) -> tuple[int, str, str]:
    """The run's first write-debt wait: its timeout and limits, as its comment says, its line."""
    lines = script.splitlines()
    at, said = next((i, m) for i, line in enumerate(lines) if (m := _WAIT_COMMENT.fullmatch(line)))
    return int(said["s"]), said["limits"], lines[at + 1]


def _stub_bin(tmp_path: Path, reading: int) -> Path:
    """A client that always reads `reading` (under a column header, as the client prints it),
    and a sleep that only counts its calls, so a 300 s wait runs in no time."""
    stub = tmp_path / "bin"
    stub.mkdir()
    for client in ("mariadb", "mysql"):
        (stub / client).write_text(f"#!/bin/sh\necho settled\necho {reading}\n")
    (stub / "sleep").write_text('#!/bin/sh\necho "$1" >> "$SLEEPS"\n')
    for path in stub.iterdir():
        path.chmod(0o755)
    return stub


def _run_wait(tmp_path: Path, line: str, reading: int) -> tuple[subprocess.CompletedProcess, int]:
    stub, sleeps = _stub_bin(tmp_path, reading), tmp_path / "sleeps"
    env = {"PATH": f"{stub}:/usr/bin:/bin", "SLEEPS": str(sleeps), "SOCKET": "/nonexistent"}
    done = subprocess.run(
        ["bash", "-c", f"set -euo pipefail\n{line}\necho after"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    return done, len(sleeps.read_text().splitlines()) if sleeps.exists() else 0


@pytest.fixture(scope="module")
def oltp_wait(published_by_kind) -> tuple[int, str, str]:
    """The first write-debt wait of a committed sysbench OLTP run with settle."""
    scripts = [
        script
        for (_, kind), (run, script) in sorted(published_by_kind.items())
        if kind == "sysbench" and run["workload"]["script"] == "oltp_read_write"
        and "# settle write debt: wait" in script
    ]  # fmt: skip
    assert scripts
    return _settle_wait(scripts[0])


def test_a_write_debt_that_never_settles_stops_the_replay_with_its_cause(oltp_wait, tmp_path):
    timeout, limits, line = oltp_wait
    done, sleeps = _run_wait(tmp_path, line, 0)
    assert done.returncode == 1 and "after" not in done.stdout
    assert sleeps == timeout == 300  # polled once a second for the recorded timeout
    assert done.stderr == (
        f"the write debt did not settle within 300 s ({limits} not reached): the next step"
        " would measure a server still paying it\n"
    )


def test_a_write_debt_that_settles_lets_the_replay_go_on(oltp_wait, tmp_path):
    done, sleeps = _run_wait(tmp_path, oltp_wait[2], 1)
    assert (done.returncode, done.stdout, done.stderr, sleeps) == (0, "after\n", "", 0)


def _campaign_file(run: dict) -> str:
    return run["harness"].get("snapshot", {}).get("campaign_file", {}).get("text", "")


@pytest.fixture(scope="module")
def paused_tpcc(committed_runs) -> dict:
    """A committed TPC-C-like run of several thread levels whose campaign file paused between
    them, recorded before the harness wrote the pause among its commands."""
    return next(
        run
        for _, run in sorted(committed_runs, key=lambda run_file: run_file[1]["id"])
        if _kind(run) == "tpcc"
        and len(run["steps"]) > 2
        and "\nsleep_seconds = 2\n" in _campaign_file(run)
    )


def test_the_campaigns_pause_between_thread_levels_is_kept(paused_tpcc):
    """Where the harness paused: right after each step but the last (before the next step's
    write-debt wait, when it waited)."""
    commands = replay_commands(paused_tpcc)
    purposes = [c["purpose"] for c in commands]
    steps = [i for i, purpose in enumerate(purposes) if purpose.startswith("measure at")]
    pauses = [i for i, purpose in enumerate(purposes) if purpose == PAUSE_PURPOSE]
    assert len(steps) == 3 and pauses == [step + 1 for step in steps[:-1]]
    assert {(commands[i]["command"], commands[i]["derived"]) for i in pauses} == {
        ("sleep 2", True)
    }
    assert replay_script(paused_tpcc).count(f"# {PAUSE_PURPOSE} (derived)\nsleep 2\n") == 2


def test_a_recorded_pause_is_replayed_as_recorded(paused_tpcc):
    run = copy.deepcopy(paused_tpcc)
    recorded = run["reproduce"]["commands"]
    after = [c["purpose"] for c in recorded].index("measure at 1 thread") + 1
    recorded.insert(after, {"purpose": PAUSE_PURPOSE, "command": "sleep 2.5"})
    pauses = [c for c in replay_commands(run) if c["purpose"] == PAUSE_PURPOSE]
    assert pauses == [{"purpose": PAUSE_PURPOSE, "command": "sleep 2.5", "derived": False}]


def test_no_pause_without_a_campaign_file_that_sets_one(paused_tpcc):
    run = copy.deepcopy(paused_tpcc)
    del run["harness"]["snapshot"]
    assert PAUSE_PURPOSE not in [c["purpose"] for c in replay_commands(run)]


def test_old_commands_use_one_socket_and_no_path_of_the_measuring_machine(fixture_runs):
    for _, run in fixture_runs:
        script = replay_script(run)
        body = script.split('cd "$REPO"', 1)[1]
        assert not MEASURING_PATHS.search(body), run["id"]
        sockets = set(re.findall(r"--(?:mysql-)?socket[= ](\S+)", body))
        assert sockets == {'"$SOCKET"'}, (run["id"], sockets)
        assert "set -euo pipefail" in script and "trap stop_server EXIT" in script


def test_a_restored_run_loads_into_the_pristine_datadir_then_starts_on_a_copy(fixture_runs):
    run = next(run for _, run in fixture_runs if run["workload"].get("data_origin"))
    assert run["workload"]["data_origin"]["method"] == "restored"
    commands = replay_commands(run)
    purposes = [command["purpose"].split(" (")[0] for command in commands]
    load = purposes.index("load the tables")
    copied = purposes.index("copy the loaded datadir")
    assert purposes[copied - 1] == "shut the server down" and load < copied
    assert purposes[copied + 1] == "start the server"
    assert [c["derived"] for c in commands[copied - 2 : copied + 2]] == [True] * 4
    starts = [c["command"] for c in commands if c["purpose"] == "start the server"]
    assert len(starts) == 2
    assert all(
        s.endswith(f'--datadir="${d}" &')
        for s, d in zip(starts, ["PRISTINE", "DATADIR"], strict=True)
    )
    assert not any(c["derived"] for c in commands[copied + 2 :])


def test_the_page_lists_what_the_script_runs(runs_by_kind):
    run = runs_by_kind["tpcc"]
    page = replay_page(run)
    script = replay_script(run)
    assert page["replayable"] and page["variables"] in script
    assert all(command["command"] in script for command in page["commands"])
    assert page["derived"]


def test_the_my_cnf_is_the_measured_one_with_the_replays_placement(runs_by_kind):
    run = runs_by_kind["sysbench"]
    script = replay_script(run)
    tuned = run["server"]["my_cnf"].split("# sandbox placement")[0].rstrip()
    assert tuned.removesuffix("[mysqld]").rstrip() in script
    assert "datadir = $DATADIR" in script and "port = $PORT" in script
    assert "user = root\n" not in script.split("END_OF_PLACEMENT")[1]  # only when run as root


def test_a_server_mybench_did_not_start_gets_a_script_that_says_so(runs_by_kind, tmp_path):
    run = copy.deepcopy(runs_by_kind["sysbench"])
    run["server"].update(sandbox=False, kind="existing")
    script = replay_script(run)
    assert _shellcheck(tmp_path, "existing", script).returncode == 0
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "measured a server mybench did not start" in result.stderr
    page = replay_page(run)
    assert not page["replayable"] and "did not start" in page["reason"]


def test_a_server_fetched_into_the_checkout_is_found_under_the_readers_checkout(fixture_runs):
    run = next(run for _, run in fixture_runs if "/.servers/" in run["server"]["basedir"])
    script = replay_script(run)
    assert "BASEDIR=${BASEDIR:-$REPO/.servers/mariadb-11.4.5}" in script
    assert '"$BASEDIR"/bin/mariadbd --defaults-file="$MYCNF"' in script
