"""The compare index split into a catalogue and one file per campaign (pages/compare_split.py)."""

from __future__ import annotations

import json

from contract import is_ibench
from generator.hugo import site_contract as site
from generator.hugo.build_tree import hugo_inputs
from generator.pages.compare_index import compare_index
from generator.pages.compare_split import campaign_of_id, split_compare_index
from tests.helpers.compare_runs import compare_runs, drifted_runs
from tests.helpers.compare_split import (
    campaign_file_paths,
    reassembled,
    split_and_reassembled,
)


def _sysbench(fixture_runs) -> list[dict]:
    runs = [run for _, run in fixture_runs]
    probe = compare_runs(runs)
    return [run for run in [*runs, *probe, *drifted_runs(probe)] if not is_ibench(run)]


def test_the_catalogue_and_campaign_files_hold_exactly_the_single_index(fixture_runs):
    index = compare_index(_sysbench(fixture_runs))
    assert len(index["campaigns"]) > 2 and len(index["drift"]["environments"]) > 1
    assert split_and_reassembled(index) == index


def test_each_campaign_file_holds_its_own_runs_cells_and_environments(fixture_runs):
    index = compare_index(_sysbench(fixture_runs))
    catalogue, files = split_compare_index(index)
    assert "runs" not in catalogue and "cells" not in catalogue
    assert "environments" not in catalogue["drift"]
    assert [entry["id"] for entry in catalogue["campaigns"]] == list(files)
    for entry in catalogue["campaigns"]:
        file = files[entry["id"]]
        assert {run["campaign"] for run in file["runs"]} == {entry["id"]}
        assert {cell["campaign"] for cell in file["cells"]} <= {entry["id"]}
        assert entry["variants"] == list(dict.fromkeys(run["variant"] for run in file["runs"]))
        assert set(entry["workloads"]) == {run["workload"] for run in file["runs"]}
        used = {run["environment"] for run in file["runs"]}
        assert used == set(range(len(file["environments"])))


def test_a_file_s_version_changes_with_its_content_only(fixture_runs):
    runs = _sysbench(fixture_runs)
    before, _ = split_compare_index(compare_index(runs))
    changed = [dict(run, variant="renamed") if run is runs[0] else run for run in runs]
    after, _ = split_compare_index(compare_index(changed))
    versions = [
        (old["version"], new["version"])
        for old, new in zip(before["campaigns"], after["campaigns"], strict=True)
    ]
    differ = [
        old["id"] for old, (a, b) in zip(before["campaigns"], versions, strict=True) if a != b
    ]
    assert differ == [runs[0]["campaign"]["id"]]


def test_a_run_id_names_its_campaign_or_is_listed_elsewhere(fixture_runs):
    runs = _sysbench(fixture_runs)
    odd = dict(runs[0], id="hand-named-run")
    nested = dict(runs[1], id=f"{runs[1]['campaign']['id']}.x.y")
    longer = f"{runs[1]['campaign']['id']}.x"
    other = dict(runs[2], id=f"{longer}.z", campaign={**runs[2]["campaign"], "id": longer})
    catalogue, _ = split_compare_index(compare_index([odd, nested, other]))
    assert catalogue["elsewhere"] == {
        "hand-named-run": runs[0]["campaign"]["id"],
        nested["id"]: runs[1]["campaign"]["id"],  # the longer campaign id would claim it
    }
    ids = {"a", "a.b"}
    assert campaign_of_id("a.b.c.p1", ids) == "a.b"
    assert campaign_of_id("a.c.p1", ids) == "a"
    assert campaign_of_id("b.c", ids) is None


def test_the_build_writes_the_catalogue_compact_and_a_file_per_campaign(fixture_runs):
    files = hugo_inputs(fixture_runs)
    text = files[site.COMPARE_CATALOGUE].decode()
    catalogue = json.loads(text)
    assert text == json.dumps(catalogue, ensure_ascii=False, separators=(",", ":"))
    assert campaign_file_paths(files) == sorted(
        site.compare_campaign_file(entry["id"]) for entry in catalogue["campaigns"]
    )
    loaded = {
        entry["id"]: json.loads(files[site.compare_campaign_file(entry["id"])])
        for entry in catalogue["campaigns"]
    }
    sysbench = [run for _, run in fixture_runs if not is_ibench(run)]
    assert reassembled(catalogue, loaded) == json.loads(json.dumps(compare_index(sysbench)))
