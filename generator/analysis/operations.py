"""How many operations a step's costs are divided by: the count behind its per_op.op.

The harness divides a step's counters by the operations per_op names (sysbench transactions,
the Insert Benchmark's inserted rows, indexed rows or queries); a figure derived later per
operation (CPU from the per-second samples, waits from the status counters) is divided by the
same count, so it reads beside the recorded ones.
"""

from __future__ import annotations

from contract import RecordedStep
from contract.fields import StepFigure, step_figure

# per_op.op -> the step field that counts those operations
COUNT_FIELD: dict[str, StepFigure] = {
    "transaction": "events",
    "query": "queries",
    "insert": "inserts",
    "indexed_row": "rows",
}


def step_operation(step: RecordedStep) -> str | None:
    """The operation a step is measured per: its per_op.op, or a transaction for a sysbench
    step that recorded no per_op (imported runs); None for a step with neither (flush)."""
    per_op = step.get("per_op")
    if per_op is not None:
        return str(per_op["op"])
    return "transaction" if "events" in step else None


def operation_count(step: RecordedStep) -> int | None:
    """The number of step_operation the step did; None when it did none or names none."""
    op = step_operation(step)
    field = COUNT_FIELD.get(op) if op is not None else None
    count = step_figure(step, field) if field is not None else None
    return int(count) if count is not None and count > 0 else None
