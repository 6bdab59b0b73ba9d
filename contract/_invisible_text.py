"""Find characters that change how text reads without being seen: bidi controls, zero-width.

A U+202E (right-to-left override) in a hostname mirrors the rest of the line it is shown on
("23.5 GiB" reads "5.32 GiB"), and in a my.cnf or a command it hides what really runs; a
zero-width space makes two hosts that look the same two taxonomy terms. No measured value needs
them, so they are refused everywhere except in free prose (a campaign's description, a status
reason), where a right-to-left script may need them and the templates isolate the text (<bdi>).
"""

from __future__ import annotations

import re

from contract._json_paths import children

# Arabic letter mark, zero-width space/non-joiner/joiner, LRM/RLM, bidi embeddings and
# overrides, word joiner and invisible operators, bidi isolates, byte order mark.
INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# The same characters as JSON escapes, to skip the walk for files that hold none (most).
_ESCAPED = re.compile(r"\\u(?:061c|200[b-f]|202[a-e]|206[0-4]|206[6-9]|feff)", re.IGNORECASE)
FREE_TEXT = frozenset({"$.campaign.description", "$.status_reason"})


def may_hold_invisible(json_text: str) -> bool:
    """False when the JSON text can hold no such character, literal or escaped."""
    return bool(INVISIBLE.search(json_text) or _ESCAPED.search(json_text))


def invisible_characters(value: object, path: str = "$") -> list[tuple[str, str]]:
    """(JSON path, message) for every string or key outside FREE_TEXT holding such a character."""
    if isinstance(value, str):
        found = INVISIBLE.search(value)
        if found is None or path in FREE_TEXT:
            return []
        return [(path, f"invisible character U+{ord(found.group()):04X} (bidi or zero-width)")]
    problems = []
    if isinstance(value, dict):  # a key is a label too (a variable or counter name)
        for key in filter(INVISIBLE.search, value):
            problems += invisible_characters(key, f"{path}.{key}")
    for where, item in children(value, path):
        problems += invisible_characters(item, where)
    return problems
