"""How many passes a cell needs before its ratio's interval can tell most differences from noise.

With repeats on both sides, a ratio's 95 % interval comes from the passes' spread with Welch's t
(generator/analysis/stats.py), on very few degrees of freedom below this: two passes a side put
the t quantile above 4, so most cells read "within noise" however large the difference. One
pass has no interval from repeats at all (it falls back to per-second samples, which do not
measure the noise between runs). `mybench campaign new` warns below it, and a campaign page marks
an interval that rests on fewer.
"""

ENOUGH_PASSES = 3
