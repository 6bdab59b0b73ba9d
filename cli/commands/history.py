"""`mybench history [CAMPAIGN]`: the change points of recurring campaigns, in the terminal."""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import DEFAULT_DATA, data_dirs_option, directory, fail, reported_errors
from generator.analysis.history import ChangePoint, History, histories
from generator.hugo.load import load_known_changes, load_runs
from generator.pages.numbers import format_number


def change_line(change: ChangePoint) -> str:
    key = change.key
    line = (
        f"{key.workload} · {key.variant} · {key.level} · {key.metric} on {key.host}:"
        f" {format_number(change.before.median)} → {format_number(change.after.median)}"
        f" ({format_number(change.ratio)}, 95 % interval {format_number(change.low)} to"
        f" {format_number(change.high)}, {change.direction}; p {change.pvalue:.1g});"
        f" first campaign after: {change.first_after.campaign_id}"
    )
    return f"{line}; known: {change.known}" if change.known else line


def report(name: str, found: list[History], new: set[str] | None = None) -> list[str]:
    """What the command prints for one campaign name: a line on its history, then its change
    points, newest first, the unexplained ones before the known ones. new: only the changes
    whose first campaign after holds one of these runs."""
    occasions = {point.campaign_id for history in found for point in history.points}
    runs = {run for history in found for point in history.points for run in point.runs}
    hosts = {history.key.host for history in found}
    plural = "s" if len(hosts) != 1 else ""
    lines = [
        f"{name}: {len(found)} series from {len(runs)} runs of {len(occasions)} campaigns"
        + f" on {len(hosts)} host{plural}"
    ]
    changes = [change for history in found for change in history.changes]
    if new is not None:
        changes = [change for change in changes if new & set(change.first_after.runs)]
    changes.sort(
        key=lambda change: (change.first_after.started_at, change.first_after.campaign_id),
        reverse=True,
    )
    for known, title in ((False, "change point"), (True, "known change")):
        listed = [change for change in changes if bool(change.known) == known]
        if listed or not known:
            count = f"{len(listed)} {title}{'s' if len(listed) != 1 else ''}"
            lines.append(f"{count}, newest first:" if listed else f"no {title}")
            lines += [f"  {change_line(change)}" for change in listed]
    return lines


@click.command()
@click.argument("campaign", required=False)
@data_dirs_option
@click.option(
    "--new",
    "new_dirs",
    type=directory,
    multiple=True,
    help="A folder holding runs just added to the data (every runs/*.json beneath it, as "
    "`mybench import runs` reads them): list only the change points they introduce, in the "
    "campaigns they belong to. Repeatable.",
)
def history(campaign: str | None, data_dirs: tuple[Path, ...], new_dirs: tuple[Path, ...]) -> None:
    """The history of the campaign named CAMPAIGN (its campaign file's name; every recurring
    campaign without it) across its runs on each host, and the change points found in it (see
    the guide's Recurring campaigns page)."""
    dirs = list(data_dirs or (DEFAULT_DATA,))
    for folder in new_dirs:
        if not folder.is_dir():
            fail(f"no folder {folder} (--new)")
    with reported_errors():
        runs = [run_file.doc for run_file in load_runs(dirs)]
        new = {path.stem for folder in new_dirs for path in folder.rglob("runs/*.json")}
        known = load_known_changes(dirs, {run["campaign"]["id"] for run in runs})
    occasions: dict[str, set[str]] = {}
    for run in runs:
        occasions.setdefault(run["campaign"]["name"], set()).add(run["campaign"]["id"])
    if campaign is not None:
        if campaign not in occasions:
            fail(f"no run of a campaign named {campaign!r} in the results (--data)")
        if len(occasions[campaign]) < 2:
            (only,) = occasions[campaign]
            click.echo(f"{campaign} has run once ({only}): a history needs two campaigns")
            return
        names = [campaign]
    else:
        of_new = {run["campaign"]["name"] for run in runs if not new_dirs or run["id"] in new}
        names = sorted(name for name in of_new if len(occasions[name]) >= 2)
        if not names:
            click.echo("no recurring campaign (two campaigns of one name) in the results")
            return
    for name in names:
        for line in report(name, histories(runs, name, known), new if new_dirs else None):
            click.echo(line)
