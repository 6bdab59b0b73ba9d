"""How long a campaign runs, from its file alone: what `mybench campaign new` prints before
anyone waits on it, and what it says of its repeats.

Only what the file fixes is counted: every measured step, the warm-up before each sweep and
the pause between thread levels, over every pass, server and variant. Loading data, copying a
pristine datadir, waiting for the checkpoint before each step (up to `settle_timeout_s`) and
the Insert Benchmark's steps that end when their rows are written add to it, by an amount the
file cannot tell; the estimate says so rather than guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.repeats import ENOUGH_PASSES
from harness.model.campaign import Campaign, Workload
from harness.model.ibench_params import plan

SECONDS_PER_MINUTE = 60
MINUTES_PER_HOUR = 60


@dataclass(frozen=True)
class Estimate:
    seconds: float  # the timed part of every pass, server and variant
    cells: int  # server x variant combinations
    passes: int
    untimed: list[str]  # workloads with steps that end on work done, not on a clock


def _workload_seconds(workload: Workload) -> tuple[float, bool]:
    """(the timed seconds of one sweep of the workload, whether some of its steps are untimed)."""
    if workload.ibench is not None:
        plans = [plan(name, workload.ibench.params) for name in workload.ibench.steps]
        timed = sum(step.seconds for step in plans if step.seconds is not None)
        return timed, any(step.seconds is None for step in plans)
    sweep = workload.sweep
    levels = len(sweep.threads)
    return sweep.warmup_seconds + levels * sweep.step_seconds + levels * sweep.sleep_seconds, False


def estimate(campaign: Campaign) -> Estimate:
    """The campaign's timed seconds over all its passes, servers and variants."""
    cells = len(campaign.servers) * len(campaign.variants)
    per_cell, untimed = 0.0, []
    for workload in campaign.workloads:
        seconds, open_ended = _workload_seconds(workload)
        per_cell += seconds
        if open_ended:
            untimed.append(workload.label)
    return Estimate(per_cell * cells * campaign.repeats, cells, campaign.repeats, untimed)


def duration_text(seconds: float) -> str:
    """'2 h 48 min', '14 min', '40 s'."""
    minutes = round(seconds / SECONDS_PER_MINUTE)
    if minutes < 1:
        return f"{round(seconds)} s"
    hours, minutes = divmod(minutes, MINUTES_PER_HOUR)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "es" if noun.endswith("s") else "s")


def estimate_lines(campaign: Campaign) -> list[str]:
    """What `campaign new` prints of the campaign's length and of its repeats."""
    found = estimate(campaign)
    lines = [
        (
            f"measured steps: about {duration_text(found.seconds)} ({_counted(found.passes, 'pass')}"
            f" of {_counted(found.cells, 'server variant')}, warm-ups and pauses included); loading"
            " data and waiting for the checkpoint before each step add to it"
        )
    ]
    if found.untimed:
        lines.append(
            f"not counted: the steps of {', '.join(found.untimed)} that end when their rows are"
            " written"
        )
    if found.passes == 1:
        lines.append(
            "1 pass: a ratio's interval then comes from per-second samples, which do not measure"
            " the noise between runs (another start, another datadir copy); --repeats 3 or more"
            " does"
        )
    elif found.passes < ENOUGH_PASSES:
        lines.append(
            f"{found.passes} passes: a ratio's interval comes from {found.passes} runs a side, on"
            " so few degrees of freedom that only large differences can be told from noise"
            f" (cells read 'within noise'); --repeats {ENOUGH_PASSES} or more narrows it"
        )
    return lines
