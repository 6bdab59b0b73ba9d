"""An article's number that rests on flagged steps says so: `value` and `fact`
(layouts/_shortcodes/) follow it with a "⚠" mark naming the kinds of the flags
(generator/analysis/verdict.py) of the steps behind it, and a number resting on fit steps has
none. One probe article over the fixture runs, each expectation from the runs' trust entries."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from contract import load_run
from generator.analysis.trust import run_trust
from generator.analysis.verdict import FLAG_KINDS
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

BINLOG = "binlog-sync-policies-20261123-133014"
IBENCH = "ibench-performance-schema-20261123-143014"
WRITE_RUN = f"{BINLOG}.binlog-off.oltp-rw.p1"
FIT_RUN = "callaghan-10-11-vs-11-4-20261122-045700.mariadb-10-11.base.random-points-r1000.r2"
# One paragraph per number, so each mark is found after its own number.
PROBES = {
    "sweep": f'{{{{< value campaign="{BINLOG}" workload="oltp-rw" variant="sync-1" threads="4" >}}}}',
    "ibench": f'{{{{< value campaign="{IBENCH}" report="ibench" variant="ps-on" step="qp100" show="value" >}}}}',
    # the same cell as "sweep", by its path in the campaign's summary (rows by thread level
    # 1, 2, 4 ...; cells by variant, the base first)
    "fact-cell": f'{{{{< fact campaign="{BINLOG}" key="workloads.0.metrics.tps.rows.2.cells.1.ratio" >}}}}',
    "fact-flagged": f'{{{{< fact run="{WRITE_RUN}" key="steps.1.tps" >}}}}',
    "fact-fit": f'{{{{< fact run="{FIT_RUN}" key="steps.0.tps" >}}}}',
    "levels": f'{{{{< value campaign="{BINLOG}" workload="oltp-rw" variant="sync-1" threads="1,2,4" >}}}}',
}
LEVELS = re.compile(r"([0-9.]+) \(([0-9]+) threads?\) to ([0-9.]+) \(([0-9]+) threads?\)")
MARK = re.compile(r'<a class="flag-mark" href="([^"]*)" title="([^"]*)">⚠ ([^<]*)</a>')


def _trust(run_id: str) -> list[dict]:
    run, problems = load_run(FIXTURE_RUNS / "runs" / f"{run_id}.json")
    assert run is not None, problems
    return run_trust(run)


def _labels(flags: list[dict]) -> list[str]:
    return [flag["label"] for flag in flags]


@pytest.fixture(scope="module")
def marks(tmp_path_factory) -> dict[str, list[tuple[str, str, str]]]:
    """The flag marks each probe paragraph carries: (href, title, text)."""
    root = tmp_path_factory.mktemp("flag-marks")
    body = "\n\n".join(f"{name}: {probe}" for name, probe in PROBES.items())
    public: Path = build_with_article(root, body, [FIXTURE_RUNS])
    html = (public / "posts" / "probe" / "index.html").read_text()
    paragraphs = re.findall(r"<p>([a-z-]+): (.*?)</p>", html, re.DOTALL)
    assert [name for name, _ in paragraphs] == list(PROBES)
    found = {
        name: [tuple(map(unescape, m)) for m in MARK.findall(text)] for name, text in paragraphs
    }
    found["levels-text"] = [("", "", text) for name, text in paragraphs if name == "levels"]
    return found


def test_a_fact_of_a_flagged_step_names_its_flags(marks):
    step = next(entry for entry in _trust(WRITE_RUN) if entry["threads"] == 2)
    assert step["flags"], "the fixture's 2-thread step is flagged"
    ((href, title, text),) = marks["fact-flagged"]
    assert href == f"/runs/{WRITE_RUN}/" and text == ", ".join(_labels(step["flags"]))
    assert all(flag["detail"] in title for flag in step["flags"])


def test_a_fact_of_a_fit_step_has_no_mark(marks):
    (step,) = _trust(FIT_RUN)
    assert step["flags"] == []
    assert marks["fact-fit"] == []


def test_a_value_resting_on_flagged_passes_names_their_kinds(marks):
    passes = [
        entry["flags"]
        for variant_pass in (1, 2, 3)
        for entry in _trust(f"{BINLOG}.sync-1.oltp-rw.p{variant_pass}")
        if entry["threads"] == 4
    ]
    kinds = {flag["label"] for flags in passes for flag in flags}
    assert kinds, "the fixture's 4-thread passes are flagged"
    ((href, title, text),) = marks["sweep"]
    assert href == f"/campaigns/{BINLOG}/#disclosure"
    assert set(text.split(", ")) == kinds
    flagged = sum(1 for flags in passes if flags)
    assert f"{flagged} of {len(passes)} passes flagged" in title
    assert marks["fact-cell"] == marks["sweep"]  # a fact of the cell: the same mark


def test_an_insert_benchmark_value_resting_on_an_unsteady_step_says_so(marks):
    (step,) = [e for e in _trust(f"{IBENCH}.ps-on.ibench.p1") if e["step"] == "qp100"]
    assert _labels(step["flags"]) == [FLAG_KINDS["unsteady"][0]]
    ((_, title, text),) = marks["ibench"]
    assert text == "unsteady" and "1 of 1 passes flagged" in title


def test_a_value_over_several_levels_names_the_level_of_each_end(marks):
    ((_, _, text),) = marks["levels-text"]
    found = LEVELS.match(text)
    assert found, text
    low, low_at, high, high_at = found.groups()
    assert float(low) < float(high) and {low_at, high_at} <= {"1", "2", "4"}
    assert low_at != high_at
