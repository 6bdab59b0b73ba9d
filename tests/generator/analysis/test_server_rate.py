"""The rate the server wrote rows at, from its per-second Handler_write samples."""

from __future__ import annotations

import copy

import pytest

from contract import IbenchStep
from generator.analysis.server_rate import MIN_SECONDS, SERIES, server_rows_per_s


def _step(writes: list[float] | None) -> IbenchStep:
    step: dict = {"step": "l.i0", "kind": "load", "duration_s": 10.0, "problems": []}
    if writes is not None:
        step["monitor"] = {"interval_s": 1.0, "series": {"t": list(range(len(writes)))}}
        step["monitor"]["series"][SERIES] = writes
    return copy.deepcopy(step)  # type: ignore[return-value]


def test_the_partial_first_and_last_seconds_of_writing_are_left_out():
    # idle, a partial second, four whole ones, a partial one, idle
    assert server_rows_per_s(_step([0, 0, 300, 1000, 1100, 900, 1000, 200, 0])) == 1000.0


@pytest.mark.parametrize(
    "writes",
    [
        None,  # not sampled
        [],
        [0, 0, 0],  # no writes
        [500, *[1000] * (MIN_SECONDS - 1), 400],  # one whole second too few
    ],
)
def test_no_rate_without_enough_whole_seconds_of_writing(writes):
    assert server_rows_per_s(_step(writes)) is None
