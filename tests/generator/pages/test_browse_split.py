"""/browse/'s index as downloaded: a filter index of every run and pages of rows
(pages/browse_split.py)."""

from __future__ import annotations

import copy
import json

from generator.hugo import site_contract as site
from generator.hugo.build_tree import hugo_inputs
from generator.pages.browse import browse_index
from generator.pages.browse_split import (
    PAGE_RUNS,
    browse_filters,
    browse_pages,
    file_of,
    page_count,
)
from tests.helpers.browse_split import reassembled_browse


def _many(fixture_runs, count: int) -> list[dict]:
    """count runs: the fixtures again and again under new ids and start times."""
    runs = []
    for number in range(count):
        run = copy.deepcopy(fixture_runs[number % len(fixture_runs)][1])
        run["id"] = f"{run['id']}.copy{number}"
        run["started_at"] = f"2026-01-01T00:{number // 60 % 60:02d}:{number % 60:02d}Z"
        runs.append(run)
    return runs


def test_the_filter_index_and_pages_hold_exactly_the_single_index(fixture_runs):
    index = browse_index(_many(fixture_runs, 2 * PAGE_RUNS + 7))
    pages = browse_pages(index)
    # numbered from the oldest runs: only the newest file is short
    assert [len(page["runs"]) for page in pages] == [PAGE_RUNS, PAGE_RUNS, 7]
    assert [page["number"] for page in pages] == [1, 2, 3] and page_count(index) == 3
    assert reassembled_browse(browse_filters(index), pages) == index


def test_each_run_is_on_exactly_one_page_newest_first(fixture_runs):
    index = browse_index(_many(fixture_runs, PAGE_RUNS + 1))
    pages = browse_pages(index)
    listed = [row["id"] for page in reversed(pages) for row in page["runs"]]
    assert listed == [record["id"] for record in index["runs"]]
    assert len(set(listed)) == len(listed)
    for position, record in enumerate(index["runs"]):
        number, row = file_of(len(index["runs"]), position)
        assert pages[number - 1]["runs"][row]["id"] == record["id"]


def test_a_new_run_leaves_every_file_but_the_newest_as_it_was(fixture_runs):
    """A watching hugo server rebuilds every page past 50 changed files: a new run must move
    one or two files, not all of them."""
    runs = _many(fixture_runs, 3 * PAGE_RUNS + 2)  # each newer than those before it
    files = [
        [json.dumps(page) for page in browse_pages(browse_index(runs[:count]))]
        for count in (3 * PAGE_RUNS, 3 * PAGE_RUNS + 1, 3 * PAGE_RUNS + 2)
    ]
    assert files[1][:-1] == files[0]  # a new file started
    assert files[2][:-1] == files[1][:-1] and files[2][-1] != files[1][-1]


def test_an_empty_archive_is_one_empty_page():
    index = browse_index([])
    assert browse_pages(index) == [{"number": 1, "campaigns": {}, "hosts": {}, "runs": []}]
    assert browse_filters(index)["runs"] == []


def test_the_filter_index_is_a_few_bytes_a_run(fixture_runs):
    runs = _many(fixture_runs, 3 * PAGE_RUNS)
    filters = json.dumps(browse_filters(browse_index(runs)), separators=(",", ":"))
    single = json.dumps(browse_index(runs), separators=(",", ":"))
    assert len(filters) < len(single) / 4


def test_the_build_writes_the_filter_index_pages_and_their_count(fixture_runs):
    files = hugo_inputs(fixture_runs)
    filters = json.loads(files[site.BROWSE_FILTERS])
    count = json.loads(files[site.BROWSE_DATA])
    assert count == {"pages": filters["pages"], "runs": len(fixture_runs)}
    pages = [json.loads(files[site.browse_page(n)]) for n in range(1, count["pages"] + 1)]
    assert reassembled_browse(filters, pages) == browse_index([run for _, run in fixture_runs])
