"""A campaign's entry of the campaign index (data/campaignindex/<campaign>.json), which the
campaign pages' content adapter reads at Hugo's start-up; the page itself reads the whole
summary from its own asset (assets/pages/campaigns/<campaign>.json), parsed only by the pages
that show it. One small file per campaign, derived with its summary, so a new run rewrites only
its own campaign's entry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contract import page_segment


def campaign_index_entry(
    summary: dict[str, Any], profile_cells: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """The page's path, title, date and the params the campaign lists show, from the summary
    (generator/pages/campaign.py summarize_campaign); with the paths and titles of its
    differential flame graph pages (pages/profiles.campaign_profiles), which the adapter adds
    under the campaign's page."""
    entry: dict[str, Any] = {
        "path": page_segment(summary["id"]),  # the one rule for names that become paths
        "title": summary["title"],
        "date": summary["started_at"],
        "params": {
            "campaign_id": summary["id"],
            "workloads": [workload["name"] for workload in summary["workloads"]],
            "host_names": [host["name"] for host in summary["hosts"]],
        },
    }
    if profile_cells:  # a campaign without them keeps the entry it had
        entry["profile_pages"] = [
            {"path": cell["path"], "title": cell["title"]} for cell in profile_cells
        ]
    return entry
