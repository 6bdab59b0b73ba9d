"""A recurring campaign's history page (/history/<name>/) and its rows of the /changes/ page, as
one small data file (data/history/<name>.json, hugo.Data.history.<name>), read by the history
pages' content adapter, the page and the changes list; and its charts (figures/history.py).

Everything a template prints is formatted here (pages/numbers.py): the charts' summary tables,
each change's before → after with its interval, and its links: the first campaign and run after
the change, and a comparison of the passes either side (the compare page draws sysbench runs
only, so an Insert Benchmark change links its two campaigns instead)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from contract import KnownChange, RunDocument, page_segment
from generator.analysis.history import ChangePoint, History, histories
from generator.figures.history import history_figure
from generator.figures.plain import Figure
from generator.hugo import site_contract as site
from generator.pages.numbers import format_number

# the compare page's metric names (js/compare/state.js) of the history's sysbench metrics
COMPARED_METRICS = {"tps": "tps", "p95": "p95"}


def metric_slug(metric: str) -> str:
    return metric.replace("/", "-per-")


def host_slug(host: str) -> str:
    """The host's short fingerprint: the last part of hosts.host_of's name."""
    return host.rsplit(" · ", 1)[-1]


def chart_anchor(history: History) -> str:
    key = history.key
    parts = (host_slug(key.host), key.workload, key.variant, metric_slug(key.metric))
    return "history-" + "-".join(parts).replace(".", "-")


def _charts(found: list[History]) -> dict[tuple[str, str, str, str], list[History]]:
    """The levels of each chart: host, workload, variant, metric, in the order they appear."""
    charts: dict[tuple[str, str, str, str], list[History]] = {}
    for history in found:
        key = history.key
        charts.setdefault((key.host, key.workload, key.variant, key.metric), []).append(history)
    return charts


def _row(history: History) -> list[str]:
    values = [point.value for point in history.points]
    latest = history.points[-1]
    return [
        history.key.level,
        str(len(history.points)),
        format_number(latest.value),
        f"{format_number(min(values))} to {format_number(max(values))}",
        str(len(history.changes)),
    ]


def _change_row(change: ChangePoint, anchor: str, name: str) -> dict[str, Any]:
    key = change.key
    row: dict[str, Any] = {
        "date": change.first_after.started_at,
        "campaign": name,
        "test": f"{key.workload} · {key.variant} · {key.level} · {key.metric}",
        "host": key.host,
        "before": format_number(change.before.median),
        "after": format_number(change.after.median),
        "ratio": format_number(change.ratio),
        "interval": f"{format_number(change.low)} to {format_number(change.high)}",
        "direction": change.direction,
        "occasions": f"{change.before.points} before, {change.after.points} after",
        "pvalue": f"{change.pvalue:.1g}",
        "first_campaign": change.first_after.campaign_id,
        "first_run": change.first_after.runs[0],
        "last_campaign": change.last_before.campaign_id,
        "chart": anchor,
        "known": change.known or "",  # its reason, when a known change names it
    }
    if key.metric in COMPARED_METRICS:
        runs = ",".join([*change.last_before.runs, *change.first_after.runs])
        row["compare"] = (
            f"?runs={runs}&workload={key.workload}&metric={COMPARED_METRICS[key.metric]}"
        )
    return row


def _known_row(known: KnownChange) -> dict[str, str]:
    scope = [known[field] for field in ("host", "workload", "variant", "level", "metric")
             if field in known]  # fmt: skip
    return {
        "since": known["since"],
        "reason": known["reason"],
        "scope": " · ".join(scope) or "every series",
    }


def history_files(
    name: str, runs: list[RunDocument], known: Iterable[KnownChange]
) -> tuple[dict[str, Any] | None, dict[str, Figure]]:
    """(the data file, its figures by path) of the recurring campaign `name` from its runs;
    (None, {}) while no host has two of its campaigns."""
    own = [change for change in known if change["campaign"] == name]
    found = histories(runs, name, own)
    if not found:
        return None, {}
    latest = max(runs, key=lambda run: (run["started_at"], run["id"]))
    segment = page_segment(name)
    hosts: dict[str, dict[str, Any]] = {}
    figures: dict[str, Figure] = {}
    changes = []
    for (host, workload, variant, metric), series in _charts(found).items():
        anchor = chart_anchor(series[0])
        rel = site.history_figure(
            segment, host_slug(host), workload, f"{variant}-{metric_slug(metric)}"
        )
        figures[rel] = history_figure(series)
        on_host = hosts.setdefault(host, {"name": host, "workloads": {}})
        charts = on_host["workloads"].setdefault(workload, [])
        charts.append(
            {
                "figure": rel.removeprefix(site.STATIC + "/"),
                "id": anchor,
                "title": f"{workload} · {variant} · {metric}",
                "label": f"{metric} of {workload}, variant {variant}, on {host}, per campaign",
                "rows": [_row(history) for history in series],
            }
        )
        changes += [_change_row(c, anchor, name) for history in series for c in history.changes]
    changes.sort(key=lambda row: (row["date"], row["test"]), reverse=True)
    occasions = sorted({run["campaign"]["id"] for run in runs})
    data = {
        "path": segment,
        "title": f"History: {latest['campaign']['title']}",
        "date": latest["started_at"],
        "params": {"history": name},
        "name": name,
        "campaigns": len(occasions),
        "runs": len(runs),
        "first": min(run["started_at"] for run in runs),
        "last": latest["started_at"],
        "latest_campaign": latest["campaign"]["id"],
        "hosts": [
            {
                "name": host["name"],
                "workloads": [
                    {"name": workload, "charts": charts}
                    for workload, charts in host["workloads"].items()
                ],
            }
            for host in hosts.values()
        ],
        "changes": changes,
        "known": [_known_row(change) for change in own],
    }
    return data, figures
