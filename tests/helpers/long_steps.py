"""Steps long enough for a per-second interval: generator/analysis/stats.py gives one only to a
series of at least MIN_SERIES_SECONDS kept seconds, and the committed runs' steps last 10 s."""

from __future__ import annotations

from itertools import cycle, islice

from generator.analysis import stats as _stats

# The warm-up cut takes 10 % of this, which leaves MIN_SERIES_SECONDS and a few more.
LONG_STEP_S = 40
assert LONG_STEP_S - _stats.trim_seconds(LONG_STEP_S) >= _stats.MIN_SERIES_SECONDS


def lengthen(step: dict, seconds: int = LONG_STEP_S) -> None:
    """Make step last `seconds`: its duration, its per-second t, and every other per-second
    series repeated over them (tests that check values set their own series afterwards)."""
    step["duration_s"] = float(seconds)
    series = step["series"]
    for name, values in series.items():
        series[name] = list(islice(cycle(values), seconds))
    series["t"] = [float(second) for second in range(1, seconds + 1)]
