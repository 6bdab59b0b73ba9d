"""generator/pages/pfs_waits.py: a waits run's cost against its cell's counted passes, its wait
rows, the measured runs' link, and its run index entry."""

from __future__ import annotations

import copy
import json

from generator.pages.numbers import MISSING
from generator.pages.pfs_waits import cost_rows, wait_rows, waits_index_entry, waits_section
from generator.pages.run_page import run_index_entry
from tests.helpers.paths import DATA_DIR
from tests.helpers.repeated_runs import as_repeat

RUN = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p2"
EVENT = {"event": "wait/synch/mutex/innodb/buf_pool_mutex", "count": 10, "total_ms": 2.5, "avg_us": 250.0}  # fmt: skip


def measured() -> dict:
    return json.loads((DATA_DIR / "runs" / f"{RUN}.json").read_text())


def waits_of(run: dict) -> dict:
    waits = copy.deepcopy(run)
    waits.pop("repeat", None)
    waits.update(id=f"{run['id']}.waits", purpose="waits")
    for step in waits["steps"]:
        step["waits"] = {"source": "performance_schema", "events": [EVENT]}
    return waits


def test_the_cost_is_against_the_median_of_the_counted_passes():
    base = measured()
    cell = [as_repeat(base, 1, 3, 1.0), as_repeat(base, 2, 3, 2.0), as_repeat(base, 3, 3, 4.0)]
    waits = waits_of(base)
    cost = cost_rows(waits, cell)
    assert cost["passes"] == 3
    first = cost["rows"][0].split("\t")
    assert first[3] == "-50.0 %"  # the median pass ran at twice the waits run's TPS


def test_a_thread_level_no_pass_reached_has_dashes():
    base = measured()
    shorter = copy.deepcopy(base)
    shorter["steps"] = shorter["steps"][:1]
    first, second = cost_rows(waits_of(base), [shorter])["rows"][:2]
    assert first.split("\t")[3] == "+0.0 %"
    assert second.split("\t")[2:4] == [MISSING, MISSING]  # no median, no change


def test_measured_pages_link_and_waits_pages_show_their_waits():
    base = measured()
    waits = waits_of(base)
    assert waits_section(base, []) is None
    assert waits_section(base, [waits]) == {"pass": False, "runs": [waits["id"]]}
    section = waits_section(waits, [base])
    assert section is not None and section["pass"] is True
    assert section["rows"] == wait_rows(waits)
    assert wait_rows(waits)[0].split("\t")[1:] == [EVENT["event"], "10", "2.50", "250"]


def test_the_run_index_entry_has_no_headline_and_says_what_it_is():
    waits = waits_of(measured())
    entry = waits_index_entry(run_index_entry(waits))
    assert "headline" not in entry["params"] and entry["params"]["purpose"] == "waits"
    assert entry["title"].endswith("(performance_schema waits pass, not a measurement)")
