"""`mybench build`: validate the results, generate figures and tables, build the site with Hugo."""

from __future__ import annotations

from pathlib import Path

import click

import generator
from cli.common import (
    DEFAULT_DATA,
    build_dir_option,
    console,
    data_dirs_option,
    directory,
    reported_errors,
)


def build_with(
    data_dirs: tuple[Path, ...],
    build_dir: Path,
    destination: Path | None = None,
    base_url: str | None = None,
    require_articles: bool = False,
) -> str:
    """Build, warn on stderr of each article left out (its data lacks runs it needs), and
    return the report's line."""
    report = generator.build_site(
        list(data_dirs or (DEFAULT_DATA,)),
        build_dir,
        destination,
        base_url,
        require_articles=require_articles,
    )
    for article in report.left_out:
        console.print(str(article), soft_wrap=True, markup=False)
    return str(report)


@click.command()
@data_dirs_option
@build_dir_option
@click.option(
    "--destination", type=directory, help="Where Hugo writes the site (default: site/public)."
)
@click.option("--base-url", help="Public base URL, e.g. https://user.github.io/repo/.")
@click.option(
    "--require-articles",
    is_flag=True,
    help="Fail instead of leaving out an article whose campaigns or runs the data lacks"
    " (make build, which publishes the committed site, passes it).",
)
def build(
    data_dirs: tuple[Path, ...],
    build_dir: Path,
    destination: Path | None,
    base_url: str | None,
    require_articles: bool,
) -> None:
    """Validate the results, generate figures and tables, and build the site with Hugo.

    An article that embeds or links a campaign or run none of the data dirs holds is left out
    (one warning line each on stderr), unless --require-articles makes that an error."""
    with reported_errors():
        click.echo(
            build_with(
                data_dirs,
                build_dir,
                destination=destination,
                base_url=base_url,
                require_articles=require_articles,
            )
        )
