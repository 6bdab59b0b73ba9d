"""The charts' style rules: readable log ticks and one hue per series group."""

from __future__ import annotations

import pytest

from generator.figures.style import COLORWAY, log_ticks, tick_label, trace_styles


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (200, 2000, [200, 300, 500, 1000, 2000]),  # never a bare "2" for 200
        (1, 1000, [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]),
        (1, 1e6, [1, 10, 100, 1e3, 1e4, 1e5, 1e6]),  # wide: powers of ten only
        (0.05, 3, [0.05, 0.1, 0.2, 0.5, 1, 2]),
        (180, 220, [200]),
    ],
)
def test_log_ticks_are_whole_values_within_the_range(low, high, ticks):
    assert log_ticks(low, high) == ticks


def test_log_ticks_of_twelve_decades_are_thinned_to_at_most_ten():
    ticks = log_ticks(1, 1e12)
    assert len(ticks) <= 10 and ticks[0] == 1 and ticks[-1] == 1e12


def test_tick_labels_are_whole_numbers_with_separators():
    assert [tick_label(v) for v in (200, 2000, 1.5, 0.05, 1e6)] == [
        "200", "2,000", "1.5", "0.05", "1,000,000",
    ]  # fmt: skip


def test_traces_of_one_group_share_a_hue_and_differ_by_dash():
    traces = [
        {"name": "base p1", "legendgroup": "base"},
        {"name": "new p1", "legendgroup": "new"},
        {"name": "base p2", "legendgroup": "base"},
        {"name": "new p2", "legendgroup": "new"},
        {"name": "base p3", "legendgroup": "base"},
        {"name": "alone"},
    ]
    styles = trace_styles(traces)
    assert [colour for colour, _ in styles] == [COLORWAY[0], COLORWAY[1], COLORWAY[0],
                                                COLORWAY[1], COLORWAY[0], COLORWAY[2]]  # fmt: skip
    assert [dash for _, dash in styles] == ["solid", "solid", "dash", "dash", "dot", "solid"]
