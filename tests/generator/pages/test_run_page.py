"""A run page's one file and its run index entry (generator/pages/run_page.py)."""

from __future__ import annotations

import copy
import json

from generator.analysis.repeats import cell_key, group_by_cell
from generator.analysis.trust import run_trust
from generator.analysis.verdict import FLAG_KINDS, flag_counts
from generator.hugo.build_tree import derivations
from generator.hugo.load import planned
from generator.pages.browse import browse_index
from generator.pages.monitor import step_averages
from generator.pages.numbers import format_number
from generator.pages.packed_rows import CELL_SEPARATOR
from generator.pages.run_page import (
    FACT_ONLY_STEP_FIELDS,
    SAMPLED_STEP_FIELDS,
    page_document,
    run_index_entry,
    run_page,
    steps_file,
    variables_key,
)
from generator.pages.run_tables import run_tables
from generator.pages.step_tables import step_tables


def test_the_page_document_is_the_run_without_samples_tabled_fields_and_variables(fixture_runs):
    run = fixture_runs[0].doc
    page = page_document(run)
    assert {key: value for key, value in page.items() if key not in ("steps", "server")} == {
        key: value for key, value in run.items() if key not in ("steps", "server")
    }
    assert page["server"] == {k: v for k, v in run["server"].items() if k != "variables"}
    assert run["server"]["variables"]  # in their own file (variables_file)
    left_out = {*SAMPLED_STEP_FIELDS, *FACT_ONLY_STEP_FIELDS}
    steps = steps_file(run)["steps"]
    for shown, recorded, cited in zip(page["steps"], run["steps"], steps, strict=True):
        assert set(SAMPLED_STEP_FIELDS) & set(recorded)
        assert set(FACT_ONLY_STEP_FIELDS) & set(recorded)
        assert shown == {k: v for k, v in recorded.items() if k not in left_out}
        # fact reads every step field from the steps file, at the document's own paths
        assert cited == {k: v for k, v in recorded.items() if k not in SAMPLED_STEP_FIELDS}
    assert "series" in run["steps"][0]  # the document itself is left whole


def test_a_page_file_holds_each_part_its_kind_of_run_shows(fixture_runs):
    runs = [run_file.doc for run_file in fixture_runs]
    cells = group_by_cell(runs)
    by_tool = {}
    for run in runs:
        page = run_page(run, cells[cell_key(run)], run_trust(run), None)
        by_tool.setdefault((run["workload"]["tool"], bool(run["steps"])), page)
    sysbench, ibench = by_tool[("sysbench", True)], by_tool[("ibench", True)]
    assert sysbench["tables"]["series"] and sysbench["monitor"] and sysbench["ibench"] is None
    assert ibench["ibench"]["steps"] and ibench["original"] is None
    unmeasured = by_tool[("sysbench", False)]
    assert unmeasured["tables"] is unmeasured["monitor"] is unmeasured["ibench"] is None
    assert unmeasured["step_tables"] is ibench["step_tables"] is None
    assert sysbench["step_tables"]["summary"]["rows"]
    assert unmeasured["facts"]["host"] and unmeasured["replay"]
    json.dumps(sysbench, allow_nan=False)  # what the generator writes


def test_table_rows_are_packed_one_string_each(fixture_runs):
    run = next(
        run_file.doc
        for run_file in fixture_runs
        if run_file.doc["workload"]["tool"] == "sysbench" and step_averages(run_file.doc)
    )
    page = run_page(run, [run], run_trust(run), None)

    def unpacked(table):
        return [row.split(CELL_SEPARATOR) for row in table["rows"]]

    for name, table in run_tables(run).items():
        assert unpacked(page["tables"][name]) == table["rows"], name
    for name, table in step_tables(run).items():
        if table:
            assert unpacked(page["step_tables"][name]) == table["rows"], name
    for figure, table in step_averages(run).items():
        assert unpacked(page["monitor"][figure]) == [
            [row["step"], *(format_number(value) for value in row["values"])]
            for row in table["rows"]
        ]


def test_the_variables_table_is_keyed_by_what_it_shows(fixture_runs):
    run = fixture_runs[0].doc
    facts = {"redacted_plain": []}
    same = copy.deepcopy(run)
    same["id"] += "-again"
    same["variant"] = "another"
    assert variables_key(same, facts) == variables_key(run, facts)
    changed = copy.deepcopy(run)
    changed["server"]["variables"]["max_connections"] = "4321"
    assert variables_key(changed, facts) != variables_key(run, facts)
    marked = {"redacted_plain": sorted(run["server"]["variables"])[:1]}
    assert variables_key(run, marked) != variables_key(run, facts)


def test_a_reproducing_run_names_its_original_and_follows_its_changes(fixture_runs, tmp_path):
    original = fixture_runs[0].doc
    copy_of = copy.deepcopy(fixture_runs[1].doc)
    copy_of["id"] = "reproduce-20260101-000000.base.oltp-rw"
    copy_of["campaign"]["id"] = "reproduce-20260101-000000"
    copy_of["reproduces"] = {"run_id": original["id"], "source": "published"}
    page = run_page(copy_of, [copy_of], run_trust(copy_of), original)
    assert page["original"]["id"] == original["id"]
    assert page["original"]["workload"]["tool"] == original["workload"]["tool"]

    def run_key(first: dict) -> str:
        files = []
        for doc in (first, copy_of):
            path = tmp_path / f"{doc['id']}.json"
            path.write_text(json.dumps(doc))
            files.append(planned(path))
        return next(d.key for d in derivations(files, "code") if d.name == copy_of["id"])

    changed = copy.deepcopy(original)
    changed["variant"] = "renamed"
    assert run_key(original) != run_key(changed)


def test_the_index_titles_a_run_as_lists_and_browse_name_it(fixture_runs):
    runs = [run_file.doc for run_file in fixture_runs]
    names = {row["id"]: row["name"] for row in browse_index(runs)["runs"]}
    for run in runs:
        entry = run_index_entry(run)
        assert entry["path"] == entry["params"]["run_id"] == run["id"]
        assert entry["title"] == names[run["id"]]
        assert entry["params"]["versions"] == [
            f"{entry['params']['engines'][0]} {run['server']['version']}"
        ]


def test_the_page_file_reads_one_verdict_per_step(fixture_runs):
    """The step table's verdicts, its summary line and the disclosure box count the same flags
    (the trust entries' of generator/analysis/verdict.py), and the legend names every kind."""
    for run_file in fixture_runs:
        run = run_file.doc
        trust = run_trust(run)
        facts = run_page(run, [run], trust, None)["facts"]
        assert [kind["kind"] for kind in facts["flag_kinds"]] == list(FLAG_KINDS)
        assert [entry["flags"] for entry in facts["trust"]] == [e["flags"] for e in trust]
        summary = facts["disclosure"]["flags"]
        assert summary["steps"] == len(trust)
        assert summary["flagged"] == sum(1 for entry in trust if entry["flags"])
        counts = flag_counts([entry["flags"] for entry in trust])
        assert {kind["kind"]: kind["count"] for kind in summary["kinds"]} == counts
