"""Campaign comparisons as plain data: variant order, the rules of a ratio to the base variant,
ratio tables of repeat medians by thread level.

Pure functions over validated run documents; Hugo templates render what they return.

Flagged passes. A ratio cell (a variant against the base at one workload and thread level)
rests on its passes: one step of each counted run. A step may carry flags
(generator/analysis/verdict.py: unsteady, inherited debt, transient, steal, client-bound),
which say it is unfit to judge. A cell judges on its unflagged passes when each side (the
variant's and the base's) keeps enough of them: at least one, and at least half of its passes
(keeps_enough). Its value, range, interval and colour then come from those passes only. When a
side keeps too few, the cell is greyed (verdict FLAGGED, never "better" or "worse"), shows the
value over all its passes and says why (no_judgement). Every cell counts its flagged passes by
kind ("flags"), so a table shows what each number rests on. The compare page applies the same
rule (site/assets/js/compare/flags.js), on the unflagged merge the compare index carries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

from contract import RunDocument, Step, level_steps
from contract.fields import StepFigure, step_figure
from generator.analysis import stats as _stats
from generator.analysis.evidence import (
    MEASURED,
    NO_INTERVAL,
    ORDER,
    interval_reason,
    weakest,
)
from generator.analysis.repeats import spread, spread_by_threads
from generator.analysis.trust import kept_series, run_trust
from generator.analysis.verdict import flag_counts

# When a ratio is news (beyond ±5 % and outside the noise) is generator/analysis/stats.py's rule.
RATIO_DECIMALS = 2
SPREAD_DECIMALS = 3  # a spread is shown in % with one decimal
# What a cell reports for a thread level (or test) a variant did not reach.
NO_STEP = spread([])
# Printed beside a ratio so the verdict does not rest on colour alone; "noise": beyond the band
# but inside the interval, not coloured.
VERDICT_MARKERS = {"better": "\u25b2", "worse": "\u25bc", "same": "", "noise": "\u2248"}
# Beyond the band where imported evidence rules an interval out: not judged, not coloured.
UNJUDGED = "unjudged"
# Too few unflagged passes on a side to judge on (keeps_enough): greyed, never coloured.
FLAGGED = "flagged"


def keeps_enough(passes: int, flagged: int) -> bool:
    """Whether a side of a ratio with this many passes, flagged of them, may be judged on its
    unflagged ones: at least one remains, and at least half of them."""
    kept = passes - flagged
    return kept >= 1 and 2 * kept >= passes


def pass_flags(stats: dict[str, Any]) -> dict[str, Any]:
    """How many of a cell's passes (repeats.spread_by_threads with flags_of) carry flags, and
    how many carry each kind (verdict.flag_counts)."""
    flags = stats.get("flags") or []
    return {
        "passes": len(flags),
        "flagged": sum(1 for found in flags if found),
        "kinds": flag_counts(flags),
    }


def judged_stats(stats: dict[str, Any]) -> dict[str, Any] | None:
    """The stats a ratio judges a side on: all its passes when none is flagged, its unflagged
    ones when enough remain (keeps_enough), None when too few do."""
    counted = pass_flags(stats)
    if not counted["flagged"]:
        return stats
    return stats["unflagged"] if keeps_enough(counted["passes"], counted["flagged"]) else None


def why_not_judged(own: dict[str, Any], base: dict[str, Any]) -> str:
    """Why a greyed cell is not judged: which sides keep too few unflagged passes."""
    short = []
    for whose, stats in (("its", own), ("the base's", base)):
        if judged_stats(stats) is None:
            counted = pass_flags(stats)
            short.append(f"{counted['flagged']} of {whose} {counted['passes']} passes flagged")
    return "; ".join(short) + ", fewer than half unflagged"


class Metric(NamedTuple):
    label: str
    unit: str
    figure: StepFigure  # the step's figure compared
    higher_is_better: bool
    series: str  # its per-second series in step.series (for the noise of a single repeat)

    def value_of(self, step: Step) -> float | None:
        """The step's figure; None where an imported step lacks it (a summary table's cell, a
        log without percentiles): such a step does not count for the metric."""
        return step_figure(step, self.figure)


METRICS: dict[str, Metric] = {
    "tps": Metric("Transactions per second", "TPS", "tps", True, "tps"),
    "p95": Metric("95th percentile latency", "ms", "latency_ms.p95", False, "p95_ms"),
}
# Campaign pages show the two above; the compare page lets the reader pick QPS as well.
QPS_METRIC = Metric("Queries per second", "QPS", "qps.total", True, "qps")


def shown_metrics(runs: list[RunDocument]) -> list[str]:
    """The metrics a campaign workload's ratio tables show: TPS and p95; for a published table
    in QPS (as Callaghan prints his: no run gives TPS, one gives QPS), QPS instead of TPS and p95
    only when a run gives it."""
    steps = [step for run in runs for step in level_steps(run)]

    def given(figure: StepFigure) -> bool:
        return any(step_figure(step, figure) is not None for step in steps)

    if given("tps") or not given("qps.total"):
        return list(METRICS)
    return ["qps", *(["p95"] if given("latency_ms.p95") else [])]


def variant_order(runs: list[RunDocument]) -> list[str]:
    """Variants as the campaign file lists them, then any unlisted ones alphabetically. The
    hosts of a fleet share a campaign but each lists its own variants (<host>.<variant>): their
    lists follow one another, in run id order, so every host keeps the file's order."""
    present = {run["variant"] for run in runs}
    declared: list[str] = []
    for run in sorted(runs, key=lambda run: run["id"]):
        declared += [v for v in run["campaign"].get("variant_order", []) if v not in declared]
    ordered = [variant for variant in declared if variant in present]
    return ordered + sorted(present - set(ordered))


def latest_by_variant(runs: list[RunDocument]) -> dict[str, RunDocument]:
    """One run per variant, the latest one."""
    chosen: dict[str, RunDocument] = {}
    for run in sorted(runs, key=lambda run: (run["started_at"], run["id"])):
        chosen[run["variant"]] = run
    return chosen


def repeat_spread(stats: dict[str, Any]) -> float | None:
    """high / low - 1 over a cell's repeats; None when it rests on a single run."""
    if stats["repeats"] < 2 or stats["low"] <= 0:
        return None
    return float(round(stats["high"] / stats["low"] - 1, SPREAD_DECIMALS))


def ratio_state(value: float | None, ratio: float | None) -> str:
    """How a ratio cell reads: 'ratio', 'missing' (the variant has no value: "—") or 'n/a' (a
    value but no base to divide by, or a base of zero)."""
    if value is None:
        return "missing"
    return "n/a" if ratio is None else "ratio"


def summaries(stats: dict[str, Any]) -> dict[str, list[float] | None]:
    """A cell's stats (repeats.spread, with "seconds" when recorded) as stats.sample_summaries."""
    return _stats.sample_summaries(stats["values"], stats.get("seconds") or [])


def ratio_interval(
    stats: dict[str, Any], base: dict[str, Any], ratio: float
) -> dict[str, Any] | None:
    """The 95 % interval of a cell's ratio (generator/analysis/stats.py's pair_interval) around
    its unrounded value: from the repeats when both sides have two or more, else from the kept
    per-second samples when both have enough."""
    return _stats.pair_interval(summaries(base), summaries(stats), ratio)


def stat_cell(
    variant: str,
    stats: dict[str, Any],
    base: dict[str, Any] | None,
    higher_is_better: bool,
    evidence: tuple[str, str] = (MEASURED, MEASURED),
) -> dict[str, Any]:
    """One variant's cell: the median of its counted runs with their range and spread (stats
    from repeats.spread / spread_by_threads, or NO_STEP), the ratio of that median to the
    base's (base: the base variant's stats; None or stats itself for the base's own cell), its
    interval and the verdict by generator/analysis/stats.py's rule. evidence: what the cell's
    and the base's runs rest on (analysis/evidence.py); an imported side without an interval
    names why in "no_interval" and is UNJUDGED beyond the band, never coloured. Stats with
    "flags" are judged by the flagged-pass rule of the module docstring: "flags" counts them
    (pass_flags), "judged_on" says which passes the numbers rest on ("all", "unflagged"), and a
    cell with too few unflagged passes is FLAGGED, over all its passes, "no_judgement" saying
    why."""
    is_base = base is None or base is stats
    all_base = stats if base is None or is_base else base
    judged = judged_stats(stats), judged_stats(all_base)
    own, theirs = (
        (stats, all_base)
        if None in judged
        else cast(tuple[dict[str, Any], dict[str, Any]], judged)
    )
    no_judgement = None if is_base or None not in judged else why_not_judged(stats, all_base)
    value = own["median"]
    base_median = theirs["median"]
    ratio = interval = no_interval = None
    if value is not None and base_median:
        ratio = round(value / base_median, RATIO_DECIMALS)
        if not is_base:
            no_interval = interval_reason(*evidence)
            if no_interval is None:
                interval = ratio_interval(own, theirs, value / base_median)
            if interval is None:
                no_interval = NO_INTERVAL.get(min(evidence, key=ORDER.index))
    verdict = "same" if is_base else _stats.verdict(ratio, interval, higher_is_better)
    if no_interval and verdict == "noise":
        verdict = UNJUDGED
    if no_judgement and ratio is not None:
        verdict = FLAGGED
    return {
        "variant": variant,
        "value": value,
        "low": own["low"],
        "high": own["high"],
        "repeats": own["repeats"],
        "spread": repeat_spread(own),
        "ratio": ratio,
        "interval": interval,
        "state": ratio_state(value, ratio),
        "verdict": verdict,
        "marker": VERDICT_MARKERS.get(verdict, ""),
        "evidence": evidence[0],
        "no_interval": no_interval,
        "flags": pass_flags(stats),
        "judged_on": "unflagged" if own is not stats else "all",
        "no_judgement": no_judgement if ratio is not None else None,
    }


def step_flags_of(
    trust: dict[str, list[dict[str, Any]]],
) -> Callable[[RunDocument, Step], list[dict[str, Any]]]:
    """flags_of for repeats.spread_by_threads: a step's flags from its run's trust entries
    (analysis/trust.py run_trust, by run id; computed for a run missing from trust)."""

    def flags_of(run: RunDocument, step: Step) -> list[dict[str, Any]]:
        if run["id"] not in trust:
            trust[run["id"]] = run_trust(run)
        for entry in trust[run["id"]]:
            if entry.get("threads") == step["threads"]:
                return cast(list[dict[str, Any]], entry["flags"])
        return []

    return flags_of


def ratio_table(
    counted: dict[str, list[RunDocument]],
    variants: list[str],
    metric: str,
    trust: dict[str, list[dict[str, Any]]] | None = None,
    bases: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Rows by thread level; each cell holds a variant's median over its counted runs (see
    repeats.counted_runs), their range and spread, and the ratio of medians to variants[0] (or
    to bases[variant]: a fleet's host's own first variant, hosts.host_bases), judged by the
    flagged-pass rule (module docstring) on the steps' flags. trust: each run's run_trust by
    run id, where the caller has them."""
    chosen = {**METRICS, "qps": QPS_METRIC}[metric]

    def seconds_of(run: RunDocument, step: Step) -> list[float]:
        return kept_series(run, step, chosen.series)

    flags_of = step_flags_of({} if trust is None else trust)
    stats = {
        variant: spread_by_threads(counted[variant], chosen.value_of, seconds_of, flags_of)
        for variant in variants
    }
    evidence = {variant: weakest(counted[variant]) for variant in variants}
    threads = sorted({level for by_threads in stats.values() for level in by_threads})
    rows = []
    base_of = {variant: (bases or {}).get(variant, variants[0]) for variant in variants}
    for level in threads:
        cells = [
            stat_cell(
                variant,
                stats[variant].get(level, NO_STEP),
                stats[base_of[variant]].get(level, NO_STEP),
                chosen.higher_is_better,
                (evidence[variant], evidence[base_of[variant]]),
            )
            for variant in variants
        ]
        rows.append({"threads": level, "cells": cells})
    return {
        "metric": metric,
        "label": chosen.label,
        "unit": chosen.unit,
        "higher_is_better": chosen.higher_is_better,
        "base": variants[0],
        # Every base, in order: more than one when each host of a fleet is its own base.
        "bases": list(dict.fromkeys(base_of.values())),
        "base_of": base_of,
        "variants": variants,
        "most_repeats": most_repeats(rows),
        "evidence": evidence,
        "rows": rows,
    }


def most_repeats(rows: list[dict[str, Any]]) -> int:
    """The largest repeat count of any cell: above 1, tables show ranges and spreads."""
    return max((cell["repeats"] for row in rows for cell in row["cells"]), default=0)
