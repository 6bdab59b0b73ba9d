"""The Insert Benchmark report (generator/pages/ibench.py) on the fixture ibench runs: the step
table, the per-step figures, and the campaign's absolute/relative tables with their greying."""

from __future__ import annotations

import copy
import statistics

import pytest

from contract import is_ibench
from generator.analysis import stats as _stats
from generator.analysis.ratios import FLAGGED, keeps_enough
from generator.analysis.trust import ibench_step_trust
from generator.analysis.verdict import flag_counts, step_flags
from generator.figures.ibench import ibench_figures
from generator.pages.ibench import campaign_report, headline, run_report


@pytest.fixture(scope="module")
def ibench_runs(fixture_runs) -> list[dict]:
    runs = [run for _, run in fixture_runs if is_ibench(run) and run["status"] == "complete"]
    assert runs, "no complete Insert Benchmark run among the fixtures"
    by_campaign: dict[str, list[dict]] = {}
    for run in runs:
        by_campaign.setdefault(run["campaign"]["id"], []).append(run)
    return max(by_campaign.values(), key=len)  # the campaign with the most variants


def test_run_report_has_a_row_per_step_and_figures_per_measured_step(ibench_runs):
    run = ibench_runs[0]
    report = run_report(run)
    assert [row["step"] for row in report["rows"]] == [step["step"] for step in run["steps"]]
    load = next(row for row in report["rows"] if row["step"] == "l.i0")
    assert load["per_op"] == "insert" and load["cpu_us_per_op"] > 0 and load["db_mb"] > 0
    assert [row["step"] for row in report["background"]] == [
        step["step"] for step in run["steps"] if step["kind"] == "query"
    ]
    figures = ibench_figures(run)
    for step in report["steps"]:
        rates = figures[f"ibench-{step['slug']}"]["data"]
        assert rates and all(len(trace["x"]) == len(trace["y"]) for trace in rates)
        histogram = figures[f"ibench-hist-{step['slug']}"]["data"]
        for bars in histogram:
            assert len(bars["x"]) == len(step["buckets"])
            assert sum(bars["y"]) == pytest.approx(100, abs=0.1)


def _flagged(step: dict) -> bool:
    trust = ibench_step_trust(step)
    return bool(trust and trust["flags"])


def test_campaign_tables_are_medians_and_ratios_to_the_base(ibench_runs):
    (workload,) = campaign_report(ibench_runs)["workloads"]
    base_row = workload["rows"][0]
    assert base_row["variant"] == workload["base"]
    assert all(cell["ratio"] == 1.0 for cell in base_row["cells"] if cell["value"])
    passes: dict[str, dict[str, list[dict]]] = {}  # variant -> step -> that step in every pass
    for run in ibench_runs:
        for step in run["steps"]:
            passes.setdefault(run["variant"], {}).setdefault(step["step"], []).append(step)

    def median(variant: str, name: str) -> float:
        return statistics.median(headline(step)[0] for step in passes[variant][name])

    for row in workload["rows"]:
        for name, cell in zip(workload["steps"], row["cells"], strict=True):
            steps = passes[row["variant"]][name]
            assert cell["repeats"] == len(steps)
            assert cell["value"] == pytest.approx(median(row["variant"], name))
            base = median(workload["base"], name)
            assert cell["ratio"] == round(median(row["variant"], name) / base, 2)
            # a side whose steps are all flagged keeps too few to judge on: greyed, over all
            sides = [steps, passes[workload["base"]][name]]
            too_few = any(
                not keeps_enough(len(side), sum(1 for step in side if _flagged(step)))
                for side in sides
            )
            if row["variant"] == workload["base"]:
                assert cell["verdict"] == "same"
            elif too_few:
                assert cell["verdict"] == FLAGGED and cell["no_judgement"]
            else:
                assert cell["verdict"] == _stats.verdict(cell["ratio"], cell["interval"], True)
            assert cell["flags"]["flagged"] == sum(1 for step in steps if _flagged(step))
            flags = [s["background"]["target_sustained"] for s in steps if "background" in s]
            assert cell["sustained"] is (all(flags) if flags else None)
    assert workload["background_steps"] == [s for s in workload["steps"] if s.startswith("q")]
    assert workload["steps"][0] == "l.i0" and "flush" not in workload["steps"]


def test_a_missed_background_target_greys_the_cell(ibench_runs):
    runs = copy.deepcopy(ibench_runs)
    other = next(run for run in runs if run["variant"] != runs[0]["campaign"]["variant_order"][0])
    step = next(step for step in other["steps"] if step["kind"] == "query")
    step["background"]["target_sustained"] = False
    (workload,) = campaign_report(runs)["workloads"]
    row = next(row for row in workload["rows"] if row["variant"] == other["variant"])
    cell = row["cells"][workload["steps"].index(step["step"])]
    assert cell["sustained"] is False
    table = run_report(other)
    assert next(r for r in table["background"] if r["step"] == step["step"])["sustained"] is False


def test_steps_with_a_per_second_rate_carry_the_steady_state_verdict(ibench_runs):
    run = copy.deepcopy(ibench_runs[0])
    query = next(step for step in run["steps"] if step["kind"] == "query")
    kept = query["series"]["queries_per_s"]
    ramp = [rate * (0.5 + second / len(kept)) for second, rate in enumerate(kept)]
    query["series"]["queries_per_s"] = ramp  # from half the rate to one and a half: a trend
    rows = {row["step"]: row for row in run_report(run)["rows"]}
    assert rows["l.x"]["steady"] is None and rows["flush"]["steady"] is None
    assert rows["l.i1"]["steady"]["steady"] is not None
    verdict = rows[query["step"]]["steady"]
    assert verdict["steady"] is False and verdict["drift"] > _stats.DRIFT_LIMIT
    assert verdict == {**_stats.steady_state(_stats.kept(ramp, verdict["trim_s"])),
                       "step": query["step"], "trim_s": verdict["trim_s"],
                       "write_debt": None, "client": None,
                       "flags": step_flags(verdict, query.get("os", {}).get("cpu_steal_pct"))}  # fmt: skip
    assert "unsteady" in [flag["kind"] for flag in verdict["flags"]]
    others = [r for r in ibench_runs if r["variant"] == run["variant"] and r["id"] != run["id"]]
    (workload,) = campaign_report([*others, run])["workloads"]
    cell = workload["rows"][0]["cells"][workload["steps"].index(query["step"])]
    unsteady = [
        1
        for r in [*others, run]
        for s in r["steps"]
        if s["step"] == query["step"]
        and _stats.steady_state(
            _stats.kept(s["series"]["queries_per_s"], _stats.trim_seconds(s["duration_s"]))
        )["steady"]
        is False
    ]
    assert cell["unsteady_runs"] == len(unsteady) >= 1
    # the cell counts its runs' flags of every kind, as a ratio cell does (ratios.pass_flags)
    flags = [
        trust["flags"]
        for r in [*others, run]
        for s in r["steps"]
        if s["step"] == query["step"] and (trust := ibench_step_trust(s))
    ]
    assert cell["flags"] == {
        "passes": len(flags),
        "flagged": sum(1 for found in flags if found),
        "kinds": flag_counts(flags),
    }
    assert cell["flags"]["kinds"]["unsteady"] == cell["unsteady_runs"]
