"""Flame graphs drawn by inferno (generator/figures/flamegraph.py): an SVG naming what it shows,
the same bytes for the same stacks, and a differential one that colours the stack that grew red
and the one that shrank blue."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from generator.figures.flamegraph import differential_flame_graph, flame_graph
from tests.helpers.profiled_runs import BASE, BINLOG_FSYNC, READ, VARIANT, stacks_of

SVG = "{http://www.w3.org/2000/svg}"


def _frames(svg: bytes) -> dict[str, str]:
    """Each frame's function -> its fill, from inferno's <g><title>name (...)</title><rect>."""
    text = svg.decode()
    return dict(re.findall(r'<title>([^<(]+?) \([^<]*</title><rect [^>]*fill="([^"]+)"', text))


def test_a_step_is_drawn_as_an_svg_with_its_title_and_script():
    svg = flame_graph(stacks_of(VARIANT, 4), "run-1 · 4 threads", "perf cpu-clock at 99 Hz")
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    texts = ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]
    assert "run-1 · 4 threads" in texts and "perf cpu-clock at 99 Hz" in texts
    assert root.find(f"{SVG}script") is not None  # click to zoom and search, offline
    assert not re.search(rb'(?:href|src)="https?:', svg)  # nothing fetched from elsewhere
    assert {"fdatasync", "row_search_mvcc"} <= set(_frames(svg))


def test_the_same_stacks_give_the_same_bytes():
    stacks = stacks_of(VARIANT, 8)
    assert flame_graph(stacks, "t", "s") == flame_graph(dict(reversed(stacks.items())), "t", "s")
    base = stacks_of(BASE, 8)
    assert differential_flame_graph(base, stacks, "t", "s") == differential_flame_graph(
        base, stacks, "t", "s"
    )


def test_a_differential_graph_is_red_where_the_variant_grew_blue_where_it_shrank():
    # The variant has more samples in all; normalised, its reads still shrink in share.
    svg = differential_flame_graph(stacks_of(BASE, 2), stacks_of(VARIANT, 4), "t", "s")
    fills = _frames(svg)
    red, _green, blue = map(int, re.findall(r"\d+", fills[BINLOG_FSYNC[-1]]))
    assert red == 255 and blue < 255  # grew: from no sample at all to 40 %
    red, _green, blue = map(int, re.findall(r"\d+", fills[READ[-1]]))
    assert blue == 255 and red < 255  # shrank: 70 % of the base, 42 % of the variant
    assert fills["mariadbd"] == "rgb(250,250,250)"  # no own samples: no change
