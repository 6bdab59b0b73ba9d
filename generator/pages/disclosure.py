"""The disclosure box of run and campaign pages: everything a reader needs to judge a number
before reading it. Server options that are not at their build's compiled default (set in my.cnf
or derived by the server from one that is), data size against the buffer pool, repeats, the
warm-up cut, the storage under the datadir as fio measured it (pages/storage.py) and the
flagged steps: every flag of the steps' verdicts
(generator/analysis/verdict.py), whatever its kind, counted by kind. A campaign's box lists its
runs as one compact table (workload and variant by pass), each run linked and marked with its
flagged steps by kind, rather than a line of run ids."""

from __future__ import annotations

from typing import Any

from contract import RunDocument
from contract.fields import pass_count
from generator.analysis import stats as _stats
from generator.analysis.ratios import latest_by_variant
from generator.analysis.repeats import group_by_cell, pass_list, repeat_index
from generator.analysis.verdict import FLAG_KINDS, flag_counts
from generator.pages.step_flags import flag_summary, legend
from generator.pages.storage import campaign_storage, run_storage


def non_defaults(run: RunDocument) -> list[dict[str, Any]] | None:
    """Variables off their compiled default; None when the defaults were not probed (an
    existing server, or a run recorded before the harness probed them)."""
    compiled = run["server"].get("compiled_defaults")
    if compiled is None:
        return None
    in_mycnf = set(run["server"].get("my_cnf_options", {}))
    variables = run["server"]["variables"]
    return [
        {
            "name": name,
            "value": variables.get(name),
            "default": default,
            "set_in_mycnf": name in in_mycnf,
        }
        for name, default in sorted(compiled["differences"].items())
    ]


def _where(entries: list[dict[str, Any]]) -> str:
    """Where flagged steps are, as the run table's tooltips and the run box say it: "1, 4
    threads" for thread levels, "l.i1, qp100" for Insert Benchmark steps."""
    threads = [str(entry["threads"]) for entry in entries if "threads" in entry]
    steps = [entry["step"] for entry in entries if "step" in entry]
    parts = [", ".join(steps)] if steps else []
    if threads:
        parts.append(f"{', '.join(threads)} thread{'' if threads == ['1'] else 's'}")
    return "; ".join(parts)


def _client_judged(trust: list[dict[str, Any]]) -> bool:
    """Whether any step recorded its client's CPU (the Insert Benchmark's steps do not)."""
    return any(entry["client"] for entry in trust)


def _flagged(trust: list[dict[str, Any]]) -> dict[str, Any]:
    """The run's flagged steps: the summary line (step_flags.flag_summary) and, per kind, the
    thread levels (or Insert Benchmark steps) that carry it, in words."""
    summary = flag_summary([entry["flags"] for entry in trust])
    for kind in summary["kinds"]:
        kind["at"] = _where([e for e in trust if kind["kind"] in {f["kind"] for f in e["flags"]}])
    return summary


def run_disclosure(
    run: RunDocument, trust: list[dict[str, Any]], memory: dict[str, Any] | None
) -> dict[str, Any]:
    """trust: the run's step trust (generator/analysis/trust.py); memory: its memory_fit, which
    the run page's summary shows too."""
    return {
        "non_defaults": non_defaults(run),
        "memory": memory,
        "repeat": run.get("repeat"),
        "trim_s": sorted({entry["trim_s"] for entry in trust}),
        "trim_rule": run["workload"].get("trim_seconds") is None,
        "steps": len(trust),
        "client_judged": _client_judged(trust),
        "flags": _flagged(trust),
        "storage": run_storage(run),
    }


def campaign_disclosure(
    runs: list[RunDocument], variants: list[str], trust: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """Per variant its non-default options (any of its runs: they share the my.cnf), and per
    run that has flagged steps, which ones; trust: step trust by run id."""
    # the run the config diff shows for the variant, so both describe the same one
    latest = latest_by_variant(runs)
    by_variant = {variant: non_defaults(latest[variant]) for variant in variants}
    names = sorted({entry["name"] for entries in by_variant.values() for entry in entries or []})
    flagged = []
    for run in sorted(runs, key=lambda run: run["id"]):
        flags = _flagged(trust[run["id"]])
        if flags["flagged"]:
            flagged.append({"id": run["id"], **flags})
    every_step = [entry["flags"] for run in runs for entry in trust[run["id"]]]
    counts = flag_counts(every_step)
    return {
        # Imported runs without per-second samples: no steady-state or client verdict.
        "unjudged_runs": sum(1 for run in runs if "origin" in run and not trust[run["id"]]),
        "not_recorded": [v for v in variants if "variables" not in latest[v]["server"]],
        "run_table": run_table(runs, variants, trust),
        "options": [
            {
                "name": name,
                "cells": [_cell(by_variant[variant], name) for variant in variants],
            }
            for name in names
        ],
        "probed": all(entries is not None for entries in by_variant.values()),
        "repeats": max((pass_count(run) for run in runs), default=1),
        "trim_rule": _stats.TRIM_RULE,
        "steps": len(every_step),
        "client_judged": any(_client_judged(trust[run["id"]]) for run in runs),
        "flags": flag_summary(every_step),
        "flag_kinds": legend(),  # the labels a `value` mark names its cell's flags by
        "flagged_runs": flagged,
        # every kind, 0 included, so an article's `fact` of a kind's count always resolves
        "flag_counts": {kind: counts.get(kind, 0) for kind in FLAG_KINDS},
        # two kinds' counts under the names published articles cite them by (`fact`)
        "unstable_steps": counts.get("unsteady", 0),
        "client_bound_steps": counts.get("client", 0),
        "storage": campaign_storage(runs),
    }


def _cell(entries: list[dict[str, Any]] | None, name: str) -> dict[str, Any] | None:
    """A variant's value of an option that some variant moved off its default; None when
    this variant keeps the default (or was not probed)."""
    for entry in entries or []:
        if entry["name"] == name:
            return entry
    return None


def run_table(
    runs: list[RunDocument], variants: list[str], trust: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """Every run of a campaign: per workload, a row per variant and a column per pass, each
    cell the pass's runs (a re-run beside the run it replaced) with their flagged steps."""
    passes = sorted({repeat_index(run) for run in runs})
    cells = group_by_cell(runs)
    by_id = {run["id"]: run for run in runs}
    workloads = []
    for workload in sorted({name for _, _, name in cells}):
        rows = []
        for variant in variants:
            cell = cells.get((runs[0]["campaign"]["id"], variant, workload))
            if cell is None:
                continue
            entries = [
                {**entry, "flags": _flagged(trust.get(entry["id"], []))}
                for entry in pass_list(cell)
            ]
            rows.append(
                {
                    "variant": variant,
                    "passes": [
                        [e for e in entries if repeat_index(by_id[e["id"]]) == index]
                        for index in passes
                    ],
                }
            )
        workloads.append({"name": workload, "rows": rows})
    return {
        "passes": passes,
        "repeated": any("repeat" in run for run in runs),
        "runs": len(runs),
        "rows": sum(len(workload["rows"]) for workload in workloads),
        "workloads": workloads,
    }
