"""Numbers written as text (a log, a CSV cell, a server variable, a JSON token): which text is
a number, and the range of a figure. The one definition for harness/, generator/ and contract/.

A digit is ASCII 0-9. Python is broader: str.isdigit() takes superscripts (`²`), which int()
then refuses with a traceback, and int() and float() read other scripts' digits (Arabic-Indic,
full-width), underscores (`1_000`), exponents and `nan`/`inf`. Text holding any of them is not a
number here.

A figure is 0 or at least SMALLEST_FIGURE in magnitude (strict parsing of a run file,
contract/_strict_json.py, refuses the rest): the site shows at most 6 decimals
(generator/pages/numbers.py), so a smaller one would read as 0; the harness records at most 4;
and below it lie the subnormals (`5e-324`), on which the charts' arithmetic (tick steps, scales)
underflows to 0 and divides by it. A number's text is at most MAX_NUMBER_CHARS long: a double
written in full takes 24 characters, the largest count (2**53 - 1) 16 digits, and int() refuses
more than 4,300 digits outright.
"""

from __future__ import annotations

import re

# A run's bounds: no non-zero number nearer to 0 (checked while parsing), the schema's maximum of rates,
# latencies, durations and percentages, and that of counts and sizes.
SMALLEST_FIGURE = 1e-6
LARGEST_FIGURE = 1e12
LARGEST_COUNT = 2**53 - 1
MAX_NUMBER_CHARS = 32

_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")


class NotAFigure(ValueError):
    """Text that is not a figure; the message says why, for a line naming where it was."""


def whole_number(text: str) -> int | None:
    """text's value when it is ASCII digits only and at most MAX_NUMBER_CHARS long, else None
    (a server variable such as innodb_buffer_pool_size that holds anything else is unknown)."""
    if len(text) > MAX_NUMBER_CHARS or not _WHOLE.fullmatch(text):
        return None
    return int(text)


def figure(text: str, largest: float = LARGEST_FIGURE) -> float:
    """The value of a figure written in ASCII decimal digits with an optional fraction (`12`,
    `0.5`): 0, or from SMALLEST_FIGURE to largest. Raises NotAFigure saying why not."""
    if len(text) > MAX_NUMBER_CHARS:
        raise NotAFigure(f"{len(text):,} characters, over the limit of {MAX_NUMBER_CHARS}")
    if not _DECIMAL.fullmatch(text):
        raise NotAFigure("not a decimal number in ASCII digits (such as 12 or 0.5)")
    value = float(text)
    if 0 < value < SMALLEST_FIGURE:
        raise NotAFigure(f"under {SMALLEST_FIGURE:g}, the smallest figure other than 0")
    if value > largest:
        raise NotAFigure(f"over {largest:g}, the largest figure a run holds")
    return value
