"""Ratio tables and config diffs of the fixture campaigns, checked against the raw runs."""

from __future__ import annotations

import statistics

import pytest

from generator.analysis import stats as _stats
from generator.analysis.ratios import (
    FLAGGED,
    keeps_enough,
    latest_by_variant,
    stat_cell,
    variant_order,
)
from generator.analysis.repeats import counted_runs, spread
from generator.analysis.trust import run_trust
from generator.analysis.verdict import FLAG_KINDS
from generator.pages.campaign import summarize_campaigns


@pytest.fixture(scope="module")
def runs(fixture_runs) -> list[dict]:
    return [run for _, run in fixture_runs]


def _tps_of(runs, campaign_id, workload, variant) -> dict[int, list[tuple[float, bool]]]:
    """TPS by threads of a cell: (value, flagged) of each counted run (one per repeat pass),
    flagged by the step's trust entry."""
    cell = [
        run
        for run in runs
        if (run["campaign"]["id"], run["workload"]["name"], run["variant"])
        == (campaign_id, workload, variant)
    ]
    tps: dict[int, list[tuple[float, bool]]] = {}
    for run in counted_runs(cell):
        flagged = {entry["threads"]: bool(entry["flags"]) for entry in run_trust(run)}
        for step in run["steps"]:
            tps.setdefault(step["threads"], []).append(
                (step["tps"], flagged.get(step["threads"], False))
            )
    return tps


def _judged_median(passes: list[tuple[float, bool]], all_passes: bool) -> float:
    """The median a side is judged on: over its unflagged passes unless all_passes."""
    return statistics.median(value for value, flagged in passes if all_passes or not flagged)


def _keeps(passes: list[tuple[float, bool]]) -> bool:
    kept = sum(1 for _, flagged in passes if not flagged)
    return kept >= 1 and 2 * kept >= len(passes)


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
                base = base_tps.get(row["threads"])
                for cell in row["cells"]:
                    own = _tps_of(runs, summary["id"], workload["name"], cell["variant"]).get(
                        row["threads"]
                    )
                    if own is None:
                        assert cell["value"] is None and cell["ratio"] is None
                        continue
                    is_base = cell["variant"] == workload["variants"][0]
                    greyed = not _keeps(own) or (base is not None and not _keeps(base))
                    assert cell["value"] == _judged_median(own, greyed)
                    assert cell["flags"]["flagged"] == sum(flagged for _, flagged in own)
                    if not base or not _judged_median(base, greyed):
                        assert cell["ratio"] is None
                        continue
                    expected = _judged_median(own, greyed) / _judged_median(base, greyed)
                    assert cell["ratio"] == round(expected, 2)
                    if is_base:
                        assert cell["verdict"] == "same" and cell["interval"] is None
                    elif greyed:
                        assert cell["verdict"] == FLAGGED and cell["no_judgement"]
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


TRANSIENT = [{"kind": "transient", "label": "transient", "detail": ""}]
STEAL = [{"kind": "steal", "label": "steal", "detail": ""}]


def _side(values: list[float], flags: list[list[dict]]) -> dict:
    """A side's stats as repeats.spread_by_threads writes them with flags_of."""
    stats = {**spread(values), "flags": flags}
    if any(flags):
        stats["unflagged"] = spread([v for v, f in zip(values, flags, strict=True) if not f])
    return stats


@pytest.mark.parametrize(
    ("passes", "flagged", "keeps"),
    [(1, 0, True), (1, 1, False), (2, 1, True), (2, 2, False), (3, 1, True), (3, 2, False),
     (4, 2, True), (5, 3, False)],
)  # fmt: skip
def test_a_side_keeps_enough_with_half_its_passes_and_one_at_least(passes, flagged, keeps):
    assert keeps_enough(passes, flagged) is keeps


def test_a_cell_with_one_flagged_pass_of_three_is_judged_on_the_other_two():
    base = _side([100.0, 101.0, 99.0], [[], [], []])
    cell = stat_cell("v", _side([50.0, 140.0, 141.0], [TRANSIENT, [], []]), base, True)
    assert cell["judged_on"] == "unflagged"
    assert cell["value"] == 140.5 and cell["repeats"] == 2
    assert cell["ratio"] == 1.41 and cell["verdict"] == "better"
    assert cell["flags"] == {"passes": 3, "flagged": 1, "kinds": {"transient": 1}}
    assert cell["no_judgement"] is None


def test_a_cell_whose_passes_are_mostly_flagged_is_greyed_over_all_of_them():
    base = _side([100.0, 101.0, 99.0], [[], [], []])
    cell = stat_cell(
        "v", _side([50.0, 51.0, 49.0], [TRANSIENT, TRANSIENT + STEAL, []]), base, True
    )
    assert cell["verdict"] == FLAGGED and cell["marker"] == ""
    assert cell["value"] == 50.0 and cell["ratio"] == 0.5 and cell["judged_on"] == "all"
    assert cell["flags"]["kinds"] == {"transient": 2, "steal": 1}
    assert cell["no_judgement"] == "2 of its 3 passes flagged, fewer than half unflagged"


def test_a_flagged_base_greys_every_other_cell_but_its_own():
    base = _side([100.0], [TRANSIENT])
    other = stat_cell("v", _side([50.0], [[]]), base, True)
    assert other["verdict"] == FLAGGED
    assert other["no_judgement"] == "1 of the base's 1 passes flagged, fewer than half unflagged"
    own = stat_cell("base", base, base, True)
    assert own["verdict"] == "same" and own["flags"]["flagged"] == 1


def test_stats_without_flags_are_judged_as_before():
    cell = stat_cell("v", spread([50.0, 51.0]), spread([100.0, 101.0]), True)
    assert cell["flags"] == {"passes": 0, "flagged": 0, "kinds": {}}
    assert cell["verdict"] == "worse" and cell["judged_on"] == "all"


def test_each_run_of_a_cell_counts_its_flagged_steps(runs):
    by_id = {run["id"]: run for run in runs}
    seen = 0
    for summary in summarize_campaigns(runs):
        for workload in summary["workloads"]:
            for cell in workload["cells"]:
                for entry in cell["runs"]:
                    flags = [step["flags"] for step in run_trust(by_id[entry["id"]])]
                    assert entry["judged"] == len(flags)
                    assert entry["flagged"] == sum(1 for found in flags if found)
                    labels = {FLAG_KINDS[flag["kind"]][0] for found in flags for flag in found}
                    assert set(entry["kinds"]) == labels
                    seen += entry["flagged"]
    assert seen  # the fixture runs have flagged steps
