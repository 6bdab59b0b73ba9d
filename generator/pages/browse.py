"""The results index behind /browse/: one small record per run, filtered in the browser.

Only what the filters and the list show: per-second series, variables and my.cnf stay in each
run's run.json. Every visitor of /browse/ downloads the whole index, so an option value is cut
to OPTION_VALUE_CHARS characters (ending in "…") here: the run page holds it in full. The compare page keeps its own index (pages/compare_index.py); the two answer
different questions and change for different reasons.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument
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
        settings = [run["server"]["my_cnf_options"] for run in campaign_runs]
        names = {name for options_set in settings for name in options_set}
        varying = {name for name in names if len({s.get(name) for s in settings}) > 1}
        for run, setting in zip(campaign_runs, settings, strict=True):
            options[run["id"]] = sorted(
                f"{n}={shortened(setting[n])}" for n in varying if n in setting
            )
    return options


def browse_index(runs: list[RunDocument]) -> dict[str, Any]:
    """{"campaigns": {id: title}, "hosts": {fingerprint: name}, "runs": [record, ...]} newest
    first; each record holds the run's name (its page's title), the fields the filters match
    (product, version, workload, campaign, host fingerprint, options) and its headline figure
    (pages/run_label.py). js/browse.js draws the filtered list from it, and
    layouts/browse/section.html the whole list for readers without JavaScript."""
    options = variant_options(runs)
    hosts = {run["id"]: host_of(run) for run in runs}
    records = [
        {
            "id": run["id"],
            "date": run["started_at"][:10],
            "name": run_name(run),
            "product": product_name(run),
            "version": run["server"]["version"],
            "workload": run["workload"]["name"],
            "campaign": run["campaign"]["id"],
            "host": hosts[run["id"]]["fingerprint"],
            "status": run["status"],
            "options": options[run["id"]],
            "headline": run_headline(run),
        }
        for run in sorted(runs, key=lambda run: (run["started_at"], run["id"]), reverse=True)
    ]
    campaigns = {run["campaign"]["id"]: run["campaign"]["title"] for run in runs}
    names = {host["fingerprint"]: host["name"] for host in hosts.values()}
    return {
        "campaigns": dict(sorted(campaigns.items())),
        "hosts": dict(sorted(names.items())),
        "runs": records,
    }
