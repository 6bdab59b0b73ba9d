"""What the statistics keep of each step of a run and whether to trust it, by the rules of
generator/analysis/stats.py: the warm-up cut, the kept window's mean TPS, the steady-state verdict,
the write-debt verdict of a write step (generator/analysis/write_debt.py) and the client's CPU
load. Written into the run page's facts; a comparison without
repeats measures its noise on the same kept seconds (kept_series).

An Insert Benchmark step is judged by the same steady-state rule on the per-second series of its
headline rate (inserts/s while loading and writing, queries/s in the q steps); l.x reports no
per-second rate and the flush step measures nothing, so neither is judged."""

from __future__ import annotations

import statistics
from typing import Any, Literal

from contract import IbenchStep, RunDocument, Step, ibench_steps, is_ibench, sysbench_steps
from contract.fields import monitor_series, step_figure, step_series
from generator.analysis import stats as _stats
from generator.analysis.verdict import step_flags
from generator.analysis.write_debt import step_write_debt


def _trim(run: RunDocument, step: Step) -> int:
    return _stats.trim_seconds(step["duration_s"], run["workload"].get("trim_seconds"))


def kept_series(run: RunDocument, step: Step, name: str) -> list[float]:
    """A per-second series of the step (tps, qps, p95_ms) after the warm-up cut; empty when
    the step has none."""
    series = step_series(step, name)
    return _stats.kept(series, _trim(run, step)) if series else []


def _client(run: RunDocument, step: Step, kept_seconds: int) -> dict[str, Any] | None:
    series = monitor_series(step, "client_cpu_pct")
    if not series:
        return None
    cpus = len(run["workload"].get("client_cpu_affinity") or []) or run["host"]["cpu_threads"]
    return _stats.client_load(series[-kept_seconds:], cpus)


def step_trust(run: RunDocument, step: Step) -> dict[str, Any]:
    """The step's kept window, its numbers, and its verdict: "flags" (analysis/verdict.py),
    empty for a step fit to judge."""
    values = kept_series(run, step, "tps")
    cut = len(step["series"]["tps"]) - len(values)
    entry = {
        "threads": step["threads"],
        "trim_s": cut,
        "tps_kept": round(statistics.fmean(values), 2) if values else None,
        **_stats.steady_state(values),
        "write_debt": step_write_debt(run, step, len(values)),
        "client": _client(run, step, len(values)),
    }
    entry["flags"] = step_flags(entry, step_figure(step, "os.cpu_steal_pct"))
    return entry


# The per-second series behind an Insert Benchmark step's headline, by step kind.
IBENCH_HEADLINE_SERIES: dict[str, Literal["queries_per_s", "inserts_per_s"]] = {
    "query": "queries_per_s",
    "load": "inserts_per_s",
    "write": "inserts_per_s",
}


def ibench_kept(step: IbenchStep) -> list[float]:
    """The headline's per-second series after the warm-up cut; empty when the step has none."""
    name = IBENCH_HEADLINE_SERIES.get(step["kind"])
    series = step_series(step, name) if name else None
    return _stats.kept(series, _stats.trim_seconds(step["duration_s"])) if series else []


def ibench_step_trust(step: IbenchStep) -> dict[str, Any] | None:
    """The steady-state verdict of one Insert Benchmark step; None for a step not judged."""
    values = ibench_kept(step)
    if not values:
        return None
    entry = {
        "step": step["step"],
        "trim_s": len(step["series"][IBENCH_HEADLINE_SERIES[step["kind"]]]) - len(values),
        **_stats.steady_state(values),
        "write_debt": None,
        "client": None,
    }
    entry["flags"] = step_flags(entry, step_figure(step, "os.cpu_steal_pct"))
    return entry


def run_trust(run: RunDocument) -> list[dict[str, Any]]:
    """One entry per judged step: every sysbench step with per-second samples, or every
    Insert Benchmark step with a per-second headline rate."""
    if is_ibench(run):
        return [entry for step in ibench_steps(run) if (entry := ibench_step_trust(step))]
    return [
        step_trust(run, step) for step in sysbench_steps(run) if "tps" in step and "series" in step
    ]
