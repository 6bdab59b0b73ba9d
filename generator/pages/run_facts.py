"""The facts a run page states beside its numbers (in its page file, pages/run_page.py): its
host, buffer pool fit, the runs of its campaign cell (repeat passes and re-runs), each step's
trust (with its verdict's flags), the flag kinds the step table's legend explains, the
disclosure box, the server's build origin, the code that measured it, the my.cnf options the
harness replaced, the headline figure lists show for it, and the plain settings an earlier
harness recorded as redacted."""

from __future__ import annotations

from typing import Any

from contract import REDACTED, RunDocument, is_secret_name
from generator.analysis.build_origin import build_of
from generator.analysis.hosts import host_of
from generator.analysis.memory import memory_fit
from generator.analysis.repeats import pass_list
from generator.pages.disclosure import run_disclosure
from generator.pages.origin import origin_facts
from generator.pages.overrides import harness_overrides
from generator.pages.page_files import RunFacts
from generator.pages.provenance import provenance_facts
from generator.pages.run_label import run_headline
from generator.pages.step_flags import legend


def run_facts(run: RunDocument, cell: list[RunDocument], trust: list[dict[str, Any]]) -> RunFacts:
    """cell: every run of the run's campaign cell (analysis.repeats.group_by_cell); trust: the
    run's step trust (analysis.trust.run_trust)."""
    memory = memory_fit(run)
    return {
        "host": host_of(run),
        "memory": memory,
        "passes": pass_list(cell),
        "trust": trust,
        "flag_kinds": legend(),
        "disclosure": run_disclosure(run, trust, memory),
        "build": build_of(run),
        "provenance": provenance_facts(run),
        "headline": run_headline(run),
        "redacted_plain": redacted_plain_settings(run),
        "overrides": harness_overrides(run),
        "origin": origin_facts(run),
    }


def redacted_plain_settings(run: RunDocument) -> list[str]:
    """Variables recorded as <redacted> that hold no credential (secure_auth,
    disconnect_on_expired_password): an earlier harness's rule was broader than the secret rule
    (contract/_secrets.py), and the page says so instead of calling them secrets."""
    return sorted(
        name
        for name, value in run["server"].get("variables", {}).items()
        if value == REDACTED and not is_secret_name(name)
    )
