"""A run's steps by the type workload.tool gives them (the schema's if/then/else on steps)."""

from __future__ import annotations

from typing import cast

from contract._run_document import IbenchStep, RunDocument, Step

IBENCH_TOOL = "ibench"


def sysbench_steps(run: RunDocument) -> list[Step]:
    """The steps of a run of any tool but ibench: one per thread level."""
    if run["workload"]["tool"] == IBENCH_TOOL:
        raise ValueError(f"{run['id']}: an ibench run has no sysbench steps")
    return cast("list[Step]", run["steps"])


def ibench_steps(run: RunDocument) -> list[IbenchStep]:
    """The steps of an Insert Benchmark run: one per named step (l.i0, l.x, ...)."""
    if run["workload"]["tool"] != IBENCH_TOOL:
        raise ValueError(f"{run['id']}: only an ibench run has ibench steps")
    return cast("list[IbenchStep]", run["steps"])
