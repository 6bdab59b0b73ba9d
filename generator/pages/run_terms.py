"""A run's taxonomy terms (site/hugo.toml's taxonomies): what the run index gives Hugo
(run_page.run_index_entry) and what generator/hugo/term_pages.py checks, from one table so the
two cannot name different terms."""

from __future__ import annotations

from collections.abc import Callable

from contract import RunDocument
from generator.analysis.hosts import host_of
from generator.pages.run_label import product_name

# Taxonomy -> (the JSON path a problem with its term names, the run's term).
TERMS: dict[str, tuple[str, Callable[[RunDocument], str]]] = {
    "engines": ("$.server.product", product_name),
    "versions": (
        "$.server.version",
        lambda run: f"{product_name(run)} {run['server']['version']}",
    ),
    "workloads": ("$.workload.name", lambda run: run["workload"]["name"]),
    "hosts": ("$.host", lambda run: host_of(run)["name"]),
}


def run_terms(run: RunDocument) -> dict[str, str]:
    """Taxonomy -> the run's term in it."""
    return {taxonomy: term_of(run) for taxonomy, (_, term_of) in TERMS.items()}
