"""What a run page says about the code that ran: the snapshot, or an older run's commit."""

from __future__ import annotations

import copy

from generator.pages.provenance import provenance_facts

SNAPSHOT = {
    "taken_at": "2026-11-24T10:00:00Z",
    "changed_files": ["harness/cli.py"],
    "diff": {"path": f"provenance/{'a' * 64}.diff", "sha256": "a" * 64},
    "campaign_file": {"path": "campaigns/x.toml", "sha256": "b" * 64, "text": 'name = "x"\n'},
    "tools": {"sysbench": "1.0.20"},
    "files": {"harness/workloads/tpcc/lua/tpcc.lua": "c" * 64},
}


def test_an_older_run_has_only_its_write_time_commit(fixture_runs):
    run = fixture_runs[0].doc
    facts = provenance_facts(run)
    assert facts["snapshot"] is None
    assert facts["commit"] == run["harness"]["git_commit"]


def test_a_snapshot_is_shown_as_taken(fixture_runs):
    run = copy.deepcopy(fixture_runs[0].doc)
    run["harness"] = {"version": "0.1.0", "git_commit": "d" * 40, "git_dirty": True}
    run["harness"]["snapshot"] = SNAPSHOT
    facts = provenance_facts(run)
    assert facts["commit"] == "d" * 40 and facts["dirty"] is True
    assert facts["snapshot"]["diff_url"] == SNAPSHOT["diff"]["path"]
    assert facts["snapshot"]["changed_files"] == ["harness/cli.py"]
    assert facts["snapshot"]["campaign_file"] == SNAPSHOT["campaign_file"]
