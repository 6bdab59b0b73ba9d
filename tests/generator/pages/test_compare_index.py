"""The compare page's inputs, pure: the index JSON and the effective config diff."""

from __future__ import annotations

import json

import pytest

from contract import is_ibench
from generator.analysis import stats as _stats
from generator.analysis.config_diff import INSTANCE_GROUP, config_diff, group_of, variable_of
from generator.analysis.drift import DRIFT_FIELDS, environment_drift, field_values
from generator.analysis.ratios import METRICS, ratio_table
from generator.analysis.trust import kept_series
from generator.analysis.verdict import FLAG_KINDS
from generator.hugo import site_contract as site
from generator.hugo.build_tree import hugo_inputs
from generator.pages.compare_index import COMPARE_METRICS, STEP_FIELDS, compare_index, flag_mask
from tests.helpers.compare_runs import (
    BASE,
    CAMPAIGN,
    DIFF_ROWS,
    DRIFT_KERNEL,
    INSTANCE_ROWS,
    P95,
    QPS_PER_TPS,
    THREADS,
    TPS,
    TUNED,
    compare_runs,
    drifted_runs,
    run_id,
)
from tests.helpers.compare_split import campaign_file_paths
from tests.helpers.repeated_runs import as_repeat


@pytest.fixture(scope="module")
def probe(fixture_runs) -> list[dict]:
    return compare_runs([run for _, run in fixture_runs])


def test_each_run_is_its_numbers_per_thread_level(probe):
    index = compare_index(probe)
    assert index["step_fields"] == STEP_FIELDS == ["threads", "tps", "qps", "p95"]
    by_id = {run["id"]: run for run in index["runs"]}
    for variant in (BASE, TUNED):
        entry = by_id[run_id(variant)]
        assert entry["label"] == variant
        assert entry["workload"] == "point-select"
        assert entry["steps"] == [
            [threads, tps, tps * QPS_PER_TPS, p95]
            for threads, tps, p95 in zip(THREADS, TPS[variant], P95[variant], strict=False)
        ]


def test_the_page_gets_the_generator_s_ratio_rules(probe):
    index = compare_index(probe)
    ratio = index["ratio"]
    # the page colours by the same ±5 % band and 95 % intervals as the campaign tables
    assert (ratio["noise"], ratio["decimals"]) == (0.05, 2)
    assert ratio["markers"] == {"better": "▲", "worse": "▼", "same": "", "noise": "≈"}
    interval = ratio["interval"]
    assert (interval["confidence"], interval["decimals"]) == (0.95, _stats.INTERVAL_DECIMALS)
    assert len(interval["t"]) == _stats.T_TABLE_STEPS + 1 and round(interval["t"][0], 2) == 1.96
    assert index["metrics"]["p95"]["higher_is_better"] is False
    assert index["metrics"]["qps"]["higher_is_better"] is True


def test_the_t_table_holds_the_textbook_quantiles():
    table = _stats.t_table()
    assert len(table) == _stats.T_TABLE_STEPS + 1
    # Entry k is at 1 / df = k / T_TABLE_STEPS: df = infinity (normal), 200, 20, 2, 1.
    at_df = [table[k] for k in (0, 1, 10, 100, 200)]
    assert [round(value, 3) for value in at_df] == [1.96, 1.972, 2.086, 4.303, 12.706]


def test_each_step_carries_the_summaries_of_its_kept_seconds(probe):
    index = compare_index(probe)
    assert index["seconds_fields"] == list(COMPARE_METRICS) == STEP_FIELDS[1:]
    by_id = {run["id"]: run for run in index["runs"]}
    for run in probe:
        assert by_id[run["id"]]["seconds"] == [
            [
                _stats.series_summary(kept_series(run, step, metric.series))
                for metric in COMPARE_METRICS.values()
            ]
            for step in run["steps"]
        ]


def test_the_summaries_give_the_generator_s_per_second_interval(probe):
    base, tuned = probe
    by_id = {run["id"]: run for run in compare_index(probe)["runs"]}
    for column, metric in enumerate(COMPARE_METRICS.values()):
        pairs = zip(base["steps"], tuned["steps"], strict=False)  # tuned has no 16 threads
        for step, (base_step, tuned_step) in enumerate(pairs):
            summaries = (by_id[run["id"]]["seconds"][step][column] for run in probe)
            ratio = metric.value_of(tuned_step) / metric.value_of(base_step)
            interval = _stats.summary_interval(*summaries, ratio, per_second=True)
            assert interval is not None
            assert interval == _stats.ratio_interval(
                kept_series(base, base_step, metric.series),
                kept_series(tuned, tuned_step, metric.series),
                ratio,
                per_second=True,
            )


def _cells(index: dict) -> dict[str, dict]:
    """The index's cells of the probe workload by variant."""
    return {cell["variant"]: cell for cell in index["cells"] if cell["workload"] == "point-select"}


def _sides(cell: dict, step: int, column: int) -> dict:
    return {field: cell[field][step][column] for field in ("repeats", "seconds")}


@pytest.mark.parametrize("metric", list(METRICS))  # the metrics of campaign tables
def test_a_cell_merges_its_passes_as_the_campaign_page_does(probe, metric):
    base, tuned = probe
    scales = (1.0, 0.8, 1.1)
    passes = [as_repeat(tuned, index, 3, scale) for index, scale in enumerate(scales, 1)]
    index = compare_index([base, *passes])
    cells = _cells(index)
    merged = cells[TUNED]
    assert BASE not in cells  # a cell of one run is that run's entry, with no repeats
    by_id = {run["id"]: run for run in index["runs"]}
    alone = {"repeats": [[None] * len(COMPARE_METRICS)] * len(THREADS), **by_id[base["id"]]}
    assert merged["runs"] == [run["id"] for run in passes]
    assert merged["passes"] == [3, 3, 3, 3]  # tuned has no 16 threads
    # the median of the three passes: the first pass's own values
    assert [step[:2] for step in merged["steps"]] == [
        [threads, tps] for threads, tps in zip(THREADS, TPS[TUNED], strict=False)
    ]
    # both sides' summaries give the interval of the campaign table's cell (ratios.py)
    table = ratio_table({BASE: [base], TUNED: passes}, [BASE, TUNED], metric)
    column = list(COMPARE_METRICS).index(metric)
    for step, row in enumerate(table["rows"][: len(merged["steps"])]):
        base_cell, cell = row["cells"]
        assert merged["repeats"][step][column] == _stats.log_summary(
            cell_values(passes, metric, row["threads"])
        )
        exact = cell["value"] / base_cell["value"]
        sides = (_sides(alone, step, column), _sides(merged, step, column))
        assert _stats.pair_interval(*sides, exact) == cell["interval"]


def cell_values(runs: list[dict], metric: str, threads: int) -> list[float]:
    value_of = COMPARE_METRICS[metric].value_of
    return [value_of(step) for run in runs for step in run["steps"] if step["threads"] == threads]


def test_two_cells_of_repeats_are_judged_on_their_repeats(probe):
    runs = [
        as_repeat(run, index, 2, scale) for run in probe for index, scale in ((1, 1.0), (2, 0.9))
    ]
    cells = _cells(compare_index(runs))
    column = list(COMPARE_METRICS).index("tps")
    sides = [_sides(cells[variant], 2, column) for variant in (BASE, TUNED)]
    assert [side["repeats"][0] for side in sides] == [2, 2]
    interval = _stats.pair_interval(*sides, 4500 / 4000)
    assert interval is not None and interval["method"] == "repeats"


def test_each_run_points_to_its_environment(probe):
    runs = [*probe, *drifted_runs(probe)]
    index = compare_index(runs)
    assert index["drift"]["fields"] == [label for label, _ in DRIFT_FIELDS]
    environments = index["drift"]["environments"]
    assert len(environments) == 2  # the probe's and the drifted kernel's
    by_id = {run["id"]: run for run in index["runs"]}
    for run in runs:
        assert environments[by_id[run["id"]]["environment"]] == field_values(run)
    (kernel,) = environment_drift(runs)
    assert kernel["what"] == "kernel"
    assert kernel["values"][1] == {"value": DRIFT_KERNEL, "runs": [runs[3]["id"]]}


def test_a_campaign_lists_its_counted_runs_base_variant_first(probe):
    base, tuned = probe
    # Listed backwards, a repeated pass and a failed re-run that must not count.
    passes = [as_repeat(tuned, 1, 2), as_repeat(tuned, 2, 2)]
    failed = as_repeat(tuned, 2, 2, id=f"{tuned['id']}.failed", status="failed", steps=[])
    index = compare_index([*passes, failed, base])
    (campaign,) = index["campaigns"]
    assert campaign["id"] == CAMPAIGN and campaign["base"] == BASE
    assert campaign["runs"] == [base["id"], passes[0]["id"], passes[1]["id"]]
    assert index["runs"][0]["id"] == base["id"]
    assert {run["label"] for run in index["runs"]} >= {"tuned #1", "tuned #2"}


def test_the_index_is_small_per_run(fixture_runs):
    files = hugo_inputs(fixture_runs)
    parts = [files[site.COMPARE_CATALOGUE], *(files[path] for path in campaign_file_paths(files))]
    runs = [run for part in parts[1:] for run in json.loads(part)["runs"]]
    # The Insert Benchmark's runs have steps by name, not thread levels: no compare view.
    assert len(runs) == sum(not is_ibench(run) for _, run in fixture_runs)
    # The whole per-run summary stays small: the bulk of a run lives in its run.json.
    assert sum(map(len, parts)) / len(fixture_runs) < 1000
    assert "data/drilldown.json" in files


@pytest.mark.parametrize(
    ("option", "variable"),
    [
        ("skip_log_bin", "log_bin"),
        ("skip_name_resolve", "skip_name_resolve"),  # itself a variable on MariaDB
        ("loose_innodb_buffer_pool_size", "innodb_buffer_pool_size"),
        ("loose_probe_unknown_option", None),
    ],
)
def test_a_my_cnf_option_maps_to_the_variable_it_sets(option, variable):
    variables = {"log_bin": "OFF", "skip_name_resolve": "ON", "innodb_buffer_pool_size": "1"}
    assert variable_of(option, variables) == variable


def test_paths_ports_and_ids_group_as_the_instance():
    assert group_of("tmpdir", ["/a/tmp", "/b/tmp"]) == INSTANCE_GROUP
    assert group_of("port", ["3306", "3307"]) == INSTANCE_GROUP
    assert group_of("innodb_flush_method", ["O_DIRECT", "fsync"]) == "InnoDB"
    assert group_of("sync_binlog", ["0", "1"]) == "Binary log and replication"


def test_the_config_diff_lists_exactly_the_effective_differences(probe):
    diff = config_diff(probe, [BASE, TUNED])
    assert diff["labels"] == [BASE, TUNED]
    rows = {group["title"]: [row["name"] for row in group["rows"]] for group in diff["groups"]}
    assert rows == {**DIFF_ROWS, INSTANCE_GROUP: INSTANCE_ROWS}
    assert [group["instance"] for group in diff["groups"]] == [False] * len(DIFF_ROWS) + [True]
    cells = {row["name"]: row["cells"] for group in diff["groups"] for row in group["rows"]}
    assert cells["log_bin"] == [
        {"value": "OFF", "cnf": "skip_log_bin = ON"},
        {"value": "ON", "cnf": "log_bin = binlog"},
    ]
    assert cells["innodb_buffer_pool_size"] == [
        {"value": "134217728", "cnf": None},
        {"value": "1073741824", "cnf": "innodb_buffer_pool_size = 1G"},
    ]
    assert cells["innodb_probe_only_in_tuned"][0] == {"value": None, "cnf": None}
    assert cells["loose_probe_unknown_option"] == [
        {"value": None, "cnf": None},
        {"value": None, "cnf": "loose_probe_unknown_option = 1"},
    ]


def test_flagged_steps_ride_along_as_masks_with_the_unflagged_merge(probe):
    base, tuned = probe
    passes = [as_repeat(tuned, index, 3, scale) for index, scale in ((1, 1.0), (2, 0.8), (3, 1.1))]
    passes[1]["steps"][1]["os"]["cpu_steal_pct"] = 20.0  # pass 2 at 2 threads: VM steal
    index = compare_index([base, *passes])
    steal = 1 << list(FLAG_KINDS).index("steal")
    assert index["flags"]["kinds"] == list(FLAG_KINDS)
    assert flag_mask([{"kind": "steal"}, {"kind": "unsteady"}]) == steal | 1
    by_id = {run["id"]: run for run in index["runs"]}
    assert by_id[passes[1]["id"]]["flags"] == [0, steal, 0, 0]
    assert "flags" not in by_id[base["id"]] and "flags" not in by_id[passes[0]["id"]]
    merged = _cells(index)[TUNED]
    assert merged["flags"] == [[0, 0, 0], [0, steal, 0], [0, 0, 0], [0, 0, 0]]
    unflagged = merged["unflagged"]
    tps = list(COMPARE_METRICS).index("tps") + 1
    # at 2 threads the median of passes 1 and 3 (scales 1.0 and 1.1); elsewhere all three
    assert unflagged["steps"][1][tps] == 1500 * 1.05
    assert (
        unflagged["steps"][0] == merged["steps"][0]
        and unflagged["steps"][2:] == merged["steps"][2:]
    )
    assert unflagged["repeats"][1][0] == _stats.log_summary([1500.0, 1500 * 1.1])
