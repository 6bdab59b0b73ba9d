"""A waits pass on the site (generator/pages/pfs_waits.py): a build of one committed cell's three
passes, another variant's, and a hand-made waits run of the first cell (its throughput 10 %
below pass 2's, top waits per step). The waits run is in no cell, ratio, compare or browse
data; its page says it is no measurement, what it cost and its waits; the cell's measured run
pages link to it."""

from __future__ import annotations

import copy
import json
import statistics
from pathlib import Path

import pytest

import contract
from generator.hugo import site_contract as site
from tests.helpers.paths import DATA_DIR
from tests.helpers.repeated_runs import write_runs
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

CAMPAIGN = "binlog-sync-policies-20261123-133014"
CELL = [f"{CAMPAIGN}.binlog-off.oltp-rw.p{index}" for index in (1, 2, 3)]
OTHER = [f"{CAMPAIGN}.sync-1.oltp-rw.p{index}" for index in (1, 2, 3)]
WAITS_RUN = f"{CAMPAIGN}.binlog-off.oltp-rw.waits"
SCALE = 0.9
EVENTS = [
    {"event": "wait/io/file/innodb/innodb_data_file", "count": 1234, "total_ms": 56.7, "avg_us": 45.9},
    {"event": "wait/synch/rwlock/innodb/lock_latch", "count": 5000, "total_ms": 3.25, "avg_us": 0.65},
]  # fmt: skip


def waits_run(measured: dict) -> dict:
    """A waits pass of measured's cell, as the harness writes one: purpose, no repeat, each
    step's top waits."""
    run = copy.deepcopy(measured)
    del run["repeat"]
    run.update(id=WAITS_RUN, purpose="waits", started_at="2026-11-23T15:00:00Z")
    for step in run["steps"]:
        step["tps"] = round(step["tps"] * SCALE, 2)
        step["qps"]["total"] = round(step["qps"]["total"] * SCALE, 2)
        step["waits"] = {"source": "performance_schema", "events": EVENTS}
    return run


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, dict[str, dict]]:
    """(build dir, public dir, the runs by id)."""
    root = tmp_path_factory.mktemp("waits-pass-site")
    runs = {
        run_id: json.loads((DATA_DIR / "runs" / f"{run_id}.json").read_text())
        for run_id in CELL + OTHER
    }
    runs[WAITS_RUN] = waits_run(runs[CELL[1]])
    assert contract.validate_document(runs[WAITS_RUN], WAITS_RUN) == []
    write_runs(list(runs.values()), root / "data")
    public = build_with_article(root, "A probe.", [root / "data"])
    return root / "build", public, runs


def page(public: Path, run_id: str) -> str:
    return (public / "runs" / run_id / "index.html").read_text()


def test_the_waits_run_is_in_no_cell_ratio_compare_or_list_data(built):
    build, _, _ = built
    own = {site.run_page_file(run_id) for run_id in [*CELL, WAITS_RUN]}
    found = [
        path.relative_to(build).as_posix()
        for path in build.rglob("*")
        if path.is_file()
        and site.CACHE_DIR not in path.relative_to(build).parts
        and WAITS_RUN.encode() in path.read_bytes()
    ]
    allowed = own | {site.RUN_INDEX}
    assert [path for path in found if path not in allowed and WAITS_RUN not in path] == []
    (entry,) = [
        e for e in json.loads((build / site.RUN_INDEX).read_bytes())
        if e["params"]["run_id"] == WAITS_RUN
    ]  # fmt: skip
    assert "headline" not in entry["params"] and "not a measurement" in entry["title"]


def test_the_waits_run_page_says_it_is_no_measurement_and_what_it_cost(built):
    _, public, runs = built
    html = page(public, WAITS_RUN)
    assert "performance_schema wait instrumentation" in html and "is not a measurement" in html
    assert "the median of the cell's\n    3 measured passes" in html
    first = runs[WAITS_RUN]["steps"][0]
    median = statistics.median(runs[run_id]["steps"][0]["tps"] for run_id in CELL)
    change = (first["tps"] - median) / median * 100
    assert f"{change:+.1f} %" in html
    for event in EVENTS:
        assert f"<code>{event['event']}</code>" in html
    assert "<td>1,234</td>" in html


def test_each_measured_run_page_of_the_cell_links_the_waits_pass(built):
    _, public, _ = built
    for run_id in CELL:
        html = page(public, run_id)
        assert "performance_schema waits of this cell:" in html
        assert f'/runs/{WAITS_RUN}/"' in html
    assert "performance_schema waits of this cell:" not in page(public, OTHER[0])
