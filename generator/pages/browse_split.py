"""The /browse/ index (pages/browse.py) as a reader downloads it: a filter index of every run
and the records in files of PAGE_RUNS rows.

The filter index holds what the filters match, a few small numbers per run (positions in one
list of values per filter), so filters still work over the whole archive; the files hold what a
row shows (name, date, campaign, host, status, headline). js/browse.js fetches the filter index,
then only the files holding the rows it draws.

Files are numbered from the oldest run: file 1 holds the oldest PAGE_RUNS runs, and only the
last file is ever short. A new run changes the last file (or starts one) and leaves the others'
bytes alone, so a watching `hugo server` sees two or three files move however large the archive
is, never all of them (past 50 events at once it rebuilds every page). Readers see pages newest
first: page 1 (/browse/) is the last file, page n (/browse/<n>/, content/browse/_content.gotmpl)
file count - n + 1; so page 1 may list fewer runs than the others.
"""

from __future__ import annotations

from typing import Any

from generator.analysis.evidence import MEASURED

PAGE_RUNS = 100  # rows of one page: ~46 kB of HTML and ~20 kB of JSON
# The filters, in the order of a run's entry in the filter index; "option" is a list.
FILTERS = ("product", "version", "workload", "campaign", "host", "evidence", "option")
# A row's fields; "evidence" only an imported run's (analysis/evidence.py).
ROW_FIELDS = ("id", "name", "date", "campaign", "host", "status", "headline", "evidence")


def _filter_values(record: dict[str, Any]) -> dict[str, list[str]]:
    """The values a run offers to each filter (a version is named with its product)."""
    return {
        "product": [record["product"]],
        "version": [f"{record['product']} {record['version']}"],
        "workload": [record["workload"]],
        "campaign": [record["campaign"]],
        "host": [record["host"]],
        "evidence": [record.get("evidence", MEASURED)],
        "option": record["options"],
    }


def browse_filters(index: dict[str, Any]) -> dict[str, Any]:
    """{"campaigns", "hosts" (names, as in the index), "page_runs", "pages", "values": {filter:
    [value, ...]}, "runs": [[position of its value per filter (a list for "option")], ...]}, runs
    in the index's order (newest first); file_of says which file holds run i, and its row."""
    values: dict[str, dict[str, int]] = {name: {} for name in FILTERS}
    runs = []
    for record in index["runs"]:
        entry: list[Any] = []
        for name, offered in _filter_values(record).items():
            positions = [values[name].setdefault(value, len(values[name])) for value in offered]
            entry.append(positions if name == "option" else positions[0])
        runs.append(entry)
    return {
        "campaigns": index["campaigns"],
        "hosts": index["hosts"],
        "page_runs": PAGE_RUNS,
        "pages": page_count(index),
        "values": {name: list(found) for name, found in values.items()},
        "runs": runs,
    }


def page_count(index: dict[str, Any]) -> int:
    """How many pages list the index's runs (one, empty, for none)."""
    return max(1, -(-len(index["runs"]) // PAGE_RUNS))


def _first(count: int, number: int) -> int:
    """The position in the index (newest first) of the newest run of file `number`, of count."""
    return max(0, count - number * PAGE_RUNS)


def file_of(count: int, position: int) -> tuple[int, int]:
    """(file number, row in it) of the run at `position` in the index (newest first) of count
    runs; js/browse.js computes the same."""
    number = (count - 1 - position) // PAGE_RUNS + 1
    return number, position - _first(count, number)


def _page(index: dict[str, Any], number: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "number": number,
        "campaigns": {row["campaign"]: index["campaigns"][row["campaign"]] for row in rows},
        "hosts": {row["host"]: index["hosts"][row["host"]] for row in rows},
        "runs": rows,
    }


def browse_pages(index: dict[str, Any]) -> list[dict[str, Any]]:
    """File n (from 1, the oldest runs) at position n - 1: {"number", "campaigns", "hosts" (the
    names of its rows'), "runs": [row, ...] newest first}, each row the index record's
    ROW_FIELDS it has. Nothing in a file depends on the runs of another."""
    rows = [
        {field: record[field] for field in ROW_FIELDS if field in record}
        for record in index["runs"]
    ]
    return [
        _page(index, n, rows[_first(len(rows), n) : len(rows) - (n - 1) * PAGE_RUNS])
        for n in range(1, page_count(index) + 1)
    ]
