"""The reference's rate limit: per-second granularity, bursty.

With a target of `rate` rows/s and `batch` rows per commit, a group is ceil(rate/batch)
batches; after each group, if less than 0.95 s went by since the last check, sleep the rest of
the second. The batch is clamped to the rate so one group never exceeds a second's rows by
more than one partial batch.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

SLACK_S = 0.95


class RateLimiter:
    def __init__(
        self,
        rate: int | None,
        batch: int,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
    ):
        """rate None or 0: unlimited. sleep may return early (an Event's wait on stop)."""
        self.batch = min(batch, rate) if rate else batch
        self.rounds = math.ceil(rate / self.batch) if rate else 0
        self._clock, self._sleep = clock, sleep
        self._done = 0
        self._last = clock()

    def restart(self) -> None:
        """The start of the measured period (after the barrier)."""
        self._done = 0
        self._last = self._clock()

    def after_batch(self) -> float:
        """Call after each committed batch; returns the seconds slept."""
        if not self.rounds:
            return 0.0
        self._done += 1
        if self._done % self.rounds:
            return 0.0
        elapsed = self._clock() - self._last
        slept = 0.0
        if elapsed < SLACK_S:
            slept = 1.0 - elapsed
            self._sleep(slept)
        self._last = self._clock()
        return slept
