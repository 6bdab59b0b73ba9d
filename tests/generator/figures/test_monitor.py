"""Monitoring time lines and their data tables, from fixture runs that carry step.monitor."""

import json

import pytest

import contract
from generator.figures.monitor import monitor_figures
from generator.pages.monitor import FAMILIES, monitored_steps, step_averages


@pytest.fixture(scope="module")
def monitored_run(fixture_runs) -> dict:
    """A fixture run with per-second monitoring but no sampled INNODB_METRICS, whose own
    family the last test adds."""

    def samples_innodb_metrics(run: dict) -> bool:
        return any(
            name.startswith(contract.INNODB_METRICS_PREFIX)
            for step in monitored_steps(run)
            for name in step["monitor"]["series"]
        )

    runs = [
        run_file.doc
        for run_file in fixture_runs
        if monitored_steps(run_file.doc) and not samples_innodb_metrics(run_file.doc)
    ]
    assert runs, "no fixture run has per-second monitoring"
    return runs[0]


def test_one_figure_per_family_with_every_step_on_one_axis(monitored_run):
    figures = monitor_figures(monitored_run)
    assert set(figures) == {f"monitor-{family}" for family in FAMILIES}
    cpu = json.loads(figures["monitor-cpu"].to_json())
    steps = monitored_steps(monitored_run)
    assert [a["text"] for a in cpu["layout"]["annotations"]] == [
        f"{step['threads']} thr" for step in steps
    ]
    server = next(trace for trace in cpu["data"] if trace["name"] == "server_cpu_pct")
    samples = sum(len(step["monitor"]["series"]["t"]) for step in steps)
    assert len(server["y"]) == samples + len(steps)  # one None between steps breaks the line
    xs = [x for x in server["x"] if x is not None]
    assert xs == sorted(xs)  # steps laid end to end


def test_step_averages_are_the_means_of_the_samples(monitored_run):
    tables = step_averages(monitored_run)
    table = tables["monitor-cpu"]
    column = table["metrics"].index("server_cpu_pct")
    for step, row in zip(monitored_steps(monitored_run), table["rows"], strict=True):
        samples = step["monitor"]["series"]["server_cpu_pct"]
        assert row["step"] == f"{step['threads']} thr"
        assert row["values"][column] == round(sum(samples) / len(samples), 2)


def test_runs_without_monitoring_get_no_monitor_figures(fixture_runs):
    bare = {
        **fixture_runs[0].doc,
        "steps": [{**s, "monitor": None} for s in fixture_runs[0].doc["steps"]],
    }
    assert monitor_figures(bare) == {} and step_averages(bare) == {}


def test_sampled_innodb_metrics_get_a_family_of_their_own(monitored_run):
    name = contract.INNODB_METRICS_PREFIX + "trx_rw_commits"
    steps = []
    for step in monitored_run["steps"]:
        series = dict(step["monitor"]["series"])
        series[name] = [1.0] * len(series["t"])
        steps.append({**step, "monitor": {**step["monitor"], "series": series}})
    run = {**monitored_run, "steps": steps}
    assert "monitor-innodb-metrics" in monitor_figures(run)
    table = step_averages(run)["monitor-innodb-metrics"]
    assert table["metrics"] == [name]
    assert all(row["values"] == [1.0] for row in table["rows"])
