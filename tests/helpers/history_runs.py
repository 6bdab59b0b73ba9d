"""Recurring campaigns made from a real fixture run: the same run as the passes of campaigns of
one name a day apart, each scaled to a chosen level (TPS times the scale, p95 divided by it),
every step steady. Shared by the history analysis, site and browser tests."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.helpers.paths import FIXTURE_RUNS

TEMPLATE = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"
NOISE = 0.03  # relative, one standard deviation: what a quiet host's campaigns spread by
FIRST_DAY = datetime(
    2023, 1, 1, 12, tzinfo=UTC
)  # 1,000 days end in the past: Hugo builds no future page


def template_run() -> dict:
    return json.loads((FIXTURE_RUNS / "runs" / f"{TEMPLATE}.json").read_text())


def occasion(
    template: dict,
    day: int,
    scale: float,
    host: str = "bench-1",
    passes: int = 1,
    name: str = "recurring",
) -> list[dict]:
    """The passes of campaign `name` run on day `day` (from 0) on host `host`: the template with
    every step steady at scale times its TPS (p95 divided by it)."""
    started = FIRST_DAY + timedelta(days=day)
    campaign_id = f"{name}-{started:%Y%m%d-%H%M%S}"
    runs = []
    for index in range(1, passes + 1):
        run = copy.deepcopy(template)
        run["id"] = f"{campaign_id}.base.rw.p{index}"
        run["campaign"] = {**run["campaign"], "id": campaign_id, "name": name}
        run["campaign"]["variant_order"] = ["base"]
        run["variant"] = "base"
        if passes > 1:
            run["repeat"] = {"index": index, "of": passes}
        run["started_at"] = f"{started + timedelta(minutes=index):%Y-%m-%dT%H:%M:%SZ}"
        fingerprint = hashlib.sha256(host.encode()).hexdigest()
        run["host"] = {**run["host"], "hostname": host, "label": host, "fingerprint": fingerprint}
        for step in run["steps"]:
            step["tps"] = round(step["tps"] * scale, 2)
            step["latency_ms"]["p95"] = round(step["latency_ms"]["p95"] / scale, 3)
            step["series"]["tps"] = [step["tps"]] * len(step["series"]["tps"])
            step.pop("monitor", None)  # no write-debt samples: a step is judged on its TPS alone
            step.setdefault("os", {})["cpu_steal_pct"] = 0.0
        runs.append(run)
    return runs


def recurring(
    template: dict, levels: list[float], seed: int = 7, first_day: int = 0, **options
) -> list[dict]:
    """A campaign per level, a day apart from day first_day, each within NOISE of its level."""
    rng = random.Random(seed)
    return [
        run
        for day, level in enumerate(levels, start=first_day)
        for run in occasion(template, day, level * (1 + rng.gauss(0, NOISE)), **options)
    ]


def write_data(runs: list[dict], data: Path) -> Path:
    """runs as a results directory at data."""
    (data / "runs").mkdir(parents=True, exist_ok=True)
    for run in runs:
        (data / "runs" / f"{run['id']}.json").write_text(json.dumps(run))
    return data
