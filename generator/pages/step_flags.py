"""What pages say of the steps' verdicts (generator/analysis/verdict.py), in the forms they
print it: the legend of the flag kinds and the summary line of a list of steps ("3 of 6 steps
flagged: transient 3, inherited debt 2", or every step fit). Nothing here judges a step: every
count is of the flags in the trust entries (generator/analysis/trust.py)."""

from __future__ import annotations

from typing import Any

from generator.analysis.verdict import FLAG_KINDS, flag_counts


def legend() -> list[dict[str, str]]:
    """Every flag kind with its label and legend line, in FLAG_KINDS order."""
    return [
        {"kind": kind, "label": label, "line": line} for kind, (label, line) in FLAG_KINDS.items()
    ]


def kind_counts(counts: dict[str, int]) -> list[dict[str, Any]]:
    """flag_counts' {kind: n} as the templates print it: kind, label and count, in order."""
    return [{"kind": kind, "label": FLAG_KINDS[kind][0], "count": n} for kind, n in counts.items()]


def flag_summary(flag_lists: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """The summary line of steps with these flags: how many steps, how many flagged (a step
    with two kinds counts once) and the count of each kind present."""
    return {
        "steps": len(flag_lists),
        "flagged": sum(1 for flags in flag_lists if flags),
        "kinds": kind_counts(flag_counts(flag_lists)),
    }
