"""Independent derivations spread over the machine's cores, their results in submission order, so
the files written are the same bytes in the same order as a serial build. Results are yielded as
they come, so a caller that writes each one away holds a few at a time, not a build's worth.

Workers are forked: they inherit the jobs (closures over the plan: a unit parses its own
documents in the worker) instead of receiving them pickled, and send back only their results. Below MIN_JOBS, or on one
core, forking costs more than it saves and the jobs run here.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar, cast

T = TypeVar("T")
MIN_JOBS = 24  # about a second of derivations: below it a pool's start-up is not repaid
CHUNKS_PER_WORKER = 8  # small enough chunks that a slow campaign does not leave a core idle
# Results wait in memory until their turn: chunks stay small (a run's files are ~200 kB) and
# only IN_FLIGHT of them per worker are submitted ahead of the one being read, so a build holds
# a bounded number of results whatever the archive's size.
MAX_CHUNK = 4
IN_FLIGHT = 4

_jobs: list[Callable[[], object]] = []  # what the forked workers inherit


def _run(start: int, stop: int) -> list[object]:
    return [job() for job in _jobs[start:stop]]


def cores() -> int:
    return len(os.sched_getaffinity(0))


def in_order(jobs: list[Callable[[], T]]) -> Iterator[T]:
    """Every job's result, in the jobs' order, each as soon as it and those before it are done;
    a job's exception is raised here."""
    workers = min(cores(), len(jobs))
    if len(jobs) < MIN_JOBS or workers < 2:
        yield from (job() for job in jobs)
        return
    global _jobs
    _jobs = list(jobs)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            chunk = max(1, min(MAX_CHUNK, len(jobs) // (workers * CHUNKS_PER_WORKER)))
            waiting: deque[Future[list[object]]] = deque()
            for start in range(0, len(jobs), chunk):
                waiting.append(pool.submit(_run, start, start + chunk))
                if len(waiting) > workers * IN_FLIGHT:
                    yield from cast(list[T], waiting.popleft().result())
            while waiting:
                yield from cast(list[T], waiting.popleft().result())
    finally:
        _jobs = []
