"""The results index behind /browse/: one small record per run, filtered in the browser.

Only what the filters and the list show: per-second series, variables and my.cnf stay in each
run's run.json. Every visitor of /browse/ downloads the whole index, so an option value is cut
to OPTION_VALUE_CHARS characters (ending in "…") here: the run page holds it in full. The compare page keeps its own index (pages/compare_index.py); the two answer
different questions and change for different reasons.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument
from generator.analysis.evidence import evidence_of
from generator.analysis.hosts import host_of
from generator.pages.run_label import product_name, run_headline, run_name

OPTION_VALUE_CHARS = 60  # an optimizer_switch or a cipher list is longer; a filter needs less


def shortened(value: str, limit: int = OPTION_VALUE_CHARS) -> str:
    """value, or its first limit - 1 characters and "…" when it is longer than limit."""
    return value if len(value) <= limit else value[: limit - 1] + "…"


def variant_options(runs: list[RunDocument]) -> dict[str, list[str]]:
    """Run id -> the my.cnf options ("name=value", the value shortened) that tell its variant
    from the others of its campaign: those not set alike in every run of the campaign."""
    by_campaign: dict[str, list[RunDocument]] = {}
    for run in runs:
        by_campaign.setdefault(run["campaign"]["id"], []).append(run)
    options: dict[str, list[str]] = {}
    for campaign_runs in by_campaign.values():
        settings = [run["server"].get("my_cnf_options", {}) for run in campaign_runs]
        names = {name for options_set in settings for name in options_set}
        varying = {name for name in names if len({s.get(name) for s in settings}) > 1}
        for run, setting in zip(campaign_runs, settings, strict=True):
            options[run["id"]] = sorted(
                f"{n}={shortened(setting[n])}" for n in varying if n in setting
            )
    return options


def browse_entries(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """Per run, in the order given, its record in the index (see browse_index) and what the
    index's order and names need of it ("started_at", "title" of its campaign, "host_name"):
    runs of whole campaigns, since a record's options depend on its campaign's other runs."""
    options = variant_options(runs)
    entries = []
    for run in runs:
        host = host_of(run)
        record = {
            "id": run["id"],
            "date": run["started_at"][:10],
            "name": run_name(run),
            "product": product_name(run),
            "version": run["server"]["version"],
            "workload": run["workload"]["name"],
            "campaign": run["campaign"]["id"],
            "host": host["fingerprint"],
            "status": run["status"],
            "options": options[run["id"]],
            "headline": run_headline(run),
        }
        if "origin" in run:  # a measured run's record stays as it was
            record["evidence"] = evidence_of(run)
        entries.append(
            {
                "record": record,
                "started_at": run["started_at"],
                "title": run["campaign"]["title"],
                "host_name": host["name"],
            }
        )
    return entries


def joined_browse_index(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The index (see browse_index) of the browse_entries of one or more campaigns."""
    by_id = sorted(entries, key=lambda entry: entry["record"]["id"])
    newest_first = sorted(
        by_id, key=lambda entry: (entry["started_at"], entry["record"]["id"]), reverse=True
    )
    campaigns = {entry["record"]["campaign"]: entry["title"] for entry in by_id}
    names = {entry["record"]["host"]: entry["host_name"] for entry in by_id}
    return {
        "campaigns": dict(sorted(campaigns.items())),
        "hosts": dict(sorted(names.items())),
        "runs": [entry["record"] for entry in newest_first],
    }


def browse_index(runs: list[RunDocument]) -> dict[str, Any]:
    """{"campaigns": {id: title}, "hosts": {fingerprint: name}, "runs": [record, ...]} newest
    first; each record holds the run's name (its page's title), the fields the filters match
    (product, version, workload, campaign, host fingerprint, options) and its headline figure
    (pages/run_label.py). js/browse.js draws the filtered list from it, and
    layouts/browse/section.html the whole list for readers without JavaScript. Where two runs
    name a campaign or a host differently, the later run id's name is the index's."""
    return joined_browse_index(browse_entries(runs))
