"""The charts' two style rules, shared by the static SVG drawings (figures/svg.py) and the
Plotly charts, which js/chart-style.js styles by the same rules in the browser, from the same
constants (site/assets/js/chart-style.json):

- one hue per series group: traces sharing a `legendgroup` (a variant's passes, an Insert
  Benchmark role's rate and its worst response time) take one colour and tell themselves apart
  by dash; any other trace gets a hue of its own;
- log axes labelled with whole numbers at 1, 2, 5 * 10^n (coarser or finer so that 5 to 10 ticks
  show), where Plotly's own labels write 200 as a bare "2";
- time axes (seconds) from 0 to the last second, ticked at whole "nice" seconds (seconds_axis):
  the figure carries its ticks, so the SVG draws the ones Plotly draws.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

# One file for both sides (js/chart-style.js imports it): the Okabe-Ito palette, colour-blind
# safe, its black grey here to read on either theme; the dash order; the log-tick mantissas.
_SHARED = json.loads(
    (
        Path(__file__).resolve().parents[2] / "site" / "assets" / "js" / "chart-style.json"
    ).read_text()
)
COLORWAY: list[str] = _SHARED["colorway"]
DASHES: list[str] = _SHARED["dashes"]
MANTISSAS = tuple(tuple(float(m) for m in mantissas) for mantissas in _SHARED["log_mantissas"])
MIN_TICKS, MAX_TICKS = _SHARED["log_ticks"]["min"], _SHARED["log_ticks"]["max"]


def group_slots(traces: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(hue index, dash index) per trace, in order: a hue per legendgroup (or per ungrouped
    trace) in order of first appearance, a dash per member of its group."""
    hues: dict[object, int] = {}
    members: dict[object, int] = {}
    slots = []
    for index, trace in enumerate(traces):
        key = trace.get("legendgroup", ("ungrouped", index))
        hues.setdefault(key, len(hues))
        members[key] = members.get(key, -1) + 1
        slots.append((hues[key], members[key]))
    return slots


def trace_styles(traces: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(colour, dash) per trace."""
    return [
        (COLORWAY[hue % len(COLORWAY)], DASHES[member % len(DASHES)])
        for hue, member in group_slots(traces)
    ]


def log_ticks(low: float, high: float) -> list[float]:
    """Tick values m * 10^n within [low, high] (both > 0): the coarsest mantissas that give at
    least MIN_TICKS, thinned to at most MAX_TICKS."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    sets = [
        [
            tick
            for power in range(first, last + 1)
            for m in mantissas
            if low <= (tick := float(f"{m * 10.0**power:.12g}")) <= high
        ]
        for mantissas in MANTISSAS
    ]
    chosen = next((ticks for ticks in sets if len(ticks) >= MIN_TICKS), sets[-1])
    every = math.ceil(len(chosen) / MAX_TICKS) or 1
    return chosen[::every]


def tick_label(value: float) -> str:
    """1,000 / 200 / 1.5 / 0.05: thousands separators, no trailing zeros."""
    return f"{value:,.6f}".rstrip("0").rstrip(".")


# Seconds between time ticks, clock-nice, each at most twice the last, so that the first step
# giving at most MAX_SECOND_TICKS ticks gives at least MIN_SECOND_TICKS on any span of 4 s or
# more (a shorter one gets every whole second); then 1, 2, 3, 5 * 10^n hours.
SECOND_STEPS = (1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 300, 600, 900, 1800)
MIN_SECOND_TICKS, MAX_SECOND_TICKS = 5, 8


def _second_steps() -> Iterator[int]:
    yield from SECOND_STEPS
    for power in count():
        for hours in (1, 2, 3, 5):
            yield 3600 * hours * 10**power


def second_ticks(last_second: float) -> list[int]:
    """Whole seconds from 0 to at most last_second, a nice step apart, MIN_SECOND_TICKS to
    MAX_SECOND_TICKS of them (every whole second on a span under 4 s): a tick every second
    overlapped on a 60 s step, and a fractional one would label no sample."""
    step = next(s for s in _second_steps() if last_second // s < MAX_SECOND_TICKS)
    return list(range(0, int(last_second) + 1, step))


def seconds_axis(title: str, last_second: float) -> dict[str, Any]:
    """A Plotly x axis over 0..last_second with second_ticks, labelled as the SVG labels them;
    the explicit range stops Plotly padding past the data (-2 to 63 on a 60 s step)."""
    ticks = second_ticks(last_second)
    return {
        "title": {"text": title},
        "range": [0, last_second],
        "tickvals": ticks,
        "ticktext": [tick_label(tick) for tick in ticks],
    }
