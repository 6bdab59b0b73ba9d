"""`mybench serve`: preview the site with live reload."""

from __future__ import annotations

from pathlib import Path

import click

import generator
from cli.common import (
    DEFAULT_DATA,
    Count,
    build_dir_option,
    data_dirs_option,
    reported_errors,
)


@click.command()
@data_dirs_option
@build_dir_option
@click.option("--port", type=Count(1, 65535), help="Port on 127.0.0.1 (default: a free one).")
def serve(data_dirs: tuple[Path, ...], build_dir: Path, port: int | None) -> None:
    """Preview the site with live reload; new or changed results are regenerated. Articles
    whose campaigns or runs the data lacks are left out, as build leaves them out."""
    with reported_errors():
        generator.serve(list(data_dirs or (DEFAULT_DATA,)), build_dir, port)
