"""Monitoring time lines and their data tables, from fixture runs that carry step.monitor."""

import pytest

import contract
from generator.figures.monitor import monitor_figures
from generator.pages.monitor import FAMILIES, family_rules, monitored_steps, step_averages


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
    cpu = figures["monitor-cpu"]
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


COUNTER = contract.INNODB_METRICS_PREFIX + "trx_rw_commits"
VALUE = contract.INNODB_METRICS_PREFIX + "log_lsn_checkpoint_age"


def with_sampled(run: dict, kinds: dict[str, str] | None) -> dict:
    """run with a sampled counter (1 a second) and value (5000) on every step, and the kinds
    the harness records, or none as in runs written before it recorded them."""
    steps = []
    for step in run["steps"]:
        series = dict(step["monitor"]["series"])
        series[COUNTER] = [1.0] * len(series["t"])
        series[VALUE] = [5000.0] * len(series["t"])
        monitor = {**step["monitor"], "series": series}
        if kinds is not None:
            monitor["kinds"] = kinds
        steps.append({**step, "monitor": monitor})
    return {**run, "steps": steps}


def test_sampled_innodb_metrics_get_a_chart_per_recorded_kind(monitored_run):
    run = with_sampled(monitored_run, {COUNTER: "counter", VALUE: "value"})
    figures = monitor_figures(run)
    assert "monitor-innodb-metrics" not in figures
    tables = step_averages(run)
    for family, metric, unit, y_title, mean in (
        ("innodb-metrics-counters", COUNTER, "per second", "trx_rw_commits per second", 1.0),
        ("innodb-metrics-values", VALUE, "value as read",
         "log_lsn_checkpoint_age (value as read)", 5000.0),
    ):  # fmt: skip
        figure = figures[f"monitor-{family}"]
        assert [trace["name"] for trace in figure["data"]] == [metric]
        assert figure["layout"]["yaxis"]["title"]["text"] == y_title  # one line, no legend
        table = tables[f"monitor-{family}"]
        assert table["metrics"] == [metric] and table["unit"] == unit
        assert "mixed" not in table["title"] and "did not record" not in table["title"]
        assert all(row["values"] == [mean] for row in table["rows"])


def test_sampled_innodb_metrics_without_kinds_stay_one_chart_said_to_be_mixed(monitored_run):
    run = with_sampled(monitored_run, None)
    figures = monitor_figures(run)
    assert "monitor-innodb-metrics-counters" not in figures
    assert "monitor-innodb-metrics-values" not in figures
    figure = figures["monitor-innodb-metrics"]
    assert sorted(trace["name"] for trace in figure["data"]) == sorted([COUNTER, VALUE])
    table = step_averages(run)["monitor-innodb-metrics"]
    assert table["metrics"] == sorted([COUNTER, VALUE])
    assert "this run did not record which metric is which kind" in table["title"]


def test_the_drilldown_titles_and_units_are_the_run_page_s(monitored_run):
    """The drill-down (js/drilldown.js) groups a step's sampled series by the same rules."""
    sampled = family_rules()["sampled"]
    assert sampled["prefix"] == contract.INNODB_METRICS_PREFIX
    by_kind = step_averages(with_sampled(monitored_run, {COUNTER: "counter", VALUE: "value"}))
    assert sampled["kinds"] == {
        "counter": [by_kind["monitor-innodb-metrics-counters"][key] for key in ("title", "unit")],
        "value": [by_kind["monitor-innodb-metrics-values"][key] for key in ("title", "unit")],
    }
    mixed = step_averages(with_sampled(monitored_run, None))["monitor-innodb-metrics"]
    assert sampled["mixed"] == [mixed["title"], mixed["unit"]]
