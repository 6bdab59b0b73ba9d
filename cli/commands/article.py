"""`mybench article new`: an article draft from a finished campaign."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from cli.common import (
    DEFAULT_CONTENT,
    DEFAULT_DATA,
    data_dirs_option,
    directory,
    fail,
    reported_errors,
)
from generator.drafts.article import PLACEHOLDER, DraftError, write_draft
from generator.hugo.load import load_runs


@click.group()
def article() -> None:
    """Article drafts, from a finished campaign."""


@article.command("new")
@click.argument("campaign_id")
@click.option("--slug", help="The article's folder under posts/ (default: the campaign's name).")
@data_dirs_option
@click.option(
    "--content",
    type=directory,
    default=DEFAULT_CONTENT,
    show_default="content/",
    help="The site's content directory: the draft goes to posts/<slug>/index.md in it.",
)
def article_new(
    campaign_id: str, slug: str | None, data_dirs: tuple[Path, ...], content: Path
) -> None:
    """Write a draft of the article on CAMPAIGN_ID: front matter, a tl;dr naming the cells its
    campaign page colours, setup, one section per workload, Reproduce. Never overwrites."""
    with reported_errors():
        runs = [run_file.doc for run_file in load_runs(list(data_dirs or (DEFAULT_DATA,)))]
        try:
            today = datetime.now(UTC).date().isoformat()  # the day the run ids are stamped in
            written = write_draft(runs, campaign_id, content / "posts", slug, today)
        except DraftError as exc:
            fail(str(exc))
    click.echo(f"wrote {written}")
    click.echo(f"replace every {PLACEHOLDER!r}, then preview with: mybench serve")
