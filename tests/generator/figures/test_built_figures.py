"""The figures built as plain dicts are the figures plotly.py objects built before
(tests/fixtures/figures/README.md): the change from one to the other was a pure speed-up."""

from __future__ import annotations

import hashlib
import json

import pytest

from generator.hugo.build_tree import hugo_inputs
from generator.hugo.site_contract import is_figure
from tests.helpers.paths import FIXTURES

EXPECTED = json.loads((FIXTURES / "figures" / "built-figures.json").read_text())


def _canonical(figure: dict) -> str:
    return json.dumps(figure, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.fixture(scope="module")
def built(fixture_runs) -> dict[str, dict]:
    return {
        rel: json.loads(content)
        for rel, content in hugo_inputs(fixture_runs).items()
        if is_figure(rel)
    }


def test_each_kind_of_figure_reads_as_before(built):
    assert (
        len(EXPECTED["examples"]) == 8
    )  # run tps, latency, series, monitor, ibench, ibench-hist;
    for rel, figure in EXPECTED["examples"].items():  # campaign tps, latency
        assert built[rel] == figure, rel


def test_every_figure_is_as_before(built):
    assert sorted(built) == sorted(EXPECTED["sha256"])
    changed = [
        rel
        for rel, figure in built.items()
        if hashlib.sha256(_canonical(figure).encode()).hexdigest() != EXPECTED["sha256"][rel]
    ]
    assert changed == []
