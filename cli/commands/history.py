"""`mybench history CAMPAIGN`: the change points of a recurring campaign, in the terminal."""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import DEFAULT_DATA, data_dirs_option, fail, reported_errors
from generator.analysis.history import ChangePoint, History, histories
from generator.hugo.load import load_runs
from generator.pages.numbers import format_number


def change_line(change: ChangePoint) -> str:
    key = change.key
    return (
        f"{key.workload} · {key.variant} · {key.level} · {key.metric} on {key.host}:"
        f" {format_number(change.before.median)} → {format_number(change.after.median)}"
        f" ({format_number(change.ratio)}, 95 % interval {format_number(change.low)} to"
        f" {format_number(change.high)}, {change.direction}; p {change.pvalue:.1g});"
        f" first run after: {change.first_after.run_id}"
    )


def report(name: str, found: list[History]) -> list[str]:
    """What the command prints: a line on the history, then its change points, newest first."""
    runs = {point.run_id for history in found for point in history.points}
    occasions = {point.campaign_id for history in found for point in history.points}
    hosts = {history.key.host for history in found}
    plural = "s" if len(hosts) != 1 else ""
    lines = [
        f"{name}: {len(found)} series from {len(runs)} runs of {len(occasions)} campaigns"
        + f" on {len(hosts)} host{plural}"
    ]
    changes = [change for history in found for change in history.changes]
    if not changes:
        return [*lines, "no change point"]
    changes.sort(key=lambda change: (change.first_after.started_at, change.first_after.run_id))
    lines.append(f"{len(changes)} change point{'s' if len(changes) != 1 else ''}, newest first:")
    return [*lines, *(f"  {change_line(change)}" for change in reversed(changes))]


@click.command()
@click.argument("campaign")
@data_dirs_option
def history(campaign: str, data_dirs: tuple[Path, ...]) -> None:
    """The history of the campaign named CAMPAIGN (its campaign file's name) across its runs on
    each host, and the change points found in it (see the guide's Recurring campaigns page)."""
    with reported_errors():
        runs = [run_file.doc for run_file in load_runs(list(data_dirs or (DEFAULT_DATA,)))]
    occasions = sorted(
        {run["campaign"]["id"] for run in runs if run["campaign"]["name"] == campaign}
    )
    if not occasions:
        fail(f"no run of a campaign named {campaign!r} in the results (--data)")
    if len(occasions) < 2:
        click.echo(f"{campaign} has run once ({occasions[0]}): a history needs two campaigns")
        return
    for line in report(campaign, histories(runs, campaign)):
        click.echo(line)
