"""`mybench import sysbench|table|runs`: results from elsewhere into the results directory
(harness/importing/ does the work; this wires its options)."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import cast

import click

from cli.common import (
    Count,
    directory,
    fail,
    reported_errors,
    results_option,
)
from harness.importing.documents import Provenance
from harness.importing.landing import Arrival, land
from harness.importing.merge import gather
from harness.importing.sidecar import plan_logs
from harness.importing.sources import read_source
from harness.importing.summary_table import ThreadsDefault, import_table
from harness.importing.sysbench_logs import import_logs


@click.group("import")
def import_() -> None:
    """Bring results from elsewhere: sysbench logs, published tables, other run documents."""


def server_options(command: Callable[..., None]) -> Callable[..., None]:
    """What a log or table may not say about where it ran: shared by import sysbench/table."""
    for option in reversed(
        [
            click.option("--title", help="Campaign title (default: its name)."),
            click.option("--test", help="The sysbench test, e.g. oltp_read_only."),
            click.option(
                "--product",
                "server_product",
                type=click.Choice(["mariadb", "mysql", "percona"]),
                help="Server product.",
            ),
            click.option("--server-version", help="Server version, e.g. 10.11.6."),
            click.option("--host", help="A label for the machine the figures come from."),
            click.option(
                "--my-cnf",
                type=click.Path(path_type=Path, dir_okay=False),
                help="The server's option file, when you have it.",
            ),
            results_option,
        ]
    ):
        command = option(command)
    return command


def iso_date(value: str | None) -> str | None:
    """A YYYY-MM-DD date, kept as the user wrote it."""
    if value is not None:
        try:
            datetime.strptime(value, "%Y-%m-%d")
        except ValueError:
            raise click.BadParameter(f"{value!r} is not a YYYY-MM-DD date") from None
    return value


def import_command(context: click.Context) -> str:
    """The import command as given (recorded in origin.command): arguments, then the options
    that differ from their defaults; a file or folder by its name alone, since the command is
    published and the importer's paths are nobody's business."""

    def word(value: object) -> str:
        return value.name if isinstance(value, Path) else str(value)

    words = ["mybench", "import", context.info_name or ""]
    for param in context.command.params:
        value = context.params.get(param.name or "")
        if value in (None, (), False) or value == param.default:
            continue
        values = value if isinstance(value, tuple) else (value,)
        if isinstance(param, click.Argument):
            words += [word(v) for v in values]
        else:
            flag = param.opts[0]
            words += [w for v in values for w in (flag, word(v))]
    return shlex.join(words)


def land_and_report(
    arrivals: list[Arrival], data_dir: Path, files: dict[str, bytes] | None = None
) -> None:
    landed = land(arrivals, data_dir, files)
    for note in (note for arrival in arrivals for note in arrival.notes):
        click.echo(note)
    for path in landed.written:
        click.echo(f"wrote {path.stem}: {path}")
    for path in landed.unchanged:
        click.echo(f"unchanged {path.stem}: already in {path}")
    click.echo(
        f"{len(landed.written)} run(s) written, {len(landed.unchanged)} already there,"
        f" in {data_dir / 'runs'}"
    )


@import_.command("sysbench")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--sidecar",
    type=click.Path(path_type=Path, dir_okay=False),
    help="TOML file with what the logs cannot say (see the guide's Importing results).",
)
@click.option("--campaign", help="Campaign name (a slug).")
@click.option("--variant", help="The variant these logs are.")
@click.option("--workload", help="Workload name (default: the test).")
@click.option(
    "--threads",
    type=Count(1),
    multiple=True,
    help="Thread count of a log without 'Number of threads' (repeat, in order).",
)
@click.option("--tool-command", help="The command that produced the logs.")
@server_options
@click.pass_context
def import_sysbench(context: click.Context, /, files: tuple[Path, ...], **options: object) -> None:
    """Import sysbench 1.0.x output FILES (one per thread level, or several runs each)."""
    data_dir = cast(Path, options.pop("data_dir"))
    sidecar = cast("Path | None", options.pop("sidecar"))
    with reported_errors():
        plan = plan_logs(sidecar, list(files), options)
        arrivals = import_logs(plan, Provenance("sysbench-log", import_command(context)))
        land_and_report(arrivals, data_dir)


@import_.command("table")
@click.argument("csv_file", metavar="CSV", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--url", help="Where the figures were published.")
@click.option(
    "--published",
    callback=lambda _context, _param, value: iso_date(value),
    help="The date they were published (YYYY-MM-DD).",
)
@click.option("--note", help="A note shown with the runs.")
@click.option(
    "--threads",
    type=Count(1),
    help="The thread level of every row, for a table without a threads column.",
)
@click.option(
    "--threads-source",
    metavar="TEXT",
    help='Where the source states --threads (shown with the runs), e.g. "the post: 1 client".',
)
@server_options
@click.pass_context
def import_table_(
    context: click.Context,
    /,
    csv_file: Path,
    url: str | None,
    published: str | None,
    note: str | None,
    threads: int | None,
    threads_source: str | None,
    data_dir: Path,
    my_cnf: Path | None,
    **facts: str | None,
) -> None:
    """Import a CSV of summary figures: one run per campaign, host, variant and workload."""
    with reported_errors():
        if (threads is None) != (threads_source is None):
            fail("--threads and --threads-source go together: the level, and where it is stated")
        provenance = Provenance(
            "summary-table",
            import_command(context),
            url=url,
            published=published,
            note=note,
        )
        server_cnf = read_source(my_cnf) if my_cnf is not None else None
        given = ThreadsDefault(threads, threads_source) if threads and threads_source else None
        arrivals = import_table(read_source(csv_file), facts, server_cnf, provenance, given)
        land_and_report(arrivals, data_dir)


@import_.command("runs")
@click.argument("directories", metavar="DIR...", nargs=-1, required=True, type=directory)
@results_option
def import_runs(directories: tuple[Path, ...], data_dir: Path) -> None:
    """Merge the run documents under DIR... (another machine's results) into the results."""
    with reported_errors():
        arrivals, files = gather(list(directories))
        land_and_report(arrivals, data_dir, files)
