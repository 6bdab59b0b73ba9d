"""Run pages show the server's and the client's CPU per operation apart from the host's, and
what the server waited on per step: a build of copies of committed runs, one whose first step
recorded the server and client CPU as the harness now does, the others as they were recorded."""

from __future__ import annotations

import json
import re

import pytest

from generator.analysis.cpu_split import cpu_split
from generator.analysis.waits import top_waits
from generator.pages.monitor import step_label
from generator.pages.numbers import format_number
from tests.helpers.site_build import build_with_article, data_of

pytestmark = pytest.mark.site

SYSBENCH_RUN = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p2"
IBENCH_RUN = "ibench-performance-schema-20261127-041633.ps-on.ibench.p1"
RECORDED = {"server_cpu_us": 1700.0, "client_cpu_us": 480.0}


@pytest.fixture(scope="module")
def site(tmp_path_factory, committed_runs) -> tuple[dict, object]:
    """(the runs built, by id; public/)."""
    root = tmp_path_factory.mktemp("cpu-waits")
    data = data_of(root, committed_runs, lambda run: run["id"] in (SYSBENCH_RUN, IBENCH_RUN))
    path = data / "runs" / f"{SYSBENCH_RUN}.json"
    run = json.loads(path.read_text())
    run["steps"][0]["per_op"] |= RECORDED
    path.write_text(json.dumps(run))
    runs = {
        r["id"]: r for r in (run, json.loads((data / "runs" / f"{IBENCH_RUN}.json").read_text()))
    }
    # an article cites the recorded figures as any field of a step
    probe = "".join(
        f'{name}: {{{{< fact run="{SYSBENCH_RUN}" key="steps.0.per_op.{name}" >}}}} µs. '
        for name in RECORDED
    )
    return runs, build_with_article(root, probe, [data])


def page(public, run_id: str) -> str:
    return (public / "runs" / run_id / "index.html").read_text()


def section(html: str, start: str, end: str) -> str:
    return html[html.index(start) :][: html[html.index(start) :].index(end)]


def test_the_cost_table_shows_server_and_client_cpu_recorded_or_derived(site):
    runs, public = site
    cost = section(page(public, SYSBENCH_RUN), "Cost per transaction", "</table>")
    assert "<th>server CPU µs</th><th>client CPU µs</th>" in cost
    assert "† derived from the 1 s samples" in cost  # the older steps
    second = runs[SYSBENCH_RUN]["steps"][1]
    assert f"<td>{format_number(1700.0)}</td><td>{format_number(480.0)}</td>" in cost
    derived = cpu_split(second)
    assert derived is not None and derived.sampled
    assert f"<td>{format_number(derived.server.us_per_op)}†</td>" in cost


def test_the_ibench_table_shows_the_server_cpu_and_the_workers_own(site):
    runs, public = site
    table = section(page(public, IBENCH_RUN), 'aria-label="Insert Benchmark steps"', "</table>")
    assert "<th>server CPU µs/op</th><th>client CPU µs/op</th>" in table
    query = next(s for s in runs[IBENCH_RUN]["steps"] if s["step"] == "qr100")
    split = cpu_split(query)
    assert split is not None
    assert split.client.us_per_op == query["client_cpu"]["us_per_op"]
    assert f"{format_number(split.server.us_per_op)}†" in table
    assert "† server CPU derived from the 1 s samples" in page(public, IBENCH_RUN)


def test_the_run_page_says_what_the_server_waited_on(site):
    runs, public = site
    html = page(public, SYSBENCH_RUN)
    waits = section(html, 'id="waits"', 'id="counters"')
    assert "not performance_schema wait events" in " ".join(waits.split())
    steps = runs[SYSBENCH_RUN]["steps"]
    waited = [s for s in steps if top_waits(s)]
    quiet = [step_label(s) for s in steps if not top_waits(s)]
    assert waited and quiet  # the committed run has both
    for step in waited:
        top = top_waits(step)[0]
        row = f"<td>{step_label(step)}</td><td><code>{top.name}</code></td>"
        assert row in waits
    assert re.search(r"No wait counter moved in: [^<]*" + re.escape(quiet[0]), waits)


def test_an_article_cites_the_server_and_client_cpu_per_operation(site):
    _, public = site
    text = " ".join((public / "posts" / "probe" / "index.html").read_text().split())
    # (the committed step is flagged: its ⚠ mark follows each figure)
    assert f"server_cpu_us: {format_number(1700.0)} " in text
    assert f"client_cpu_us: {format_number(480.0)} " in text
