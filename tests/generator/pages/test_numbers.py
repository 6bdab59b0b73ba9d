"""The site's one number format."""

from __future__ import annotations

import pytest

from generator.pages.numbers import format_number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2451249, "2,451,249"),
        (2089593.8, "2,089,594"),  # no decimals from 100 up
        (1234.5, "1,235"),  # ties away from zero, as Hugo's lang.FormatNumber
        (-1234.5, "-1,235"),
        (3.885, "3.89"),  # stored just below 3.885, but 3.885 x 100 is the double 388.5
        (1.005, "1.00"),  # 1.005 x 100 is the double just below 100.5
        (100.0, "100"),
        (45.25, "45.3"),
        (12.0, "12"),  # a whole number shows no decimals
        (3.14159, "3.14"),
        (-12.34, "-12.3"),
        (0.5, "0.50"),  # two significant digits below 1
        (0.034, "0.034"),
        (0.00012, "0.00012"),
        (0, "0"),
        (None, "\u2014"),
    ],
)
def test_format_number(value, text):
    assert format_number(value) == text
