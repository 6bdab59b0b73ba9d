"""How a run went, for its page's "How the run went" section (layouts/_partials/run/sequence.html):
which server start it ran on and after which runs (analysis/server_starts.py), what data that
start began from, and before each step whether the harness waited for write debt to settle and
what the wait found (harness/run/settle.py).

A run that ran second on its start inherited what the first left: its buffer pool, its write
debt. The page says so, with links, so a reader does not take it for a fresh start.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, any_steps, is_ibench
from contract.fields import data_origin_method, pass_index
from generator.analysis.server_starts import server_starts
from generator.pages.profiles import step_label

# What a server start began from, by workload.data_origin.method (None: no data_origin); only
# a server mybench did not start has its data prepared in place.
STARTED_ON = {
    "restored": "the server was started on a copy of the loaded data",
    "prepared": "the data was loaded in place on a server mybench did not start",
    None: "the server was started for it, on data its workload created",
}


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = (
        "th"
        if number % 100 in (11, 12, 13)
        else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _link(run: RunDocument) -> dict[str, str]:
    return {"id": run["id"], "workload": run["workload"]["name"]}


def _runs_of_start(run: RunDocument, start: list[RunDocument]) -> tuple[int, list[RunDocument]]:
    """The run's position on its server start (1 for the first) and the start's runs in the
    order they ran."""
    shared = server_starts([run, *(other for other in start if other["id"] != run["id"])])
    mine = shared[run["id"]]
    by_id = {other["id"]: other for other in start} | {run["id"]: run}
    return mine["position"], [by_id[run_id] for run_id in mine["runs"]]


def earlier_runs(run: RunDocument, start: list[RunDocument]) -> list[RunDocument]:
    """The runs that ran before this one on its server start, in order. start: the runs that
    may share it (its own included; those of other starts are ignored)."""
    position, runs = _runs_of_start(run, start)
    return runs[: position - 1]


def run_sequence(run: RunDocument, start: list[RunDocument]) -> dict[str, Any]:
    """The section's facts. start: as for earlier_runs."""
    position, runs = _runs_of_start(run, start)
    method = data_origin_method(run)
    steps = any_steps(run)
    # a run recorded before the harness settled before every step waited before its first one
    settles = [
        step["settle"] if "settle" in step else run.get("settle") if index == 0 else None
        for index, step in enumerate(steps)
    ]
    return {
        "position": ordinal(position),
        "count": len(runs),
        "before": [_link(other) for other in runs[: position - 1]],
        "after": [_link(other) for other in runs[position:]],
        "started_on": STARTED_ON[method],
        "steps": [
            {"label": step_label(step), "settle": settle}
            for step, settle in zip(steps, settles, strict=True)
        ],
        "settled": any(settle is not None for settle in settles),
        "own_waits": is_ibench(run),  # the Insert Benchmark's waits are its report's
    }


def campaign_starts(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """The server starts of a campaign that ran more than one run, for its page: variant, pass,
    what the start began from and the workloads in the order they ran on it; a start of one
    run is the usual case and goes unsaid."""
    by_id = {run["id"]: run for run in runs}
    seen: set[tuple[str, ...]] = set()
    starts = []
    for start in server_starts(runs).values():
        ids = tuple(start["runs"])
        if len(ids) < 2 or ids in seen:
            continue
        seen.add(ids)
        first = by_id[ids[0]]
        starts.append({
            "variant": first["variant"],
            "pass": pass_index(first),
            "started_on": STARTED_ON[data_origin_method(first)],
            "runs": [_link(by_id[run_id]) for run_id in ids],
        })  # fmt: skip
    return sorted(starts, key=lambda start: (start["pass"] or 0, start["variant"]))
