"""Campaign table cells as the page file holds them (generator/pages/ratio_cells.py): the texts
layouts/_partials/campaign/cells.html printed from a stat_cell's numbers, and the fields the
templates and the `value` shortcode still read."""

from __future__ import annotations

import copy

from contract.repeats import ENOUGH_PASSES
from generator.analysis.evidence import SUMMARY
from generator.analysis.ratios import NO_STEP, stat_cell
from generator.analysis.repeats import spread
from generator.pages.campaign import summarize_campaign
from generator.pages.packed_rows import CELL_SEPARATOR
from generator.pages.page_files import CELL_TEXTS
from generator.pages.ratio_cells import FORMATTED, campaign_page, shown_cell, shown_texts


def _stats(values: list[float], seconds: list[float] | None = None) -> dict:
    stats = spread(values)
    if seconds:
        stats["seconds"] = seconds
    return stats


def test_a_repeated_cell_reads_median_range_ratio_interval_and_spread():
    base = _stats([1000.0, 1010.0, 990.0])
    cell = stat_cell("b", _stats([1500.5, 1480.0, 1520.25]), base, True)
    texts = shown_texts(cell, "TPS", repeated=True)
    interval = cell["interval"]
    assert cell["verdict"] == "better" and cell["repeats"] == 3
    assert texts["value"] == "1,501"  # 1,500.5 rounds up, as helpers/num.html does
    assert texts["range"] == "1,480\u20131,520"
    assert texts["ratio"] == "1.50"
    assert texts["title"] == (
        "median 1,501 TPS over 3 repeats, range 1,480\u20131,520; 95 % interval of the ratio "
        f"{interval['low']:.2f}\u2013{interval['high']:.2f} from repeats"
    )
    assert (texts["marker"], texts["marker_words"]) == ("\u25b2", "better")
    assert texts["interval"] == f"{interval['low']:.2f}\u2013{interval['high']:.2f}"
    assert texts["interval_method"] == "repeats"
    assert texts["no_interval"] == ""
    assert texts["repeats"] == f"3\u00d7 \u00b7 {cell['spread'] * 100:.1f} %"


def test_an_interval_from_too_few_passes_says_how_many():
    base = _stats([1000.0, 1100.0])
    cell = stat_cell("b", _stats([2400.0, 2600.0]), base, True)
    interval = cell["interval"]
    assert interval["method"] == "repeats" and cell["repeats"] == 2 < ENOUGH_PASSES
    texts = shown_texts(cell, "TPS", repeated=True)
    assert texts["interval"] == f"{interval['low']:.2f}\u2013{interval['high']:.2f} (2 passes)"


def test_a_single_run_cell_has_no_range_and_shows_repeats_only_when_its_table_does():
    seconds = [100.0 + (i % 7) for i in range(60)]
    base = _stats([100.0], seconds)
    cell = stat_cell("b", _stats([130.0], [130.0 + (i % 5) for i in range(60)]), base, True)
    texts = shown_texts(cell, "TPS", repeated=False)
    assert cell["interval"]["method"] == "per-second samples"
    assert texts["range"] == "" and texts["repeats"] == ""
    assert texts["title"].startswith("130 TPS; 95 % interval of the ratio ")
    assert texts["interval_method"] == "per-second samples"
    assert shown_texts(cell, "TPS", repeated=True)["repeats"] == "1\u00d7"  # no spread


def test_the_base_cell_has_no_marker_and_a_missing_or_unratioed_cell_its_own_title():
    base = _stats([200.0])
    own = shown_texts(stat_cell("a", base, None, True), "ms", repeated=False)
    assert (own["ratio"], own["title"], own["marker"], own["marker_words"]) == (
        "1.00",
        "200 ms",
        "",
        "",
    )
    missing = shown_texts(stat_cell("b", NO_STEP, base, True), "ms", repeated=False)
    assert (missing["value"], missing["ratio"], missing["title"]) == ("\u2014", "\u2014", "")
    zero_base = stat_cell("b", _stats([5.0]), _stats([0.0]), True)
    assert zero_base["state"] == "n/a"
    assert shown_texts(zero_base, "", repeated=False)["title"] == (
        "5 ; no ratio: the base has no value or zero"
    )


def test_a_cell_on_imported_figures_says_why_it_has_no_interval():
    cell = stat_cell("b", _stats([150.0]), _stats([100.0]), True, (SUMMARY, SUMMARY))
    texts = shown_texts(cell, "TPS", repeated=False)
    assert cell["verdict"] == "unjudged" and cell["no_interval"]
    assert texts["interval"] == ""
    assert texts["no_interval"] == cell["no_interval"]
    assert texts["title"] == f"150 TPS; no interval, not judged: {cell['no_interval']}"


def test_a_shown_cell_keeps_what_templates_decide_on_and_packs_its_texts():
    base = _stats([1000.0, 1010.0, 990.0])
    cell = stat_cell("b", _stats([1500.0, 1480.0, 1520.0]), base, True)
    cell["sustained"] = False  # an Insert Benchmark cell's own fields stay
    shown = shown_cell(cell, "TPS", repeated=True)
    assert set(shown) == {
        "variant", "value", "low", "high", "ratio", "state", "verdict", "sustained", "shown",
    }  # fmt: skip
    assert {name: shown[name] for name in ("value", "low", "high", "ratio")} == {
        "value": 1500.0,
        "low": 1480.0,
        "high": 1520.0,
        "ratio": 1.5,
    }
    texts = shown_texts(cell, "TPS", repeated=True)
    assert shown["shown"].split(CELL_SEPARATOR) == [texts[name] for name in CELL_TEXTS]


def _stat_cells(node) -> list[dict]:
    """Every stat_cell under node (a map with a verdict), depth first."""
    if isinstance(node, list):
        return [cell for item in node for cell in _stat_cells(item)]
    if not isinstance(node, dict):
        return []
    own = [node] if "verdict" in node else []
    return own + [cell for value in node.values() for cell in _stat_cells(value)]


def test_the_page_file_packs_every_table_cell_and_leaves_the_summary_alone(fixture_runs):
    runs = [run for _, run in fixture_runs]
    kinds = set()
    for campaign in sorted({run["campaign"]["id"] for run in runs}):
        summary = summarize_campaign([run for run in runs if run["campaign"]["id"] == campaign])
        before = copy.deepcopy(summary)
        page = campaign_page(summary)
        assert summary == before
        cells, shown = _stat_cells(summary), _stat_cells(page)
        assert len(shown) == len(cells)
        for cell, packed in zip(cells, shown, strict=True):
            assert set(packed) == set(cell) - set(FORMATTED) | {"shown"}
            assert len(packed["shown"].split(CELL_SEPARATOR)) == len(CELL_TEXTS)
        kinds |= {kind for kind in ("suite", "tpcc", "ibench") if _stat_cells(summary[kind])}
        kinds |= {"workloads"} if _stat_cells(summary["workloads"]) else set()
    assert kinds == {"workloads", "suite", "tpcc", "ibench"}  # every kind of table was seen


def _unit_in_title(cell: dict, unit: str) -> bool:
    texts = dict(zip(CELL_TEXTS, cell["shown"].split(CELL_SEPARATOR), strict=True))
    return cell["state"] == "missing" or f"{texts['value']} {unit}" in texts["title"]


def test_each_tooltip_names_the_unit_of_its_table_row_or_column(fixture_runs):
    runs = [run for _, run in fixture_runs]
    for campaign in sorted({run["campaign"]["id"] for run in runs}):
        page = campaign_page(
            summarize_campaign([run for run in runs if run["campaign"]["id"] == campaign])
        )
        tables = [t for w in page["workloads"] for t in w["metrics"].values()]
        tables += list((page["tpcc"] or {"metrics": {}})["metrics"].values())
        for table in tables:
            for row in table["rows"]:
                assert all(_unit_in_title(cell, table["unit"]) for cell in row["cells"])
        for level in (page["suite"] or {"levels": []})["levels"]:
            for table in [level["throughput"], *level["efficiency"]]:
                for row in (row for group in table["groups"] for row in group["rows"]):
                    assert all(_unit_in_title(cell, row["unit"]) for cell in row["cells"])
        for workload in (page["ibench"] or {"workloads": []})["workloads"]:
            for row in workload["rows"]:
                for cell, unit in zip(row["cells"], workload["units"], strict=True):
                    assert _unit_in_title(cell, unit)


def _flagged(values: list[float], kinds: list[list[str]]) -> dict:
    """A side's stats as repeats.spread_by_threads writes them with flags_of."""
    flags = [[{"kind": kind, "label": kind, "detail": ""} for kind in one] for one in kinds]
    stats = {**spread(values), "flags": flags}
    if any(kinds):
        stats["unflagged"] = spread([v for v, k in zip(values, kinds, strict=True) if not k])
    return stats


def test_a_cell_with_a_flagged_pass_names_its_kind_and_the_passes_it_was_judged_on():
    base = _flagged([100.0, 101.0, 99.0], [[], [], []])
    cell = stat_cell("b", _flagged([50.0, 140.0, 141.0], [["transient"], [], []]), base, True)
    texts = shown_texts(cell, "TPS", repeated=True)
    assert texts["flag_mark"] == "\u2691 1/3"
    assert texts["flags"] == "1 of 3 passes flagged: transient"
    assert texts["title"].startswith("median 141 TPS over 2 repeats, range 140\u2013141")
    assert texts["title"].endswith(
        "; 1 of 3 passes flagged: transient; judged on its 2 unflagged passes"
    )
    base_texts = shown_texts(stat_cell("a", base, None, True), "TPS", repeated=True)
    assert (base_texts["flag_mark"], base_texts["flags"]) == ("", "0 of 3 passes flagged")


def test_a_greyed_cell_counts_each_kind_and_says_why_it_is_not_judged():
    base = _flagged([100.0, 101.0, 99.0], [[], [], []])
    kinds = [["transient", "steal"], ["transient"], []]
    cell = stat_cell("b", _flagged([50.0, 51.0, 49.0], kinds), base, True)
    texts = shown_texts(cell, "TPS", repeated=True)
    assert cell["verdict"] == "flagged" and texts["marker"] == ""
    assert texts["flag_mark"] == "\u2691 2/3"
    assert texts["flags"] == "2 of 3 passes flagged: transient, steal (1)"
    assert texts["title"].endswith(
        "; 2 of 3 passes flagged: transient, steal (1); not judged: 2 of its 3 passes flagged,"
        " fewer than half unflagged"
    )
