"""`mybench campaign new`: a commented campaign file from a preset."""

from __future__ import annotations

import textwrap
from pathlib import Path

import click

import contract
from cli.common import (
    DEFAULT_MYCNF,
    Count,
    reported_errors,
)
from generator.hugo.left_out import shown
from harness import PROJECT_ROOT
from harness.campaign.estimate import estimate_lines
from harness.campaign.load import load_campaign
from harness.campaign.new import PRESETS, SYSBENCH_TESTS, Overrides, write_campaign


def thread_list(
    _context: click.Context, _param: click.Parameter, text: str | None
) -> list[int] | None:
    """--threads 1,2,4 as a list of thread counts."""
    if text is None:
        return None
    levels = [contract.whole_number(level.strip()) for level in text.split(",")]
    if None in levels:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of counts")
    return [level for level in levels if level is not None]


# \b keeps click from rewrapping the list; each preset's line is wrapped here instead.
PRESETS_HELP = (
    "\b\nPresets (each brings its reference's workloads, sweep and repeats):\n"
    + "\n".join(
        textwrap.fill(
            preset.brings,
            78,
            initial_indent=f"  {name:<10} ",
            subsequent_indent=" " * 13,
            break_on_hyphens=False,
        )
        for name, preset in PRESETS.items()
    )
)


@click.group()
def campaign() -> None:
    """Campaign files, from presets."""


@campaign.command("new", epilog=PRESETS_HELP)
@click.argument("name")
@click.option(
    "--preset",
    "preset_name",
    type=click.Choice(list(PRESETS)),
    required=True,
    help="What the campaign runs (listed below).",
)
@click.option(
    "--server",
    "servers",
    multiple=True,
    metavar="LABEL=BASEDIR",
    help="A server build to sandbox, e.g. mariadb-10-11=/usr (repeatable).",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="[LABEL:]NAME=VALUE[,...]",
    help="A my.cnf variant beside the base: options set over the base my.cnf "
    "(repeatable; the label defaults to the options).",
)
@click.option(
    "--mycnf",
    "base_mycnf",
    type=click.Path(path_type=Path, dir_okay=False),
    default=DEFAULT_MYCNF,
    show_default="campaigns/mycnf/small-vm.cnf",
    help="The base my.cnf of every variant.",
)
@click.option("--title", help="The campaign's title (default: its name).")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where to write it (default: campaigns/NAME.toml).",
)
@click.option(
    "--threads", callback=thread_list, help="Thread levels instead of the preset's, e.g. 1,2."
)
@click.option("--step-seconds", type=Count(1), help="Seconds per step instead of the preset's.")
@click.option(
    "--warmup-seconds",
    type=Count(0),
    help="Seconds of the unmeasured warm-up before each sweep instead of the preset's.",
)
@click.option("--repeats", type=Count(1), help="Passes instead of the preset's.")
@click.option(
    "--test",
    "tests",
    multiple=True,
    type=click.Choice(SYSBENCH_TESTS),
    metavar="TEST",
    help="A sysbench test to run instead of the preset's workloads, on its tables (repeatable;"
    " dimitri, aa and config presets), e.g. oltp_update_index. The guide's Workloads page"
    " describes each.",
)
@click.option(
    "--table-size", type=Count(1), help="Rows per sysbench table instead of the preset's."
)
def campaign_new(
    name: str,
    preset_name: str,
    servers: tuple[str, ...],
    variants: tuple[str, ...],
    base_mycnf: Path,
    title: str | None,
    out: Path | None,
    threads: list[int] | None,
    step_seconds: int | None,
    warmup_seconds: int | None,
    repeats: int | None,
    tests: tuple[str, ...],
    table_size: int | None,
) -> None:
    """Write a commented campaign file NAME from a preset, checked against the campaign schema."""
    with reported_errors():
        written = write_campaign(
            out or PROJECT_ROOT / "campaigns" / f"{name}.toml",
            base_mycnf,
            name,
            preset_name,
            list(servers),
            list(variants),
            title,
            Overrides(threads, step_seconds, repeats, table_size, warmup_seconds, tests),
        )
        lines = estimate_lines(load_campaign(written))
    shown_file = shown(written)
    click.echo(f"wrote {shown_file}")
    for line in lines:
        click.echo(line)
    click.echo("next:")
    click.echo("  1. edit its descriptions: the campaign page shows them")
    click.echo(
        f"  2. commit it (git add {shown_file} && git commit): a run into data/ refuses a campaign"
        " file with uncommitted changes, so the published runs name the commit that ran them"
    )
    click.echo(f"  3. mybench run {shown_file}")
