"""The source's own arithmetic: a published table may print a ratio beside each figure (Callaghan
prints each release's QPS and its ratio to the oldest release). `mybench import table` keeps
those ratios as printed (a summary step's `printed_ratios`: value, decimals, the variant divided
by); this module divides the figures the same way and says where the printed ratio does not
follow from them.

A printed ratio agrees when the figures' ratio rounds to it at the printed precision: it lies
within half a unit of the last printed digit (0.80 printed: 0.795 to 0.805), whichever way the
source rounded. A ratio whose base step or figure is missing, or whose base figure is 0, is
counted as unchecked, never as a disagreement.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, Step, SummaryStep, is_ibench, level_steps
from contract.fields import StepFigure, printed_ratios, step_figure
from generator.analysis.hosts import host_of
from generator.pages.numbers import format_fixed, format_number
from generator.pages.origin import PRINTED_LABELS

# A printed ratio's metric -> the step's figure it divides.
FIGURES: dict[str, StepFigure] = {"qps": "qps.total", "tps": "tps", "rows_per_s": "rows_per_s"}
# Float noise in value / base (0.7 as 0.69999...): never decides a disagreement.
EPSILON = 1e-9


def printed_ratio_checks(runs: list[RunDocument]) -> dict[str, Any] | None:
    """{"checked", "agree", "unchecked", "findings": [...]} over a campaign's printed ratios,
    None when no run prints one. Each finding names the workload, variant, host, thread level
    and metric, the ratio as printed and as the figures give it at the same precision, and the
    two figures."""
    # An Insert Benchmark run has no thread levels, so no ratio is printed beside one.
    steps_of = {run["id"]: [] if is_ibench(run) else level_steps(run) for run in runs}
    steps: dict[tuple[str, str, int], Step | SummaryStep] = {
        (run["variant"], run["workload"]["name"], step["threads"]): step
        for run in runs
        for step in steps_of[run["id"]]
    }
    checked = agree = unchecked = 0
    findings = []
    for run in runs:
        for step in steps_of[run["id"]]:
            for metric, printed in printed_ratios(step).items():
                base_step = steps.get((printed["base"], run["workload"]["name"], step["threads"]))
                value = step_figure(step, FIGURES[metric])
                base = step_figure(base_step, FIGURES[metric]) if base_step is not None else None
                if value is None or not base:
                    unchecked += 1
                    continue
                checked += 1
                computed = value / base
                tolerance = 0.5 * 10.0 ** -printed["decimals"] + EPSILON
                if abs(computed - printed["value"]) <= tolerance:
                    agree += 1
                    continue
                findings.append(
                    {
                        "run": run["id"],
                        "workload": run["workload"]["name"],
                        "variant": run["variant"],
                        "host": host_of(run)["name"],
                        "threads": step["threads"],
                        "metric": PRINTED_LABELS[metric],
                        "base": printed["base"],
                        "printed": format_fixed(printed["value"], printed["decimals"]),
                        "computed": format_fixed(computed, printed["decimals"]),
                        "value": format_number(value),
                        "base_value": format_number(base),
                    }
                )
    if not checked and not unchecked:
        return None
    return {"checked": checked, "agree": agree, "unchecked": unchecked, "findings": findings}
