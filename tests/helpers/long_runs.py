"""Run documents at the size the schema allows: a sweep of thousands of thread levels, and a step
sampled for more than a day. Real fixture runs stretched, still valid; shared by the generator,
site and browser tests of size limits."""

from __future__ import annotations

import copy
import json
import math
from datetime import datetime, timedelta
from pathlib import Path

from tests.helpers.paths import FIXTURE_RUNS

SOURCE = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"
MANY_STEPS = 2000  # thread levels 1 .. 2000
LONG_SERIES = 100_000  # seconds in one step, per-second samples
# One stall in the long step: the downsampled chart must still show it.
STALL_SECOND = 61_234
CAMPAIGN = "long-runs-20261123-133014"
# The longest option value the schema allows, set differently in the two runs so that it is a
# varied option (the kind /browse/ lists).
LONG_VALUE = "a" * 65_535


def _wave(count: int, base: float) -> list[float]:
    """A slow wave with a stall (0) at STALL_SECOND, so shape and extremes can be checked."""
    values = [round(base * (1 + 0.2 * math.sin(t / 5000)), 2) for t in range(count)]
    if count > STALL_SECOND:
        values[STALL_SECOND] = 0.0
    return values


def _stretched_step(step: dict, threads: int, seconds: int, offset: int = 0) -> dict:
    """step at threads for seconds, starting offset seconds after the original."""
    step = copy.deepcopy(step)
    started = datetime.fromisoformat(step["started_at"]) + timedelta(seconds=offset)
    step["started_at"] = started.strftime("%Y-%m-%dT%H:%M:%SZ")
    step["threads"] = threads
    step["duration_s"] = float(seconds)
    step["series"] = {
        name: [float(t + 1) for t in range(seconds)] if name == "t" else _wave(seconds, 100.0)
        for name in step["series"]
    }
    monitor = step["monitor"]["series"]
    step["monitor"]["series"] = {
        name: [float(t) for t in range(seconds)] if name == "t" else _wave(seconds, 50.0)
        for name in monitor
    }
    return step


def _source() -> dict:
    return json.loads((FIXTURE_RUNS / "runs" / f"{SOURCE}.json").read_text())


def many_steps_run() -> dict:
    """MANY_STEPS thread levels of the source's first step, each with its 30 s series."""
    doc = _source()
    doc["id"] = f"{SOURCE}.many-steps"
    doc["campaign"] = {**doc["campaign"], "id": CAMPAIGN, "variant_order": ["binlog-off", "long"]}
    doc["server"]["my_cnf_options"]["optimizer_switch"] = LONG_VALUE + "1"
    first = doc["steps"][0]
    doc["steps"] = [
        _stretched_step(first, level, 30, offset=31 * level) for level in range(1, MANY_STEPS + 1)
    ]
    return doc


def long_series_run() -> dict:
    """Two thread levels; the second ran LONG_SERIES seconds, sampled every second."""
    doc = _source()
    doc["id"] = f"{SOURCE}.long-series"
    doc["campaign"] = {**doc["campaign"], "id": CAMPAIGN, "variant_order": ["binlog-off", "long"]}
    doc["variant"] = "long"
    doc["server"]["my_cnf_options"]["optimizer_switch"] = LONG_VALUE + "2"
    first, second = doc["steps"][:2]
    doc["steps"] = [
        _stretched_step(first, first["threads"], 30),
        _stretched_step(second, second["threads"], LONG_SERIES),
    ]
    return doc


def long_data(root: Path) -> Path:
    """A data dir holding many_steps_run and long_series_run, two variants of one campaign."""
    runs_dir = root / "data" / "runs"
    runs_dir.mkdir(parents=True)
    for doc in (many_steps_run(), long_series_run()):
        (runs_dir / f"{doc['id']}.json").write_text(json.dumps(doc))
    return runs_dir.parent
