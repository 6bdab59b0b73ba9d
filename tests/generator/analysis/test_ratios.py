"""Ratio tables and config diffs of the fixture campaigns, checked against the raw runs."""

from __future__ import annotations

import statistics

import pytest

from generator.analysis import stats as _stats
from generator.analysis.ratios import latest_by_variant, variant_order
from generator.analysis.repeats import counted_runs
from generator.pages.campaign import summarize_campaigns


@pytest.fixture(scope="module")
def runs(fixture_runs) -> list[dict]:
    return [run for _, run in fixture_runs]


def _tps_of(runs, campaign_id, workload, variant) -> dict[int, float]:
    """TPS by threads of a cell: the median over its counted runs (one per repeat pass)."""
    cell = [
        run
        for run in runs
        if (run["campaign"]["id"], run["workload"]["name"], run["variant"])
        == (campaign_id, workload, variant)
    ]
    tps: dict[int, list[float]] = {}
    for run in counted_runs(cell):
        for step in run["steps"]:
            tps.setdefault(step["threads"], []).append(step["tps"])
    return {threads: statistics.median(values) for threads, values in tps.items()}


CLEAR = {"low": 0.5, "high": 0.9}  # an interval that excludes 1
UNSURE = {"low": 0.5, "high": 1.2}


@pytest.mark.parametrize(
    ("ratio", "interval", "higher_is_better", "verdict"),
    [
        (1.0, CLEAR, True, "same"),
        (1 + _stats.BAND, CLEAR, True, "same"),
        (1.06, CLEAR, True, "better"),
        (0.94, CLEAR, True, "worse"),
        (1.06, CLEAR, False, "worse"),
        (0.94, CLEAR, False, "better"),
        (0.94, UNSURE, True, "noise"),
        (0.94, None, True, "noise"),
        (None, None, True, "same"),
    ],
)
def test_verdict_beyond_five_percent_and_the_noise(ratio, interval, higher_is_better, verdict):
    assert _stats.verdict(ratio, interval, higher_is_better) == verdict


def test_variants_follow_the_campaign_file(runs):
    for summary in summarize_campaigns(runs):
        mine = [run for run in runs if run["campaign"]["id"] == summary["id"]]
        declared = mine[0]["campaign"].get("variant_order", [])
        present = {run["variant"] for run in mine}
        assert summary["variants"] == variant_order(mine)
        assert set(summary["variants"]) == present
        assert summary["base"] == next((v for v in declared if v in present), summary["base"])


def test_a_fleets_hosts_each_keep_the_files_variant_order(runs):
    def fleet_run(host: str, variant: str) -> dict:
        # the file lists relaxed first: not the alphabetical order
        order = [f"{host}.{label}" for label in ("relaxed", "durable")]
        campaign = {"variant_order": order}
        return {"id": f"fleet-20261126-120000.{host}.{variant}.ps", "variant": f"{host}.{variant}",
                "campaign": campaign}  # fmt: skip

    fleet = [
        fleet_run(host, variant) for host in ("b2", "b1") for variant in ("relaxed", "durable")
    ]
    assert variant_order(fleet) == ["b1.relaxed", "b1.durable", "b2.relaxed", "b2.durable"]


def test_ratios_are_value_over_base_at_same_threads(runs):
    checked = 0
    for summary in summarize_campaigns(runs):
        for workload in summary["workloads"]:
            base_tps = _tps_of(runs, summary["id"], workload["name"], workload["variants"][0])
            for row in workload["metrics"]["tps"]["rows"]:
                for cell in row["cells"]:
                    tps = _tps_of(runs, summary["id"], workload["name"], cell["variant"])
                    assert cell["value"] == tps.get(row["threads"])
                    if cell["value"] is None or not base_tps.get(row["threads"]):
                        assert cell["ratio"] is None
                        continue
                    assert cell["ratio"] == round(
                        tps[row["threads"]] / base_tps[row["threads"]], 2
                    )
                    if cell["variant"] == workload["variants"][0]:
                        assert cell["verdict"] == "same" and cell["interval"] is None
                    else:
                        verdict = _stats.verdict(cell["ratio"], cell["interval"], True)
                        assert cell["verdict"] == verdict
                    checked += 1
    assert checked


def test_config_diff_lists_exactly_the_variables_that_differ(runs):
    for summary in summarize_campaigns(runs):
        variants = summary["variants"]
        mine = [run for run in runs if run["campaign"]["id"] == summary["id"]]
        chosen = latest_by_variant(mine)
        variables = [chosen[variant]["server"]["variables"] for variant in variants]
        listed = {
            row["name"]: [cell["value"] for cell in row["cells"]]
            for group in summary["config_diff"]["groups"]
            for row in group["rows"]
        }
        for name in {name for names in variables for name in names}:
            values = [names.get(name) for names in variables]
            if len(set(values)) > 1:
                assert listed[name] == values
            else:
                assert name not in listed
