"""The site's one number format, for every table cell and list figure.

Thousands separators, and decimals by magnitude: none from 100 up (and none for a whole
number), 1 from 10, 2 from 1, and two significant digits below 1 (0.50, 0.034, at most 6
decimals); an absent number is an em dash. Rounding is Hugo's lang.FormatNumber's: the number
times 10^decimals to the nearest whole in floating point, ties away from zero (480.5 gives 481,
3.885 gives 3.89 since 388.5 is the nearest double to 3.885 * 100, 1.005 gives 1.00). The
templates print numbers with layouts/_partials/helpers/num.html and the browser with
site/assets/js/format.js, both by this rule: tests/site/test_number_format.py checks the
templates' against this module, tests/browser/test_number_format.py the browser's.
"""

from __future__ import annotations

import math

MISSING = "\u2014"  # an em dash
MAX_DECIMALS = 6


def decimals(value: float) -> int:
    """How many decimals format_number shows for value."""
    size = abs(value)
    if value == int(value) or size >= 100:
        return 0
    if size >= 10:
        return 1
    places = 2
    while size < 0.1 and places < MAX_DECIMALS:
        size *= 10
        places += 1
    return places


def rounded(value: float, places: int) -> float:
    """value to places decimals as Hugo rounds it (Go's math.Round of value * 10^places)."""
    scale = 10.0**places
    scaled = value * scale
    whole = math.trunc(scaled)
    if abs(scaled - whole) >= 0.5:
        whole += 1 if scaled > 0 else -1
    return whole / scale


def format_fixed(value: float, places: int) -> str:
    """value with thousands separators and places decimals, as Hugo's lang.FormatNumber."""
    return f"{rounded(value, places):,.{places}f}"


def format_number(value: float | None) -> str:
    """1,234,567 / 2,089,594 / 45.3 / 3.14 / 0.50 / 0.034, or an em dash for None."""
    if value is None:
        return MISSING
    return format_fixed(value, decimals(value))
