"""A campaign rebuilt from each kind of fixture run loads, and its workload records the same
options and runs the same sweep as the run it came from."""

from __future__ import annotations

import json

import pytest

from harness.campaign.load import load_campaign
from harness.reproduce.campaign_file import rebuild_campaign
from harness.servers.mycnf import without_placement
from harness.workloads.drivers import driver_for
from tests.helpers.paths import REPO

RUNS = REPO / "tests" / "fixtures" / "runs" / "runs"
COMPLETE = sorted(
    path.name
    for path in RUNS.glob("*.json")
    if json.loads(path.read_text())["status"] == "complete"
)


@pytest.mark.parametrize("name", COMPLETE)
def test_the_rebuilt_campaign_runs_the_same_workload(tmp_path, name):
    run = json.loads((RUNS / name).read_text())
    rebuilt = rebuild_campaign(run, f"runs/{name}", "/usr", repeats=2)
    path = tmp_path / "campaign.toml"
    path.write_text(rebuilt.text)
    campaign = load_campaign(path)

    assert campaign.reproduces == {"run_id": run["id"], "source": f"runs/{name}"}
    assert campaign.repeats == 2
    assert campaign.base_mycnf == without_placement(run["server"]["my_cnf"])
    (variant,) = campaign.variants
    assert variant.options == {}
    (workload,) = campaign.workloads
    assert workload.label == run["workload"]["name"]
    section = driver_for(workload).section(run["workload"]["tool_version"], ())
    assert section["script"] == run["workload"]["script"]
    assert section["options"] == run["workload"]["options"]
    if run["workload"]["tool"] == "ibench":
        return
    assert workload.sweep.threads == [step["threads"] for step in run["steps"]]
    commands = " ".join(c["command"] for c in run["reproduce"]["commands"])
    assert f"--time={workload.sweep.step_seconds} " in commands
    assert (workload.suite is None) == ("suite" not in run["workload"])


def test_a_suite_test_is_rebuilt_as_that_test_of_its_preset(tmp_path):
    name = "callaghan-10-11-vs-11-4-20261122-045700.mariadb-11-4.base.point-query-r100.json"
    run = json.loads((RUNS / name).read_text())
    path = tmp_path / "campaign.toml"
    path.write_text(rebuild_campaign(run, name, "/usr").text)
    campaign = load_campaign(path)
    assert [server.label for server in campaign.servers] == ["mariadb-11-4"]
    assert [variant.label for variant in campaign.variants] == ["base"]
    (workload,) = campaign.workloads
    assert workload.suite is not None and workload.suite.suite == "callaghan"
    assert workload.sweep.warmup_seconds == 5


def test_redacted_credentials_are_left_out_with_a_note(tmp_path):
    run = json.loads((RUNS / COMPLETE[0]).read_text())
    measured = without_placement(run["server"]["my_cnf"])
    run["server"]["my_cnf"] = run["server"]["my_cnf"].replace(
        "[mysqld]\n", "[mysqld]\nreport_password = <redacted>\n", 1
    )
    rebuilt = rebuild_campaign(run, "run.json", "/usr")
    path = tmp_path / "campaign.toml"
    path.write_text(rebuilt.text)
    assert "<redacted>" not in rebuilt.text
    assert load_campaign(path).base_mycnf == measured
    assert any(note.startswith("server.my_cnf: report_password") for note in rebuilt.notes)


@pytest.mark.parametrize("where", ["run", "steps"])
def test_a_run_that_let_write_debt_settle_is_rebuilt_with_the_same_wait(tmp_path, where):
    run = json.loads((RUNS / COMPLETE[0]).read_text())
    record = {"rule": "checkpoint", "timeout_s": 120,
              "before": {"checkpoint_age_kb": 30000, "dirty_pages": 900}}  # fmt: skip
    if where == "run":  # recorded before the harness settled before every step
        run["settle"] = record
    else:
        for step in run["steps"]:
            step["settle"] = record
    rebuilt = rebuild_campaign(run, "run.json", "/usr")
    path = tmp_path / "campaign.toml"
    path.write_text(rebuilt.text)
    (workload,) = load_campaign(path).workloads
    assert workload.sweep.settle == "checkpoint" and workload.sweep.settle_timeout_s == 120
    waited = "before each step" if where == "steps" else "before the first step only"
    assert any(
        note.startswith("write debt settles before each step (at most 120 s)")
        and note.endswith(f"the run waited {waited}")
        for note in rebuilt.notes
    )


def test_a_recorded_pause_between_thread_levels_is_rebuilt(tmp_path):
    run = json.loads((RUNS / COMPLETE[0]).read_text())
    (workload,) = _rebuilt(tmp_path, run).workloads
    assert workload.sweep.sleep_seconds == 0  # recorded before the pause was a command
    pause = {"purpose": "pause between thread levels", "command": "sleep 2.5"}
    run["reproduce"]["commands"].insert(-1, pause)
    (workload,) = _rebuilt(tmp_path, run).workloads
    assert workload.sweep.sleep_seconds == 2.5


def _rebuilt(tmp_path, run: dict):
    path = tmp_path / "campaign.toml"
    path.write_text(rebuild_campaign(run, "run.json", "/usr").text)
    return load_campaign(path)
