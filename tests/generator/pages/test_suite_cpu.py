"""The suite report's server and client cpu/o tables (generator/pages/suite.py): recorded
figures as they are, and, for runs that did not record them, figures derived from the 1 s
samples, which the report says it holds."""

from __future__ import annotations

import pytest

from generator.pages.suite import suite_report
from tests.helpers.suite_runs import VARIANTS, cost, suite_run, template_run

A, B = VARIANTS


@pytest.fixture(scope="module")
def template(fixture_runs) -> dict:
    return template_run([run for _, run in fixture_runs])


def runs(template: dict, own_cpu: tuple[dict, dict]) -> list[dict]:
    """point-query.pre at 1 thread in both variants, 1,000 events in 10 s, with own_cpu's
    fields in each per_op."""
    made = []
    for variant, fields in zip(VARIANTS, own_cpu, strict=True):
        run = suite_run(template, variant, "point-query.pre", "point", 1,
                        {1: {"qps": 100, "per_op": cost(50) | fields}})  # fmt: skip
        step = run["steps"][0]
        step |= {"events": 1000, "duration_s": 10.0}
        step["monitor"] = {"interval_s": 1.0, "series": {
            "t": [1.0, 2.0], "server_cpu_pct": [30.0, 30.0], "client_cpu_pct": [10.0, 10.0]}}  # fmt: skip
        made.append(run)
    return made


def tables(report: dict) -> dict[str, dict]:
    return {table["metric"]: table for table in report["levels"][0]["efficiency"]}


def value(table: dict, variant: str) -> float:
    (row,) = table["groups"][0]["rows"]
    return next(cell["value"] for cell in row["cells"] if cell["variant"] == variant)


def test_recorded_server_and_client_cpu_get_tables_of_their_own(template):
    recorded = ({"server_cpu_us": 30.0, "client_cpu_us": 12.0},
                {"server_cpu_us": 24.0, "client_cpu_us": 12.0})  # fmt: skip
    report = suite_report(runs(template, recorded))
    by_metric = tables(report)
    assert [t["short"] for t in by_metric.values()][:3] == [
        "cpu/o",
        "server cpu/o",
        "client cpu/o",
    ]
    assert (value(by_metric["server_cpu_us"], A), value(by_metric["server_cpu_us"], B)) == (30, 24)
    assert value(by_metric["client_cpu_us"], B) == 12
    assert report["cpu_sampled"] is False


def test_older_runs_get_them_from_the_samples_and_the_report_says_so(template):
    report = suite_report(runs(template, ({}, {})))
    by_metric = tables(report)
    # 30 % x 10 s / 100 over 1,000 events: 3,000 µs; 10 %: 1,000 µs
    assert value(by_metric["server_cpu_us"], A) == 3000
    assert value(by_metric["client_cpu_us"], A) == 1000
    assert report["cpu_sampled"] is True
