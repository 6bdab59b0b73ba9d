"""Per-second counters kept by each worker process and merged by the parent.

A worker records every operation (rows or queries done, response time); the counters keep, per
1-s interval since the step's start, the operations done and the largest response time, plus
a response-time histogram with the reference's buckets and the retries. `to_json` is what a
worker sends back; `merge` adds up the workers of one role.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import TypedDict

# Upper bounds (µs) of the reference's buckets: <=256 µs, 1 ms, 4 ms, 16 ms, 64 ms, 256 ms,
# 1 s, 4 s, 16 s; a last bucket counts what is slower than 16 s.
BUCKETS_US = (256, 1_000, 4_000, 16_000, 64_000, 256_000, 1_000_000, 4_000_000, 16_000_000)


class CountersJson(TypedDict):
    """Counters as a worker sends them to the parent."""

    ops: list[int]
    max_us: list[float]
    histogram: list[int]
    calls: int
    total: int
    max_response_us: float
    sum_response_us: float
    retries: int
    fetched: int


@dataclass
class Counters:
    ops: list[int] = field(default_factory=list)  # per second: rows (or queries) done
    max_us: list[float] = field(default_factory=list)  # per second: largest response time
    histogram: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS_US) + 1))
    calls: int = 0  # statements (a batch of rows is one call)
    total: int = 0  # rows or queries
    max_response_us: float = 0.0
    sum_response_us: float = 0.0
    retries: int = 0
    fetched: int = 0  # rows returned (queries)

    def record(self, second: float, count: int, response_us: float, fetched: int = 0) -> None:
        index = max(0, int(second))
        if index >= len(self.ops):
            grow = index + 1 - len(self.ops)
            self.ops.extend([0] * grow)
            self.max_us.extend([0.0] * grow)
        self.ops[index] += count
        self.max_us[index] = max(self.max_us[index], response_us)
        self.histogram[bisect.bisect_left(BUCKETS_US, response_us)] += 1
        self.calls += 1
        self.total += count
        self.fetched += fetched
        self.sum_response_us += response_us
        self.max_response_us = max(self.max_response_us, response_us)

    def to_json(self) -> CountersJson:
        return {
            "ops": self.ops,
            "max_us": self.max_us,
            "histogram": self.histogram,
            "calls": self.calls,
            "total": self.total,
            "max_response_us": self.max_response_us,
            "sum_response_us": self.sum_response_us,
            "retries": self.retries,
            "fetched": self.fetched,
        }

    @classmethod
    def from_json(cls, data: CountersJson) -> Counters:
        return cls(**data)


def merge(parts: list[Counters]) -> Counters:
    """One role's counters over all clients: sums, and the max of the maxima."""
    merged = Counters()
    length = max((len(part.ops) for part in parts), default=0)
    merged.ops = [0] * length
    merged.max_us = [0.0] * length
    for part in parts:
        for index, (count, worst) in enumerate(zip(part.ops, part.max_us, strict=True)):
            merged.ops[index] += count
            merged.max_us[index] = max(merged.max_us[index], worst)
        merged.histogram = [a + b for a, b in zip(merged.histogram, part.histogram, strict=True)]
        merged.calls += part.calls
        merged.total += part.total
        merged.fetched += part.fetched
        merged.retries += part.retries
        merged.sum_response_us += part.sum_response_us
        merged.max_response_us = max(merged.max_response_us, part.max_response_us)
    return merged
