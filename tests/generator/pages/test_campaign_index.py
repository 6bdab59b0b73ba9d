"""A campaign's entry of the campaign index (generator/pages/campaign_index.py)."""

from __future__ import annotations

from generator.pages.campaign import runs_by_campaign, summarize_campaign
from generator.pages.campaign_index import campaign_index_entry


def test_an_entry_holds_what_campaign_lists_show_of_the_summary(fixture_runs):
    runs = runs_by_campaign([run_file.doc for run_file in fixture_runs])
    of_one = next(iter(runs.values()))
    summary = summarize_campaign(of_one)
    entry = campaign_index_entry(summary)
    assert entry["path"] == entry["params"]["campaign_id"] == summary["id"]
    assert (entry["title"], entry["date"]) == (summary["title"], summary["started_at"])
    assert entry["params"]["workloads"] == sorted({run["workload"]["name"] for run in of_one})
    assert entry["params"]["host_names"] and len(str(entry)) < len(str(summary)) / 10
