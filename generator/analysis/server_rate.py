"""The rate at which the server wrote rows during a step, from its own counter: what a client's
rate is checked against.

A client counts the rows it sent over the time it measured; if the client is slow to build or
send statements, its rate is the client's. The server's Handler_write counter, sampled every
second (harness/measure/sampler.py series handler_writes_per_s), says how fast the server
actually wrote while it was writing. Of the seconds with writes, the first and the last cover
only part of a second of work and are left out; the rate is the mean of the rest. Fewer than
MIN_SECONDS such seconds give no rate: a step that short is better read from its totals.
"""

from __future__ import annotations

import statistics

from contract import RecordedStep
from contract.fields import monitor_series

SERIES = "handler_writes_per_s"
MIN_SECONDS = 3


def server_rows_per_s(step: RecordedStep) -> float | None:
    """Rows per second the server wrote over the step's whole seconds of writing; None when the
    step was not sampled for it or wrote for fewer than MIN_SECONDS whole seconds."""
    writes = monitor_series(step, SERIES)
    busy = [second for second, rows in enumerate(writes) if rows > 0]
    if not busy:
        return None
    whole = writes[busy[0] + 1 : busy[-1]]
    if len(whole) < MIN_SECONDS:
        return None
    return round(statistics.fmean(whole), 2)
