"""replay.sh from the fixture run documents (sysbench, TPC-C-like, the Insert Benchmark; all
recorded before the harness wrote its commands in the replay variables) and from one run of
every committed campaign: shellcheck-clean at its strictest severity, one socket throughout, no
path of the measuring machine, the copy of the loaded datadir."""

from __future__ import annotations

import copy
import re
import subprocess
from pathlib import Path

import pytest

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


def test_one_run_of_every_committed_campaign_gives_a_shellcheck_clean_script(
    committed_runs, tmp_path
):
    """The committed runs record the write-debt waits and server starts the fixtures predate
    (imported runs have no commands to replay)."""
    by_campaign: dict[str, dict] = {}
    for _, run in committed_runs:
        if "reproduce" in run:
            by_campaign.setdefault(run["campaign"]["id"], run)
    assert len(by_campaign) > 10
    for campaign, run in sorted(by_campaign.items()):
        checked = _shellcheck(tmp_path, campaign, replay_script(run))
        assert checked.returncode == 0, f"{run['id']}: {checked.stdout}"


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
