"""Numbers that Python reads but a figure is not: other scripts' digits, which int() and
float() read as ASCII ones (written as escapes, so that the source shows which they are)."""

from __future__ import annotations

ARABIC_FIVE = "\u0665"  # float() reads 5.0
ARABIC_THREE_POINT_FIVE = "\u0663.\u0665"  # float() reads 3.5
FULL_WIDTH_TWELVE = "\uff11\uff12"  # float() reads 12.0
