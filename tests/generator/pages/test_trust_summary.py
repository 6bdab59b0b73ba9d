"""The trust summary an article shows (generator/pages/trust_summary.py), on the fixture runs."""

from __future__ import annotations

import pytest

from generator.analysis.repeats import repeat_index
from generator.analysis.trust import run_trust
from generator.pages.trust_summary import trust_summary


def _campaign(fixture_runs, prefix: str) -> tuple[list[dict], dict]:
    runs = [run_file.doc for run_file in fixture_runs if run_file.doc["id"].startswith(prefix)]
    return runs, {run["id"]: run_trust(run) for run in runs}


@pytest.mark.parametrize("prefix", ["binlog-sync-policies", "ibench-performance-schema"])
def test_each_flagged_step_is_listed_under_its_kind_once(fixture_runs, prefix):
    runs, trust = _campaign(fixture_runs, prefix)
    summary = trust_summary(runs, trust)
    listed = {
        (flag["kind"], cell["workload"], cell["variant"], cell["at"], one_pass)
        for flag in summary["flags"]
        for cell in flag["cells"]
        for one_pass in cell["passes"]
    }
    flagged = {
        (flag["kind"], run["workload"]["name"], run["variant"], at, repeat_index(run))
        for run in runs
        for entry in trust[run["id"]]
        for flag in entry["flags"]
        for at in [
            entry.get("step") or f"{entry['threads']} thread{'s' * (entry['threads'] != 1)}"
        ]
    }
    assert listed == flagged
    assert {flag["kind"]: flag["steps"] for flag in summary["flags"]} == {
        kind: sum(1 for key in flagged if key[0] == kind) for kind in {key[0] for key in flagged}
    }
    steps = sum(len(entries) for entries in trust.values())
    assert summary["steps"] == steps
    assert summary["fit_steps"] == sum(
        1 for entries in trust.values() for entry in entries if not entry["flags"]
    )


def test_a_failed_run_replaced_by_its_re_run_is_not_counted(fixture_runs):
    runs, trust = _campaign(fixture_runs, "callaghan-10-11-vs-11-4")
    summary = trust_summary(runs, trust)
    failed = [run for run in runs if run["status"] != "complete"]
    assert failed, "the fixture holds failed runs"
    assert summary["runs"] == len(runs) - len(failed)


def test_builds_name_each_variant_and_starts_say_who_ran_alone(fixture_runs):
    runs, trust = _campaign(fixture_runs, "ibench-performance-schema")
    summary = trust_summary(runs, trust)
    assert summary["starts"] == {"shared": [], "alone": len(runs)}
    assert [variant for build in summary["builds"] for variant in build["variants"]] == [
        "ps-off",
        "ps-on",
    ]
    assert summary["hosts"] and summary["imported_runs"] == 0
    assert summary["repeated"]


def test_runs_on_different_data_copies_share_no_start(fixture_runs):
    runs, trust = _campaign(fixture_runs, "tpcc-sets-vs-warehouses")
    summary = trust_summary(runs, trust)
    # Two data shapes restore two different copies: no start is shared.
    assert summary["starts"] == {"shared": [], "alone": 2}
