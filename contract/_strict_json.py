"""Parse run files as strict JSON, with errors that point at the place to fix.

Python's json module accepts NaN, Infinity and -Infinity (JSON has none of them) and turns a
number too large for a double (1e999) into inf. Such a value passes a `minimum` check (every
comparison with NaN is false), breaks Hugo and the browser, and is refused here with its JSON
path instead. Syntax errors name the line and column, encoding errors the line.
"""

from __future__ import annotations

import json
import math

from contract._json_paths import children

# (JSON path, message); the path is $ when the file as a whole is not JSON.
JsonProblem = tuple[str, str]


class _NonFinite:
    """Stands in for NaN/Infinity while parsing, so that its JSON path can be found after."""

    def __init__(self, text: str) -> None:
        self.text = text


def _non_finite_paths(value: object, path: str = "$") -> list[JsonProblem]:
    if isinstance(value, _NonFinite):
        return [(path, f"{value.text} is not a finite number (JSON has none)")]
    return [
        problem
        for where, item in children(value, path)
        for problem in _non_finite_paths(item, where)
    ]


def parse_strict(raw: bytes) -> tuple[object, list[JsonProblem]]:
    """The parsed value, or problems naming where the bytes are not strict UTF-8 JSON."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return None, [("$", f"not UTF-8: byte 0x{raw[exc.start]:02x} on line {line}")]
    found: list[_NonFinite] = []

    def non_finite(token: str) -> object:
        found.append(_NonFinite(token))
        return found[-1]

    def finite_float(token: str) -> object:
        number = float(token)
        return number if math.isfinite(number) else non_finite(token)

    try:
        value = json.loads(text, parse_constant=non_finite, parse_float=finite_float)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        return None, [("$", f"not JSON: {exc.msg} at {where}")]
    if found:
        return None, _non_finite_paths(value)
    return value, []
