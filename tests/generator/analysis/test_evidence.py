"""Ratio tables of imported runs (tests/helpers/imported_runs.py): ratios from the figures
given, no interval and no colour where the evidence is a published figure or a log without
samples, the measured cells of a mixed campaign judged as before."""

from __future__ import annotations

import pytest

import contract
from generator.analysis.evidence import (
    IMPORTED,
    MEASURED,
    NO_INTERVAL,
    SUMMARY,
    evidence_of,
    weakest,
)
from generator.analysis.ratios import UNJUDGED
from generator.pages.campaign import summarize_campaign
from tests.helpers import imported_runs as imported

COLOURED = {"better", "worse"}


@pytest.fixture(scope="module")
def documents(fixture_runs) -> list[dict]:
    return imported.imported_fixtures([run for _, run in fixture_runs])


def _campaign(documents: list[dict], campaign_id: str) -> dict:
    summary = summarize_campaign(
        [run for run in documents if run["campaign"]["id"] == campaign_id]
    )
    (workload,) = summary["workloads"]
    return workload


def _cells(table: dict) -> dict[tuple[int, str], dict]:
    return {
        (row["threads"], cell["variant"]): cell for row in table["rows"] for cell in row["cells"]
    }


def test_every_fixture_is_a_valid_run_document(documents):
    for run in documents:
        assert contract.validate_document(run) == [], run["id"]
    assert {evidence_of(run) for run in documents} == {MEASURED, IMPORTED, SUMMARY}


def test_a_cell_is_as_good_as_its_weakest_run(documents):
    mixed = [run for run in documents if run["campaign"]["id"] == imported.MIXED_CAMPAIGN]
    assert weakest(mixed[:3]) == MEASURED
    assert weakest(mixed[:4]) == IMPORTED
    assert weakest(mixed) == SUMMARY
    assert weakest([]) == MEASURED


@pytest.mark.parametrize(("metric", "figure"), [("tps", "tps"), ("p95", "p95")])
def test_summary_ratios_are_the_published_figures_divided(documents, metric, figure):
    table = _campaign(documents, imported.SUMMARY_CAMPAIGN)["metrics"][metric]
    cells = _cells(table)
    base = imported.SUMMARY_FIGURES["v10-6"]
    for variant, by_threads in imported.SUMMARY_FIGURES.items():
        for threads in (1, 4, 16):
            value = by_threads.get(threads, {}).get(figure)
            cell = cells[(threads, variant)]
            if value is None:
                assert cell["state"] == "missing" and cell["ratio"] is None
                continue
            assert cell["value"] == value
            assert cell["ratio"] == round(value / base[threads][figure], 2)


def test_summary_cells_have_no_interval_and_no_colour(documents):
    workload = _campaign(documents, imported.SUMMARY_CAMPAIGN)
    for table in workload["metrics"].values():
        assert table["evidence"] == dict.fromkeys(imported.SUMMARY_FIGURES, SUMMARY)
        for (_, variant), cell in _cells(table).items():
            assert cell["interval"] is None
            assert cell["verdict"] not in COLOURED
            assert cell["evidence"] == SUMMARY
            if variant != table["base"] and cell["state"] == "ratio":
                assert cell["no_interval"] == NO_INTERVAL[SUMMARY]
    # v11-4 at 4 threads: 840 / 700 = 1.20, beyond the band, yet not judged.
    cell = _cells(workload["metrics"]["tps"])[(4, "v11-4")]
    assert (cell["ratio"], cell["verdict"], cell["marker"]) == (1.2, UNJUDGED, "")
    # inside the band it reads as any such cell does
    assert _cells(workload["metrics"]["tps"])[(1, "v11-4")]["verdict"] == "same"


def test_two_published_figures_of_a_cell_still_give_no_interval(documents):
    """Repeats of a summary cell are two published numbers, not a measure of noise."""
    runs = [run for run in documents if run["campaign"]["id"] == imported.SUMMARY_CAMPAIGN]
    second = {**runs[1], "id": runs[1]["id"] + ".again", "repeat": {"index": 2, "of": 2}}
    second["steps"] = [{**step, "tps": step["tps"] * 1.5} for step in runs[1]["steps"]]
    first = {**runs[1], "repeat": {"index": 1, "of": 2}}
    (workload,) = summarize_campaign([runs[0], first, second])["workloads"]
    cell = _cells(workload["metrics"]["tps"])[(1, "v10-11")]
    assert cell["repeats"] == 2
    assert cell["interval"] is None and cell["verdict"] == UNJUDGED


def test_a_mixed_campaign_judges_measured_cells_and_names_why_imported_ones_are_not(documents):
    workload = _campaign(documents, imported.MIXED_CAMPAIGN)
    table = workload["metrics"]["tps"]
    assert table["evidence"] == {"measured": MEASURED, "from-log": IMPORTED, "published": SUMMARY}
    cells = _cells(table)
    measured = [run for run in documents if run["id"].startswith(imported.MIXED_CAMPAIGN + ".me")]
    base_at = {
        threads: sorted(
            step["tps"] for run in measured for step in run["steps"] if step["threads"] == threads
        )[1]
        for threads in imported.MIXED_SUMMARY_TPS
    }
    for threads, tps in imported.MIXED_SUMMARY_TPS.items():
        cell = cells[(threads, "published")]
        assert cell["ratio"] == round(tps / base_at[threads], 2)
        assert cell["interval"] is None and cell["verdict"] not in COLOURED
        assert cell["no_interval"] == NO_INTERVAL[SUMMARY]
    for (_, variant), cell in cells.items():
        if variant == "from-log" and cell["state"] == "ratio":
            assert cell["interval"] is None and cell["verdict"] not in COLOURED
            assert cell["no_interval"] == NO_INTERVAL[IMPORTED]
        if variant == "measured":
            assert cell["no_interval"] is None and cell["evidence"] == MEASURED
    # a thread level only the log and the measured runs reached: the published cell is missing
    assert cells[(2, "published")]["state"] == "missing"


def test_a_log_without_percentiles_at_a_step_leaves_that_p95_cell_out(documents):
    table = _campaign(documents, imported.MIXED_CAMPAIGN)["metrics"]["p95"]
    assert _cells(table)[(1, "from-log")]["state"] == "missing"
    assert _cells(table)[(2, "from-log")]["state"] == "ratio"


def test_a_suite_report_of_published_figures_colours_nothing():
    runs = imported.summary_campaign()
    for run in runs:
        run["workload"]["suite"] = {
            "name": "dimitri",
            "test": "oltp_read_write",
            "group": "write",
            "position": 1,
        }
    suite = summarize_campaign(runs)["suite"]

    def cells(node):
        if isinstance(node, dict):
            if "verdict" in node and "evidence" in node:
                yield node
            for value in node.values():
                yield from cells(value)
        elif isinstance(node, list):
            for value in node:
                yield from cells(value)

    found = list(cells(suite))
    assert found and all(cell["evidence"] == SUMMARY for cell in found)
    assert all(cell["interval"] is None for cell in found)
    assert all(cell["verdict"] not in COLOURED for cell in found)
    assert any(cell["verdict"] == UNJUDGED for cell in found)
