"""The facts a run page states beside its numbers (data/runfacts/<run>.json): its host,
buffer pool fit, the runs of its campaign cell (repeat passes and re-runs), each step's trust,
the disclosure box, the server's build origin, the code that measured it and the my.cnf
options the harness replaced."""

from __future__ import annotations

from typing import Any

from contract import RunDocument
from generator.analysis.build_origin import build_of
from generator.analysis.hosts import host_of
from generator.analysis.memory import memory_fit
from generator.analysis.repeats import pass_list
from generator.pages.disclosure import run_disclosure
from generator.pages.overrides import harness_overrides
from generator.pages.provenance import provenance_facts


def run_facts(
    run: RunDocument, cell: list[RunDocument], trust: list[dict[str, Any]]
) -> dict[str, Any]:
    """cell: every run of the run's campaign cell (analysis.repeats.group_by_cell); trust: the
    run's step trust (analysis.trust.run_trust)."""
    return {
        "host": host_of(run),
        "memory": memory_fit(run),
        "passes": pass_list(cell),
        "trust": trust,
        "disclosure": run_disclosure(run, trust),
        "build": build_of(run),
        "provenance": provenance_facts(run),
        "overrides": harness_overrides(run),
    }
