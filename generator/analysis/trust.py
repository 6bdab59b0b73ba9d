"""What the statistics keep of each step of a run and whether to trust it, by the rules of
generator/analysis/stats.py: the warm-up cut, the kept window's mean TPS, the steady-state verdict,
the write-debt verdict of a write step (generator/analysis/write_debt.py) and the client's CPU
load. Written into the run page's facts; a comparison without
repeats measures its noise on the same kept seconds (kept_series)."""

from __future__ import annotations

import statistics
from typing import Any, cast

from contract import RunDocument, Step, sysbench_steps
from generator.analysis import stats as _stats
from generator.analysis.write_debt import step_write_debt


def _trim(run: RunDocument, step: Step) -> int:
    return _stats.trim_seconds(step["duration_s"], run["workload"].get("trim_seconds"))


def kept_series(run: RunDocument, step: Step, name: str) -> list[float]:
    """A per-second series of the step (tps, qps, p95_ms) after the warm-up cut; empty when
    the step has none."""
    series = cast("list[float] | None", step.get("series", {}).get(name))
    return _stats.kept(series, _trim(run, step)) if series else []


def _client(run: RunDocument, step: Step, kept_seconds: int) -> dict[str, Any] | None:
    series = step.get("monitor", {}).get("series", {}).get("client_cpu_pct")
    if not series:
        return None
    cpus = len(run["workload"].get("client_cpu_affinity") or []) or run["host"]["cpu_threads"]
    return _stats.client_load(series[-kept_seconds:], cpus)


def step_trust(run: RunDocument, step: Step) -> dict[str, Any]:
    values = kept_series(run, step, "tps")
    cut = len(step["series"]["tps"]) - len(values)
    return {
        "threads": step["threads"],
        "trim_s": cut,
        "tps_kept": round(statistics.fmean(values), 2) if values else None,
        **_stats.steady_state(values),
        "write_debt": step_write_debt(run, step, len(values)),
        "client": _client(run, step, len(values)),
    }


def run_trust(run: RunDocument) -> list[dict[str, Any]]:
    """One entry per sysbench step (the Insert Benchmark's steps have their own rules)."""
    return [
        step_trust(run, step) for step in sysbench_steps(run) if "tps" in step and "series" in step
    ]
