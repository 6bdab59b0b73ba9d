"""`mybench storage`: the datadir's storage characterised with fio, as every campaign records it."""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import (
    DEFAULT_WORKDIR,
    console,
    directory,
    reported_errors,
)
from harness.measure import storage as measured_storage


@click.command()
@click.option(
    "--datadir-at",
    type=directory,
    default=DEFAULT_WORKDIR,
    show_default=".scratch/sandboxes/",
    help="Where datadirs will live: fio measures that filesystem.",
)
@click.option("--refresh", is_flag=True, help="Measure again rather than read the cache.")
def storage(datadir_at: Path, refresh: bool) -> None:
    """Characterise the datadir's storage with fio (fdatasync latency, 16 KiB random reads,
    sequential writes), as every campaign records it; cached per host and device."""
    with reported_errors():
        if refresh or not measured_storage.is_cached(datadir_at):
            console.print(f"measuring the storage under {datadir_at} with fio", markup=False)
        found, cached = measured_storage.characterise(datadir_at, refresh=refresh)
    click.echo(f"storage under {datadir_at}{' (from the cache)' if cached else ''}:")
    for line in measured_storage.report_lines(found):
        click.echo(line)
