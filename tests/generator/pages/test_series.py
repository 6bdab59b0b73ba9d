"""A release series (generator/pages/series.py, figures/series.py) on a hand-made campaign of
three releases with known numbers (tests/helpers/suite_runs.py release_series): each release
relative to the oldest and to its predecessor, for throughput and instructions per operation,
and the figures' marks."""

from __future__ import annotations

import pytest

from generator.figures.series import SYMBOLS, series_figures
from generator.pages.series import releases
from generator.pages.suite import suite_report
from tests.helpers.plotly_schema import plotly_round_trip
from tests.helpers.suite_runs import RELEASES, release_series, template_run


@pytest.fixture(scope="module")
def runs(fixture_runs) -> list[dict]:
    return release_series(template_run([run for _, run in fixture_runs]))


@pytest.fixture(scope="module")
def series(runs) -> dict:
    return suite_report(runs)["series"]


def _row(series: dict, metric: str, test: str) -> dict:
    return next(row for row in series[metric]["rows"] if row["test"] == test)


def test_the_releases_come_oldest_first_with_their_versions(series):
    assert [(r["variant"], r["version"]) for r in series["releases"]] == list(RELEASES)
    assert (series["base"], series["threads"]) == ("r102.base", 1)


@pytest.mark.parametrize(
    ("metric", "test", "to_base", "to_predecessor"),
    [
        # ratio, verdict against the oldest; against the predecessor (from the second release)
        ("throughput", "point-query_range=100", [(1.0, "same"), (1.1, "better"), (1.0, "same")],
         [(1.1, "better"), (0.91, "worse")]),
        ("throughput", "update-index_range=100", [(1.0, "same"), (1.0, "same"), (0.9, "worse")],
         [(1.0, "same"), (0.9, "worse")]),
        ("instructions", "point-query_range=100", [(1.0, "same"), (1.0, "same"), (1.15, "worse")],
         [(1.0, "same"), (1.15, "worse")]),
        ("instructions", "update-index_range=100", [(1.0, "same"), (1.05, "same"), (1.1, "worse")],
         [(1.05, "same"), (1.05, "same")]),
    ],
)  # fmt: skip
def test_each_release_is_judged_against_the_oldest_and_its_predecessor(
    series, metric, test, to_base, to_predecessor
):
    row = _row(series, metric, test)
    assert [(c["ratio"], c["verdict"]) for c in row["to_base"]] == to_base
    assert [(c["ratio"], c["verdict"]) for c in row["to_predecessor"]] == to_predecessor
    assert all(c["repeats"] == 3 for c in row["to_base"])


def test_fewer_instructions_are_better(series):
    assert series["instructions"]["higher_is_better"] is False
    assert series["throughput"]["higher_is_better"] is True


def test_the_instruction_tables_join_the_one_thread_efficiency_tables(runs):
    report = suite_report(runs)
    assert report["has_instructions"]
    tables = {table["short"]: table for table in report["levels"][0]["efficiency"]}
    rows = {row["test"]: row for group in tables["instr/o"]["groups"] for row in group["rows"]}
    assert [c["value"] for c in rows["point-query_range=100"]["cells"]] == [40_000, 40_000, 46_000]
    background = tables["bg instr/o"]["groups"][0]["rows"][0]["cells"]
    assert [c["value"] for c in background] == [500, 500, 500]


def test_two_releases_or_one_product_s_repeated_version_make_no_series(runs):
    two = [run for run in runs if run["variant"] != "r114.base"]
    assert suite_report(two)["series"] is None
    same = [
        {**run, "server": {**run["server"], "version": "10.5.23"}}
        if run["variant"] == "r114.base"
        else run
        for run in runs
    ]
    assert releases(same, [v for v, _ in RELEASES]) is None


def test_the_figures_draw_releases_on_the_x_axis_and_mark_predecessor_verdicts(series):
    figures = series_figures(series)
    assert set(figures) == {"series-throughput", "series-instructions"}
    point = next(t for t in figures["series-throughput"]["data"] if t["name"].startswith("point"))
    assert point["x"] == [f"{version} ({variant})" for variant, version in RELEASES]
    assert point["y"] == [1.0, 1.1, 1.0]
    assert point["marker"]["symbol"] == ["circle", SYMBOLS["better"], SYMBOLS["worse"]]
    assert figures["series-throughput"]["layout"]["xaxis"]["type"] == "category"


def test_the_series_figures_are_ones_plotly_py_accepts_unchanged(series):
    for name, figure in series_figures(series).items():
        assert plotly_round_trip(figure) == figure, name
