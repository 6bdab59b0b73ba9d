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
than REDO_MIN_KB of redo there is read-only and never judged. A write step is judged on two
questions, each a flag of the step's verdict (generator/analysis/verdict.py):

- Did it start settled? Its checkpoint age at the start (the harness's settle record when the
  step has one, else the first sample less the redo of that first second) is at most
  SETTLED_SHARE of the capacity, the threshold the harness settles to. A step that starts above
  it pays for the steps before it ("inherited").
- Did the debt stop growing? Checkpoint age and dirty pages each reach their ceiling (within
  CLIMB_SHARE of the capacity, or of the buffer pool's pages, of the window's highest value) in
  the first EQUILIBRIUM_SHARE of the kept window: the rest of the window then measures the
  server at the level of debt its flushing holds, flat or saw-toothing between checkpoints.
  A step whose debt reaches its ceiling later, or is still climbing at the end, measured the
  climb: "transient". When the capacity (or the pool's size in pages) is not recorded, the
  series is judged on the trend of the window's second half: stats.steady_state's fitted line
  moves up by more than DRIFT_LIMIT of its mean with a significant slope.

Why 5 %: a checkpoint age that is flat saw-tooths by a few MB, far under 5 % of any
production-sized log, while the update-heavy sysbench tests climb 7 to 27 % of a 256 MB log in
10 s. On the committed 120 s Update-NoKey steps from a settled start, the age climbs from 2 MB
to the async flush point (about 182 MB) in about 100 s at 1 thread (transient), and within
20 s at 16 threads, where it then holds between 80 and 130 MB (equilibrium). On a 64 MB log
the same steps reach the async point (about 45 MB) within 40 s and then run in checkpoint
cycles: a flush drops the age to a few MB and it climbs back, every 40 to 60 s at 1 thread.
Those cycles are the log's equilibrium, so a series that fell well below its ceiling after
reaching it is not "still growing" when the window ends in the next climb.

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
from contract.fields import monitor_series, pass_index, pass_order, server_variable
from contract.write_debt_limits import SETTLED_SHARE, redo_capacity_bytes
from generator.analysis import stats as _stats

KB_PER_MB = 1024
REDO_MIN_KB = 1024  # under 1 MB of redo in the kept window: background work, not writes
CLIMB_SHARE = 0.05
EQUILIBRIUM_SHARE = 0.5
ASYNC_SHARE = 0.9 * 0.9 * 7 / 8
SYNC_SHARE = 0.9 * 0.9
START_SPREAD_SHARE = 0.25
DEFAULT_PAGE_SIZE = 16384


def _variable(run: RunDocument, name: str) -> int | None:
    return whole_number(server_variable(run, name) or "") or None


def redo_capacity_kb(run: RunDocument) -> float | None:
    """The redo log's capacity (contract.write_debt_limits) in KB; None when not recorded."""
    capacity = redo_capacity_bytes(run["server"].get("variables", {}))
    return None if capacity is None else capacity / 1024


def _pool_pages(run: RunDocument) -> float | None:
    pool = _variable(run, "innodb_buffer_pool_size")
    page = _variable(run, "innodb_page_size") or DEFAULT_PAGE_SIZE
    return None if pool is None else pool / page


def _rising(window: list[float]) -> bool:
    trend = _stats.steady_state(window)
    return (
        trend["slope_p"] is not None
        and trend["slope_p"] < _stats.ALPHA
        and trend["drift"] > _stats.DRIFT_LIMIT
    )


def ceiling_second(window: list[float], scale: float | None) -> int | None:
    """The first second of the window at which the series is within CLIMB_SHARE of scale of
    its highest value (0 for a series that never climbs that much); None when it still rises
    from there to the end (a climb, not a ceiling), or, the scale unknown, when the second
    half of the window rises. A series that falls more than CLIMB_SHARE of scale below the
    ceiling after reaching it and climbs back runs in checkpoint cycles: a small redo log's
    equilibrium, whose rising end is the next cycle, not a climb."""
    if scale is None:
        return None if _rising(window[len(window) // 2 :]) else 0
    ceiling = max(window) - CLIMB_SHARE * scale
    reached = next(second for second, value in enumerate(window) if value >= ceiling)
    after = window[reached:]
    cycles = min(after) < ceiling - CLIMB_SHARE * scale
    return None if _rising(after) and not cycles else reached


def _start_age_kb(step: Step) -> float:
    after = step["settle"].get("after") if "settle" in step else None
    if after is not None and after["checkpoint_age_kb"] is not None:
        return float(after["checkpoint_age_kb"])
    ages = monitor_series(step, "checkpoint_age_kb")
    redo = monitor_series(step, "redo_kb_per_s")
    return max(ages[0] - (redo[0] if redo else 0.0), 0.0)


def _mb(kb: float) -> int:
    return round(kb / KB_PER_MB)  # whole MB: finer is noise against a log of hundreds


def step_write_debt(run: RunDocument, step: Step, kept_seconds: int) -> dict[str, Any] | None:
    """The write-debt facts of a step over its last kept_seconds samples: where the debt
    started and ended, when it reached its ceiling, and the two flags (inherited, transient)
    with the reasons; None for a read-only step or one without the sampled series."""
    ages = monitor_series(step, "checkpoint_age_kb")[-kept_seconds:]
    redo = monitor_series(step, "redo_kb_per_s")[-kept_seconds:]
    if len(ages) < _stats.MIN_KEPT or sum(redo) < REDO_MIN_KB:
        return None
    capacity = redo_capacity_kb(run)
    dirty = monitor_series(step, "dirty_pages")[-kept_seconds:]
    ceilings = [ceiling_second(ages, capacity)]
    if len(dirty) >= _stats.MIN_KEPT:
        ceilings.append(ceiling_second(dirty, _pool_pages(run)))
    reached = None if None in ceilings else max(cast("list[int]", ceilings))
    transient = reached is None or reached > EQUILIBRIUM_SHARE * len(ages)
    start = _start_age_kb(step)
    inherited = capacity is not None and start > SETTLED_SHARE * capacity
    reasons = []
    if inherited:
        reasons.append("started above the settled checkpoint age")
    if transient:
        reasons.append(
            "debt still growing" if reached is None else "debt reached its ceiling late"
        )
    return {
        "steady": not reasons,
        "reasons": reasons,
        "inherited": inherited,
        "transient": transient,
        "start_mb": _mb(start),
        "settled_mb": None if capacity is None else _mb(SETTLED_SHARE * capacity),
        "settle": step.get("settle"),
        "ceiling_s": reached,
        "kept_s": len(ages),
        "checkpoint_mb": [_mb(ages[0]), _mb(ages[-1])],
        "peak_mb": _mb(max(ages)),
        "capacity_mb": None if capacity is None else _mb(capacity),
        "async_mb": None if capacity is None else _mb(ASYNC_SHARE * capacity),
        "end_share_of_async": None
        if capacity is None
        else round(ages[-1] / (ASYNC_SHARE * capacity), 2),
        "dirty_pages": [dirty[0], dirty[-1]] if dirty else None,
    }


def _first_step(run: RunDocument) -> Step | None:
    steps = sysbench_steps(run)
    return next((step for step in steps if monitor_series(step, "checkpoint_age_kb")), None)


def writes(run: RunDocument) -> bool:
    """Whether the run's workload writes: its first sampled step wrote REDO_MIN_KB of redo."""
    first = _first_step(run)
    return first is not None and sum(monitor_series(first, "redo_kb_per_s")) >= REDO_MIN_KB


def start_spread(runs: list[RunDocument]) -> dict[str, Any] | None:
    """The campaign rule over the runs of one workload (every variant and pass): the first
    step's starting checkpoint age of each run, and whether they differ by more than
    START_SPREAD_SHARE of the capacity. None for a read-only workload, or when no run has the
    series or a known capacity."""
    starts, shares = [], []
    for run in sorted(runs, key=lambda run: (run["variant"], pass_order(run))):
        first, capacity = _first_step(run), redo_capacity_kb(run)
        if first is None or capacity is None or not writes(run):
            continue
        start = monitor_series(first, "checkpoint_age_kb")[0]
        shares.append(start / capacity)
        starts.append({
            "run_id": run["id"],
            "variant": run["variant"],
            "pass": pass_index(run),
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
