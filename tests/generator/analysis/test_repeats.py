"""Repeats of a campaign: which runs count, medians, ranges, spread and intervals; the
buffer pool fit. Runs are fixture runs copied as passes with scaled TPS (tests/repeated_runs)."""

from __future__ import annotations

import copy
import json
import statistics

import pytest

from generator.analysis import stats as _stats
from generator.analysis.memory import TIMES, memory_fit, size_text
from generator.analysis.repeats import counted_runs
from generator.figures.sweep import HOLLOW_LEGEND, campaign_figures
from generator.hugo import site_contract as site
from generator.hugo.build_tree import hugo_inputs
from generator.hugo.load import RunFile
from generator.pages.campaign import summarize_campaign
from tests.helpers.repeated_runs import as_repeat, two_variants, write_runs

BASE_SCALES = (1.0, 1.02, 0.98)  # spread 4.1 %: within the noise band
OTHER_SCALES = (1.0, 1.10, 0.97)  # spread 13.4 %: noisy


@pytest.fixture(scope="module")
def pair(fixture_runs) -> tuple[dict, dict]:
    return two_variants([run for _, run in fixture_runs])


@pytest.fixture(scope="module")
def repeated(pair) -> list[dict]:
    """Three passes of each variant, plus a partial fourth pass of the other variant whose
    absurd TPS must not reach any median."""
    base, other = pair
    passes = [as_repeat(base, i + 1, 3, scale) for i, scale in enumerate(BASE_SCALES)]
    passes += [as_repeat(other, i + 1, 3, scale) for i, scale in enumerate(OTHER_SCALES)]
    passes.append(as_repeat(other, 3, 3, 50.0, id=f"{other['id']}.r2", status="partial"))
    return passes


def _cell(summary: dict, metric: str, threads: int, variant: str) -> dict:
    table = summary["workloads"][0]["metrics"][metric]
    row = next(row for row in table["rows"] if row["threads"] == threads)
    return row["cells"][table["variants"].index(variant)]


def test_counted_runs_skip_partial_and_take_the_latest_complete_per_pass(pair):
    base, _ = pair
    first = as_repeat(base, 1, 2, started_at="2026-01-01T00:00:00Z")
    second_partial = as_repeat(base, 2, 2, status="partial", started_at="2026-01-01T01:00:00Z")
    second_rerun = as_repeat(base, 2, 2, id="rerun", started_at="2026-01-01T02:00:00Z")
    assert counted_runs([second_partial, first]) == [first]
    assert counted_runs([second_rerun, second_partial, first]) == [first, second_rerun]
    # Nothing complete: the latest run still shows what it measured, as before repeats.
    assert counted_runs([second_partial]) == [second_partial]


def test_cells_show_the_median_range_count_and_spread_of_complete_repeats(pair, repeated):
    base, other = pair
    summary = summarize_campaign(repeated)
    workload = summary["workloads"][0]
    assert workload["metrics"]["tps"]["most_repeats"] == 3
    for step, other_step in zip(base["steps"], other["steps"], strict=True):
        threads = step["threads"]
        base_tps = [round(step["tps"] * scale, 2) for scale in BASE_SCALES]
        other_tps = [round(other_step["tps"] * scale, 2) for scale in OTHER_SCALES]
        base_cell = _cell(summary, "tps", threads, base["variant"])
        cell = _cell(summary, "tps", threads, other["variant"])
        assert cell["value"] == statistics.median(other_tps)
        assert (cell["low"], cell["high"]) == (min(other_tps), max(other_tps))
        assert cell["repeats"] == 3
        assert cell["spread"] == pytest.approx(max(other_tps) / min(other_tps) - 1, abs=1e-3)
        assert cell["spread"] > _stats.BAND and base_cell["spread"] < _stats.BAND
        # repeats on both sides: the interval comes from them, and holds the ratio
        assert cell["interval"]["method"] == "repeats" and base_cell["interval"] is None
        assert cell["interval"]["low"] <= cell["ratio"] <= cell["interval"]["high"]
        assert cell["ratio"] == round(
            statistics.median(other_tps) / statistics.median(base_tps), 2
        )
        latency = _cell(summary, "p95", threads, other["variant"])
        assert latency["value"] == statistics.median(
            round(other_step["latency_ms"]["p95"] / scale, 3) for scale in OTHER_SCALES
        )
    listed = next(cell for cell in workload["cells"] if cell["variant"] == other["variant"])
    assert [(run["repeat"], run["status"], run["counted"]) for run in listed["runs"]] == [
        (1, "complete", True),
        (2, "complete", True),
        (3, "complete", True),
        (3, "partial", False),
    ]


def test_single_pass_cells_have_no_spread(fixture_runs):
    runs = [run for _, run in fixture_runs]
    single_pass = next(run["campaign"]["id"] for run in runs if "repeat" not in run)
    summary = summarize_campaign([run for run in runs if run["campaign"]["id"] == single_pass])
    for workload in summary["workloads"]:
        table = workload["metrics"]["tps"]
        assert table["most_repeats"] == 1
        for row in table["rows"]:
            for cell in row["cells"]:
                assert cell["low"] == cell["value"] == cell["high"]
                assert cell["spread"] is None
                if cell["interval"] is not None:  # one pass: noise from the kept seconds
                    assert cell["interval"]["method"] == "per-second samples"
        assert "error_y" not in campaign_figures(workload)["tps"]["data"][0]


def test_campaign_curves_carry_the_repeat_range_as_error_bars(pair, repeated):
    workload = summarize_campaign(repeated)["workloads"][0]
    figure = campaign_figures(workload)["tps"]
    lines = [trace for trace in figure["data"] if trace["name"] != HOLLOW_LEGEND]
    for trace, variant in zip(lines, workload["variants"], strict=True):
        cells = [_cell({"workloads": [workload]}, "tps", x, variant) for x in trace["x"]]
        assert trace["y"] == [cell["value"] for cell in cells]
        assert trace["error_y"]["array"] == [cell["high"] - cell["value"] for cell in cells]
        assert trace["error_y"]["arrayminus"] == [cell["value"] - cell["low"] for cell in cells]


def test_run_facts_list_the_sibling_repeats(tmp_path, repeated):
    paths = write_runs(repeated, tmp_path)
    files = hugo_inputs([RunFile(path, run) for path, run in zip(paths, repeated, strict=True)])
    partial = repeated[-1]
    facts = json.loads(files[site.run_page_file(partial["id"])])["facts"]
    siblings = [run["id"] for run in repeated if run["variant"] == partial["variant"]]
    assert [entry["id"] for entry in facts["passes"]] == siblings
    assert [entry["counted"] for entry in facts["passes"]] == [True, True, True, False]


def _with_sizes(run: dict, data_bytes: int | None, buffer_pool: str) -> dict:
    sized = copy.deepcopy(run)
    sized["workload"]["data_bytes"] = data_bytes
    sized["server"]["variables"]["innodb_buffer_pool_size"] = buffer_pool
    return sized


@pytest.mark.parametrize(
    ("data_bytes", "buffer_pool", "fit", "text"),
    [
        (
            2040109465,
            str(128 * 2**20),
            "io-bound",
            f"data 1.9 GiB, buffer pool 128 MiB: IO-bound (data is 15{TIMES} the buffer pool)",
        ),
        (
            3 * 2**20,
            str(2**30),
            "in-memory",
            "data 3 MiB, buffer pool 1 GiB: in-memory (data fits in the buffer pool, under 1 % of it)",
        ),
        (
            96731136,
            str(2**29),
            "in-memory",
            "data 92.2 MiB, buffer pool 512 MiB: in-memory (data fits in the buffer pool, 18 % of it)",
        ),
        (
            3 * 2**29,
            str(2**30),
            "io-bound",
            f"data 1.5 GiB, buffer pool 1 GiB: IO-bound (data is 1.5{TIMES} the buffer pool)",
        ),
    ],
)
def test_memory_fit_reads_data_size_against_the_buffer_pool(
    pair, data_bytes, buffer_pool, fit, text
):
    found = memory_fit(_with_sizes(pair[0], data_bytes, buffer_pool))
    assert (found["fit"], found["text"]) == (fit, text)


@pytest.mark.parametrize(("data_bytes", "buffer_pool"), [(None, "134217728"), (10, ""), (10, "0")])
def test_memory_fit_needs_both_sizes(pair, data_bytes, buffer_pool):
    assert memory_fit(_with_sizes(pair[0], data_bytes, buffer_pool)) is None


def test_size_text_uses_binary_units():
    assert [size_text(n) for n in (512, 2048, 1536 * 2**20, 2**50)] == [
        "512 B",
        "2 KiB",
        "1.5 GiB",
        "1024 TiB",
    ]
