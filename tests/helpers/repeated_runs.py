"""Hand-made repeats built from a committed run, for the generator and site tests of repeats."""

from __future__ import annotations

import copy
import json
from pathlib import Path


def two_variants(runs: list[dict]) -> tuple[dict, dict]:
    """Two committed runs of one campaign and workload: the base variant's and a later one's."""
    for base in runs:
        order = base["campaign"].get("variant_order", [])
        for other in runs:
            if (
                (other["campaign"]["id"], other["workload"]["name"])
                == (base["campaign"]["id"], base["workload"]["name"])
                and {base["variant"], other["variant"]} <= set(order)
                and order.index(base["variant"]) < order.index(other["variant"])
            ):
                return base, other
    raise AssertionError("no committed campaign compares two variants on one workload")


def as_repeat(run: dict, index: int, of: int, scale: float = 1.0, **changes) -> dict:
    """A copy of `run` as pass `index` of `of`: TPS times `scale`, p95 latency divided by it,
    top-level keys replaced by `changes` (status, started_at ...)."""
    repeat = copy.deepcopy(run)
    repeat["id"] = f"{run['id']}.pass{index}"
    repeat["repeat"] = {"index": index, "of": of}
    for step in repeat["steps"]:
        step["tps"] = round(step["tps"] * scale, 2)
        step["latency_ms"]["p95"] = round(step["latency_ms"]["p95"] / scale, 3)
    repeat.update(changes)
    return repeat


def write_runs(runs: list[dict], data_dir: Path) -> list[Path]:
    """Write runs as data_dir/runs/<id>.json, the layout `mybench build --data` reads."""
    paths = []
    for run in runs:
        path = data_dir / "runs" / f"{run['id']}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(run, indent=1))
        paths.append(path)
    return paths
