"""The site's one number format, for every table cell and list figure.

Thousands separators, and decimals by magnitude: none from 100 up (and none for a whole
number), 1 from 10, 2 from 1, and two significant digits below 1 (0.50, 0.034, at most 6
decimals); an absent number is an em dash. Ties round to even, as Hugo's lang.FormatNumber and
Python do. The templates print numbers with layouts/_partials/helpers/num.html and the browser
with site/assets/js/format.js, both by this rule; tests/site checks they agree.
"""

from __future__ import annotations

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


def format_number(value: float | None) -> str:
    """1,234,567 / 2,089,594 / 45.3 / 3.14 / 0.50 / 0.034, or an em dash for None."""
    if value is None:
        return MISSING
    return f"{value:,.{decimals(value)}f}"
