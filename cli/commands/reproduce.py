"""`mybench reproduce`: run a published run again here and print how to compare the two."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from cli.commands.run import run_campaign
from cli.common import (
    DEFAULT_DATA,
    Count,
    allow_dirty_option,
    console,
    data_dirs_option,
    directory,
    reported_errors,
    workdir_option,
)
from harness.reproduce import plan as reproduction


@click.command()
@click.argument("run_ref", metavar="RUN")
@data_dirs_option
@click.option(
    "--results",
    type=directory,
    default=DEFAULT_DATA,
    show_default="data/",
    help="Results directory: the new run goes to runs/, the campaign file to reproduce/.",
)
@click.option(
    "--basedir",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="Server build to use (default: found by the run's product and version).",
)
@click.option("--repeats", type=Count(1, 100), default=1, show_default=True, help="Passes to run.")
@click.option(
    "--allow-private-addresses",
    "allow_private",
    is_flag=True,
    help="Fetch from private, loopback and link-local addresses too (a site on this network).",
)
@workdir_option
@allow_dirty_option
def reproduce(
    run_ref: str,
    data_dirs: tuple[Path, ...],
    results: Path,
    basedir: Path | None,
    repeats: int,
    allow_private: bool,
    workdir: Path,
    allow_dirty: bool,
) -> None:
    """Run RUN again here: a run id, a path to its run.json, or the http(s) URL of its run.json
    or run page. Writes the rebuilt campaign file beside the results and prints the compare
    URL. A document from elsewhere than the data directories runs confined to its sandbox."""
    with reported_errors():
        lookup = list(data_dirs or (DEFAULT_DATA,))
        plan = reproduction.prepare(run_ref, lookup, results, basedir, repeats, allow_private)
        for note in plan.notes:
            console.print(note, markup=False)
        console.print(f"campaign file: {plan.campaign_file}", markup=False)
        written = run_campaign(
            plan.campaign_file, results, workdir, keep_datadir=False, allow_dirty=allow_dirty
        )
    original = plan.original.document
    preview = dict.fromkeys([plan.original_data_dir, results])
    serve = shlex.join(["mybench", "serve", *(f"--data={d}" for d in preview)])
    click.echo(f"reproduced {original['id']} as {', '.join(p.stem for p in written)}")
    if original["workload"]["tool"] == "ibench":  # the compare page draws thread sweeps
        pages = " ".join(f"/runs/{path.stem}/" for path in written)
        click.echo(f"preview: {serve}, then open /runs/{original['id']}/ and {pages}")
    else:
        click.echo(f"preview: {serve}")
        click.echo(f"compare: /{reproduction.compare_path(original, [p.stem for p in written])}")
