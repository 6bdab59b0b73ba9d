"""Parse run files as strict JSON, with errors that point at the place to fix.

Python's json module accepts NaN, Infinity and -Infinity (JSON has none of them), turns a
number too large for a double (1e999) into inf and one too near 0 (1e-400) into 0, and raises
ValueError for an integer of over 4,300 digits. Such a value passes a `minimum` check (every
comparison with NaN is false), is silently another number, or breaks Hugo and the browser; it
is refused here with its JSON path instead, as is any number written in more than
MAX_NUMBER_CHARS characters and any figure nearer to 0 than SMALLEST_FIGURE but not 0
(contract/_numbers.py says why). That last rule holds for every number of a run, so it is
checked here, on each float as it is read, rather than by the schema: a `not` on every item of
the per-second series made schema validation eight times slower. Syntax errors name the line and column,
encoding errors the line.
"""

from __future__ import annotations

import json
import math
import re

from contract._json_paths import children
from contract._numbers import MAX_NUMBER_CHARS, SMALLEST_FIGURE

# (JSON path, message); the path is $ when the file as a whole is not JSON.
JsonProblem = tuple[str, str]
_NONZERO_MANTISSA = re.compile(r"^-?[0-9.]*[1-9]")
_TINY = (
    "is nearer to 0 than 10⁻⁶ and not 0: the site shows at most 6 decimals, and a subnormal"
    " such as 5e-324 breaks the charts' arithmetic"
)


class _Unusable:
    """Stands in for a number that cannot be read as written, so that its JSON path can be
    found after parsing."""

    def __init__(self, why: str) -> None:
        self.why = why


def _unusable_paths(value: object, path: str = "$") -> list[JsonProblem]:
    if isinstance(value, _Unusable):
        return [(path, value.why)]
    return [
        problem
        for where, item in children(value, path)
        for problem in _unusable_paths(item, where)
    ]


def parse_strict(raw: bytes) -> tuple[object, list[JsonProblem]]:
    """The parsed value, or problems naming where the bytes are not strict UTF-8 JSON."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return None, [("$", f"not UTF-8: byte 0x{raw[exc.start]:02x} on line {line}")]
    found: list[_Unusable] = []

    def unusable(why: str) -> _Unusable:
        found.append(_Unusable(why))
        return found[-1]

    def too_long(token: str) -> _Unusable | None:
        if len(token) <= MAX_NUMBER_CHARS:
            return None
        return unusable(
            f"a number of {len(token):,} characters, over the limit of {MAX_NUMBER_CHARS}"
        )

    def non_finite(token: str) -> object:
        return unusable(f"{token} is not a finite number (JSON has none)")

    def finite_int(token: str) -> object:
        return too_long(token) or int(token)

    def finite_float(token: str) -> object:
        # Called for every float of a document (hundreds of thousands in per-second series):
        # the common case is two comparisons.
        if len(token) > MAX_NUMBER_CHARS:
            return too_long(token)
        number = float(token)
        if -SMALLEST_FIGURE < number < SMALLEST_FIGURE:
            if number != 0:
                return unusable(f"{token} {_TINY}")
            if _NONZERO_MANTISSA.match(token):
                return unusable(f"{token} is nearer to 0 than a double holds (it would read as 0)")
        elif not math.isfinite(number):
            return non_finite(token)
        return number

    try:
        value = json.loads(
            text, parse_constant=non_finite, parse_float=finite_float, parse_int=finite_int
        )
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        return None, [("$", f"not JSON: {exc.msg} at {where}")]
    if found:
        return None, _unusable_paths(value)
    return value, []
