"""Refuse runs whose different values would share one taxonomy page.

The schema keeps path characters out of host labels, hostnames and versions; what remains is
case: Hugo lowercases a term's path, so hosts "DB1" and "db1" would silently become one page,
/hosts/db1/, titled after whichever Hugo met first. Two such runs are refused, naming both files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import contract
from generator.analysis.hosts import host_of

# Taxonomy (as in site/hugo.toml and content/runs/_content.gotmpl) -> (JSON path, the run's term).
TERMS: dict[str, tuple[str, Callable[[contract.RunDocument], str]]] = {
    "hosts": ("$.host", lambda run: host_of(run)["name"]),
    "versions": (
        "$.server.version",
        lambda run: " ".join(run["server"][k] for k in ("product", "version")),
    ),
}


def run_terms(run: contract.RunDocument) -> dict[str, str]:
    """Taxonomy -> the run's term in it."""
    return {taxonomy: term_of(run) for taxonomy, (_, term_of) in TERMS.items()}


def shared_term_pages(runs: Sequence[tuple[Path, dict[str, str]]]) -> list[contract.Problem]:
    """A problem for each run (its file, its run_terms) whose term differs from an earlier
    run's only by case."""
    problems = []
    for taxonomy, (json_path, _) in TERMS.items():
        first: dict[str, tuple[str, Path]] = {}  # lowercased term -> first spelling, its file
        for path, terms in runs:
            term = terms[taxonomy]
            spelling, other = first.setdefault(term.lower(), (term, path))
            if spelling != term:
                why = (
                    f"{term!r} and {spelling!r} ({other}) would share the page under /{taxonomy}/"
                )
                problems.append(contract.Problem(str(path), json_path, why))
    return problems
