"""`mybench validate`: check a results directory as a build would, one line per problem."""

from __future__ import annotations

import sys
from pathlib import Path

import click

import contract
import generator
from cli.common import (
    DEFAULT_DATA,
    directory,
)
from generator.hugo.load import plan_runs


@click.command()
@click.argument("data_dir", type=directory, default=DEFAULT_DATA)
def validate(data_dir: Path) -> None:
    """Check every run file of DATA_DIR (default data/) against the schema, and that every name
    can name a page of its own, as a build would: one line per problem."""
    try:
        runs = plan_runs([data_dir])
    except generator.InvalidData as invalid:
        for problem in invalid.problems:
            click.echo(str(problem))
        sys.exit(1)
    version = contract.SCHEMA_VERSION
    click.echo(
        f"{len(runs)} run file(s) in {data_dir / 'runs'} are valid (schema_version {version})"
    )
