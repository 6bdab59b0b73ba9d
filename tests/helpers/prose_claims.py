"""The rule that keeps trust facts out of an article's own words.

Whether a step was flagged, held steady, started with write debt or after a settled checkpoint,
and which runs shared a server start, are decided by the generator (generator/analysis/
verdict.py, server_starts.py) and shown by the `trust` shortcode. A writer who restates them
("none carried write debt", "every run started fresh", "all passes steady") writes a sentence
that was wrong when a rule flagged what the writer did not see, or goes wrong when a rule
changes, while the page beside it says otherwise.

So a clause of the article's own prose is refused when it holds both:

- a quantifier: none, no, every, each, all, neither, nothing, never, only, "not one", "but
  one", or a count (a number, in digits or words up to twelve, as in "5 of 36");
- a trust topic: flags, steadiness (steady, steady-state, stable), write debt, settling or the
  checkpoint a run waits for, transient or inherited debt, a fresh start, copy or datadir, a
  server start or restart, client-bound steps, steal.

Shortcodes, code, link targets and quotes (text in double quotes, block quotes: someone else's
words, or an earlier text of the article quoted in its history) are not the article's own
prose. A sentence about the database ("every row is updated", "none of the indexes fit") names
no trust topic and stays free.
"""

from __future__ import annotations

import re

_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_COUNT = rf"(?:\d+|{_NUMBER_WORDS})"
# A number with a unit is a length or a size, not a count of steps: "10 s steps", "256 MB".
_UNIT = r"(?!\s*(?:s|ms|seconds?|minutes?|hours?|[KMG]i?B|%|times)\b)"
_COUNTED = r"(?:steps?|runs?|pass(?:es)?|cells?|levels?|starts?|workloads?|tests?)"
QUANTIFIER = re.compile(
    r"\b(?:none|no|every|each(?!\s+other)|all|neither|nothing|never|(?<!-)only|(?<!at\s)most(?:ly)?|many"
    r"|several|half|quarter|third|majority|not\s+(?:one|a|a\s+single)|but\s+one"
    rf"|(?<!-){_COUNT}{_UNIT}\s+(?:of|(?:\w+\s+)?{_COUNTED}))\b",
    re.IGNORECASE,
)
TOPIC = re.compile(
    r"\b(?:flag(?:s|ged)?|steady|steadiness|steady-state|unsteady|stable|unstable|stability"
    r"|debt|settl\w*|transient|inherit\w*|fresh\w*|dirty\s+pages|(?:un)?judged"
    r"|(?:new|empty|own|clean|separate)\s+(?:copy|datadir|data\s+dir)"
    r"|restart\w*|server\s+starts?|start\w*\s+(?:its|the|a)\s+(?:own\s+)?server"
    r"|client-bound|steal)\b",
    re.IGNORECASE,
)
# A compiler's or a build's flags are not a step's.
_BUILD_FLAGS = re.compile(r"\b(?:compiler|compile|build)\b[^.;:]{0,20}\bflags\b", re.IGNORECASE)
_SHORTCODE = re.compile(r"\{\{[<%].*?[>%]\}\}", re.DOTALL)
_FENCED = re.compile(r"```.*?```", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`]*`")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”]*”")
_BLOCK_QUOTE = re.compile(r"^\s*>.*$", re.MULTILINE)
# A clause ends at . ; : ! ? followed by a space, at a list item, a heading or a blank line.
_CLAUSE_END = re.compile(r"(?<=[.;:!?])\s+|\n\s*\n|\n\s*(?=[*#-]\s)")


def own_prose(text: str) -> str:
    """The article's own words: no front matter, shortcodes, code, link targets or quotes."""
    body = text.split("---", 2)[2] if text.startswith("---") else text
    for pattern in (_FENCED, _SHORTCODE, _INLINE_CODE, _BLOCK_QUOTE, _QUOTED, _BUILD_FLAGS):
        body = pattern.sub(" ", body)
    return _LINK.sub(r"\1", body)


def trust_claims(text: str) -> list[str]:
    """The clauses of an article (Markdown, front matter included) that state a trust fact
    with a quantifier or a count; empty when it states none."""
    clauses = (" ".join(clause.split()) for clause in _CLAUSE_END.split(own_prose(text)))
    return [
        clause
        for clause in clauses
        if clause and QUANTIFIER.search(clause) and TOPIC.search(clause)
    ]
