"""Write debt: whether a write step ran in steady state, and whether the variants of a write
workload started from the same debt.

A write step's TPS can look flat while the server runs up a debt it pays later: the redo
written since the last checkpoint (the checkpoint age) and the dirty pages not yet flushed.
Both are sampled every second (step.monitor.series.checkpoint_age_kb and dirty_pages). The
debt grows until MariaDB's flushing catches up: it flushes harder ("async" flushing) from about
7/8 of 90 % of 90 % of the redo log capacity (ASYNC_SHARE, about 71 %) and stalls writers
("sync") from about 81 % (SYNC_SHARE); the capacity is innodb_log_file_size times
innodb_log_files_in_group (1 when the server has no such variable).

Step rule, over the kept window (the same seconds as the TPS verdict). A step that wrote less
than REDO_MIN_KB of redo there is read-only and never judged. A write step is "not steady
(write debt)" when its checkpoint age climbs by more than CLIMB_SHARE of the capacity, or
reaches within CLIMB_SHARE of the async flush point (the flushing that follows is measured in
the step, or will be in the next), or its dirty pages climb by more than CLIMB_SHARE of the
buffer pool's pages. When the capacity (or the pool's size in pages) is not recorded, the
series is judged on its trend only: stats.steady_state's fitted line moves up by more than
DRIFT_LIMIT of its mean with a significant slope.

Why 5 %: on the committed data (10 s steps on a 256 MB log), the update-heavy sysbench tests
climb 7 to 27 % of the capacity per step and the mixed read-write ones 2 to 12 %; a climb of
5 % a window reaches the async point from an empty log within about 14 windows, so the number
measures a transient the server cannot keep up. Checkpoint age saw-tooths by a few MB when it is
flat, far under 5 % of any production-sized log.

Campaign rule. A write workload (one whose first steps wrote redo) is flagged when the first
steps of its runs (every variant and pass) start from checkpoint ages more than
START_SPREAD_SHARE of the capacity apart: one side then pays for an earlier workload's debt in
its first steps and the other does not, so their ratio measures that, not the variants. On the
committed 10.11 vs 11.4 campaign, Update-NoKey on 11.4 starts every pass at about 180 MB (the
async point of a 256 MB log) and 10.11 at about 10 MB in two passes of three: 66 % apart.
"""

from __future__ import annotations

from typing import Any, cast

from contract import RunDocument, Step, sysbench_steps, whole_number
from generator.analysis import stats as _stats

KB_PER_MB = 1024
REDO_MIN_KB = 1024  # under 1 MB of redo in the kept window: background work, not writes
CLIMB_SHARE = 0.05
ASYNC_SHARE = 0.9 * 0.9 * 7 / 8
SYNC_SHARE = 0.9 * 0.9
START_SPREAD_SHARE = 0.25
DEFAULT_PAGE_SIZE = 16384


def _variable(run: RunDocument, name: str) -> int | None:
    return whole_number(run["server"].get("variables", {}).get(name, "")) or None


def redo_capacity_kb(run: RunDocument) -> float | None:
    """innodb_log_file_size x innodb_log_files_in_group in KB; None when not recorded."""
    size = _variable(run, "innodb_log_file_size")
    if size is None:
        return None
    return size * (_variable(run, "innodb_log_files_in_group") or 1) / 1024


def _pool_pages(run: RunDocument) -> float | None:
    pool = _variable(run, "innodb_buffer_pool_size")
    page = _variable(run, "innodb_page_size") or DEFAULT_PAGE_SIZE
    return None if pool is None else pool / page


def _monitor(step: Step, name: str) -> list[float]:
    return cast("list[float]", step.get("monitor", {}).get("series", {}).get(name) or [])


def _rising(window: list[float]) -> bool:
    trend = _stats.steady_state(window)
    return (
        trend["slope_p"] is not None
        and trend["slope_p"] < _stats.ALPHA
        and trend["drift"] > _stats.DRIFT_LIMIT
    )


def _climbs(window: list[float], capacity: float | None) -> bool:
    if capacity is None:
        return _rising(window)
    return window[-1] - window[0] > CLIMB_SHARE * capacity


def _mb(kb: float) -> int:
    return round(kb / KB_PER_MB)  # whole MB: finer is noise against a log of hundreds


def step_write_debt(run: RunDocument, step: Step, kept_seconds: int) -> dict[str, Any] | None:
    """The write-debt verdict of a step over its last kept_seconds samples and the figures
    behind it; None for a read-only step or one without the sampled series."""
    ages = _monitor(step, "checkpoint_age_kb")[-kept_seconds:]
    redo = _monitor(step, "redo_kb_per_s")[-kept_seconds:]
    if len(ages) < _stats.MIN_KEPT or sum(redo) < REDO_MIN_KB:
        return None
    capacity = redo_capacity_kb(run)
    reasons = []
    if _climbs(ages, capacity):
        reasons.append("checkpoint age climbs")
    if capacity is not None and max(ages) >= (ASYNC_SHARE - CLIMB_SHARE) * capacity:
        reasons.append("checkpoint age near the async flush point")
    dirty = _monitor(step, "dirty_pages")[-kept_seconds:]
    if len(dirty) >= _stats.MIN_KEPT and _climbs(dirty, _pool_pages(run)):
        reasons.append("dirty pages climb")
    return {
        "steady": not reasons,
        "reasons": reasons,
        "checkpoint_mb": [_mb(ages[0]), _mb(ages[-1])],
        "peak_mb": _mb(max(ages)),
        "capacity_mb": None if capacity is None else _mb(capacity),
        "async_mb": None if capacity is None else _mb(ASYNC_SHARE * capacity),
        "dirty_pages": [dirty[0], dirty[-1]] if dirty else None,
    }


def _first_step(run: RunDocument) -> Step | None:
    steps = sysbench_steps(run)
    return next((step for step in steps if _monitor(step, "checkpoint_age_kb")), None)


def writes(run: RunDocument) -> bool:
    """Whether the run's workload writes: its first sampled step wrote REDO_MIN_KB of redo."""
    first = _first_step(run)
    return first is not None and sum(_monitor(first, "redo_kb_per_s")) >= REDO_MIN_KB


def start_spread(runs: list[RunDocument]) -> dict[str, Any] | None:
    """The campaign rule over the runs of one workload (every variant and pass): the first
    step's starting checkpoint age of each run, and whether they differ by more than
    START_SPREAD_SHARE of the capacity. None for a read-only workload, or when no run has the
    series or a known capacity."""
    starts, shares = [], []
    for run in sorted(
        runs, key=lambda run: (run["variant"], run.get("repeat", {}).get("index", 1))
    ):
        first, capacity = _first_step(run), redo_capacity_kb(run)
        if first is None or capacity is None or not writes(run):
            continue
        start = _monitor(first, "checkpoint_age_kb")[0]
        shares.append(start / capacity)
        starts.append({
            "run_id": run["id"],
            "variant": run["variant"],
            "pass": run.get("repeat", {}).get("index"),
            "start_mb": _mb(start),
            "share": round(start / capacity, 3),
            "capacity_mb": _mb(capacity),
        })  # fmt: skip
    if not starts:
        return None
    spread = max(shares) - min(shares)
    return {
        "flagged": spread > START_SPREAD_SHARE,
        "spread_share": round(spread, 3),
        "limit_share": START_SPREAD_SHARE,
        "starts": starts,
    }
