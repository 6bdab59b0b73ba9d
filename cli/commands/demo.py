"""`mybench demo`: the demo campaign on a sandboxed MariaDB, and a site built from it."""

from __future__ import annotations

import time
from pathlib import Path

import click

from cli.commands.build import build_with
from cli.commands.run import run_campaign
from cli.common import (
    DEFAULT_DATA,
    DEMO_CAMPAIGN,
    DEMO_SCRATCH,
    directory,
    reported_errors,
)


@click.command()
@click.option(
    "--scratch",
    type=directory,
    default=DEMO_SCRATCH,
    show_default=".scratch/demo/",
    help="Scratch directory (git ignores .scratch/).",
)
def demo(scratch: Path) -> None:
    """Run the demo campaign on a sandboxed MariaDB and build a site from it (a few minutes)."""
    started = time.monotonic()
    data_dir = scratch / "data"
    public = scratch / "public"
    with reported_errors():
        run_campaign(DEMO_CAMPAIGN, data_dir, scratch / "sandboxes", keep_datadir=False)
        # The committed results come along so the articles that cite them still build.
        summary = build_with((DEFAULT_DATA, data_dir), scratch / "build", destination=public)
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    click.echo(summary)
    click.echo(f"demo finished in {minutes}m{seconds:02d}s")
    click.echo(f"results: {data_dir / 'runs'}")
    click.echo(f"site:    {public / 'index.html'}")
    click.echo(f"preview: .venv/bin/mybench serve --data data --data {data_dir}")
