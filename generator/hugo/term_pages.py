"""Refuse runs whose taxonomy terms cannot name a page, or whose different terms would share one.

Hugo derives a term's page, /<taxonomy>/<segment>/, from the term itself; contract.page_segment
computes that segment and refuses a term that cannot be one (a path separator, a list page's
name, a spelling Unicode folds to another, over the length limit ...). Two runs whose different
terms have one segment, such as hosts "Lab (1)" and "lab 1", or "İ" and "i", would silently
share one page titled after whichever Hugo met first: they are refused, naming both files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import contract
from generator.pages.run_terms import TERMS

# What to do about a term that cannot name a page, where the user chooses it.
HINTS = {"hosts": "; a label names the host instead ([host] label, --host-label, host.label)"}


def term_problems(runs: Sequence[tuple[Path, dict[str, str]]]) -> list[contract.Problem]:
    """A problem for each run (its file, its run_terms.run_terms) whose term cannot name a
    page, or names the page of an earlier run's different term."""
    problems = []
    for taxonomy, (json_path, _) in TERMS.items():
        # an archive has many runs but few distinct terms: each is mapped once
        segments = dict(map(_segment, {terms[taxonomy] for _, terms in runs}))
        first: dict[str, tuple[str, Path]] = {}  # segment -> first term, its file
        for path, terms in runs:
            term = terms[taxonomy]
            segment = segments[term]
            if isinstance(segment, contract.PageNameError):
                why = f"cannot name a page under /{taxonomy}/: {segment}{HINTS.get(taxonomy, '')}"
                problems.append(contract.Problem(str(path), json_path, why))
                continue
            spelling, other = first.setdefault(segment, (term, path))
            if spelling != term:
                why = (
                    f"{term!r} and {spelling!r} ({other}) would share the page "
                    f"/{taxonomy}/{segment}/"
                )
                problems.append(contract.Problem(str(path), json_path, why))
    return problems


def _segment(term: str) -> tuple[str, str | contract.PageNameError]:
    """The term and its segment, or why it has none."""
    try:
        return term, contract.page_segment(term)
    except contract.PageNameError as refused:
        return term, refused
