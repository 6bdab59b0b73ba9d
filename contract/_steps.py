"""A run's steps as the type the schema's step-type condition gives them (a summary table's
origin, then workload.tool).

Type narrowing only: they return run["steps"] itself and check nothing at run time, so a caller
must know the tool already (a report that only sees sysbench runs, or only ibench runs).
"""

from __future__ import annotations

from typing import cast

from contract._run_document import (
    AnyStep,
    IbenchStep,
    RecordedStep,
    RunDocument,
    Step,
    SummaryStep,
)
from contract.fields import origin_kind


def is_ibench(run: RunDocument) -> bool:
    """Whether the run's steps are Insert Benchmark steps rather than thread levels."""
    return run["workload"]["tool"] == "ibench"


def sysbench_steps(run: RunDocument) -> list[Step]:
    """The steps of a run of any tool but ibench: one per thread level."""
    return cast("list[Step]", run["steps"])


def any_steps(run: RunDocument) -> list[AnyStep]:
    """The steps of any run, of whichever kind: a reader narrows each with `in` (a step with
    "threads" is not an IbenchStep, one with "settle" a Step)."""
    return cast("list[AnyStep]", run["steps"])


def threads_label(threads: int) -> str:
    """A thread level as pages and charts name it: '1 thread', '16 threads'."""
    return f"{threads} thread" if threads == 1 else f"{threads} threads"


def level_steps(run: RunDocument) -> list[Step | SummaryStep]:
    """The thread levels of a run of any tool but ibench, a published table's included: any
    figure of such a step may be absent (contract.fields.step_figure)."""
    return cast("list[Step | SummaryStep]", run["steps"])


def ibench_steps(run: RunDocument) -> list[IbenchStep]:
    """The steps of an Insert Benchmark run: one per named step (l.i0, l.x, ...)."""
    return cast("list[IbenchStep]", run["steps"])


def recorded_steps(run: RunDocument) -> list[RecordedStep]:
    """The steps of a run that recorded more than published figures (counters, series,
    samples): every step but a summary table's, which holds none of them."""
    if origin_kind(run) == "summary-table":
        return []
    return cast("list[RecordedStep]", run["steps"])
