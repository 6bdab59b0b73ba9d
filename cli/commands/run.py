"""`mybench run`: a campaign file against sandboxed servers, with a progress bar for the
campaign and one for the step being measured; `run_campaign` is also what `reproduce` and
`demo` run."""

from __future__ import annotations

import shlex
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cli.common import (
    allow_dirty_option,
    console,
    data_arguments,
    fail,
    reported_errors,
    results_option,
    workdir_option,
)
from harness.campaign.load import load_campaign, with_host_label
from harness.errors import UserError
from harness.run.campaign_run import CampaignRun
from harness.run.workload_run import Progress as RunProgress


class StepClock:
    """A second bar for the step being measured: seconds elapsed of its length, ticking on its
    own thread because sysbench holds the runner's thread for the whole step."""

    def __init__(self, bar: Progress):
        self._bar = bar
        self._task = bar.add_task("step", total=1, visible=False)
        self._started = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def begin(self, description: str, seconds: int) -> None:
        self._started = time.monotonic()
        self._bar.reset(self._task, total=seconds, description=f"  {description}", visible=True)

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            task = self._bar.tasks[self._task]
            if task.visible and task.total:
                elapsed = min(time.monotonic() - self._started, task.total)
                self._bar.update(self._task, completed=elapsed)


def run_campaign(
    campaign_file: Path,
    data_dir: Path,
    workdir: Path,
    keep_datadir: bool,
    resume_id: str | None = None,
    allow_dirty: bool = False,
    host_label: str | None = None,
    fleet_stamp: str | None = None,
) -> list[Path]:
    """Run the campaign with a progress bar; returns the run files written."""
    campaign = load_campaign(campaign_file)
    as_host = ["--host-label", host_label] if host_label is not None else []
    as_host += ["--fleet", fleet_stamp] if fleet_stamp is not None else []
    if host_label is not None:
        campaign = with_host_label(campaign, host_label)
    command = shlex.join(["mybench", "run", str(campaign_file), *as_host])
    run = CampaignRun(
        campaign,
        data_dir,
        workdir,
        command,
        keep_datadir,
        allow_dirty=allow_dirty,
        resume_id=resume_id,
        fleet_stamp=fleet_stamp,
    )
    for note in run.check():
        console.print(note, markup=False)
    again = ["mybench", "run", str(campaign_file), *as_host, "--data", str(data_dir)]
    again += ["--allow-dirty"] if allow_dirty else []
    finish = Finish(shlex.join(again), shlex.join([*again, "--resume", run.campaign_id]))
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with (
        Progress(*columns, TimeRemainingColumn(), console=console) as bar,
        StepClock(bar) as clock,
    ):
        task = bar.add_task(campaign.name, total=run.total_steps())

        def step_done(summary: str) -> None:
            bar.console.print(summary, markup=False)
            bar.advance(task)

        run.progress = RunProgress(
            on_step=clock.begin,
            on_step_done=step_done,
            on_note=lambda text: bar.console.print(text, markup=False),
        )
        try:
            run.execute()
        except KeyboardInterrupt:
            bar.stop()
            kept = "interrupted: servers stopped, completed steps kept (status partial)"
            fail(f"{kept}; {end_of_campaign(run, finish)}")
        except UserError as exc:
            bar.stop()
            fail(f"{exc}; {end_of_campaign(run, finish)}")
        except Exception:  # a harness bug: what it cost and how to finish, then its traceback
            bar.stop()
            console.print(f"the campaign stopped; {end_of_campaign(run, finish)}", markup=False)
            raise
    how_to_finish = end_of_campaign(run, finish)
    if missing := run.cells.missing():
        summary = f"{len(missing)} of {len(run.cells.planned)} planned run(s) did not complete"
        fail(f"{summary}, the first: {missing[0][1]}; {how_to_finish}")
    print_next_steps(run.campaign_id, data_dir)
    return run.written


def print_next_steps(campaign_id: str, data_dir: Path) -> None:
    """The commands that turn the campaign's runs into a page and an article."""
    data = data_arguments(data_dir)
    console.print("next:", markup=False)
    draft = shlex.join(["mybench", "article", "new", campaign_id, *data])
    console.print(f"  {draft}   (a draft article on campaign {campaign_id})", markup=False)
    preview = shlex.join(["mybench", "serve", *data])
    console.print(f"  {preview}   (the site with its campaign and run pages)", markup=False)


@dataclass(frozen=True)
class Finish:
    """The commands that finish a campaign that stopped early."""

    again: str  # the same campaign from the start
    resume: str  # its --resume: keeps the complete runs, runs the rest


def end_of_campaign(run: CampaignRun, finish: Finish) -> str:
    """Print the runs written and every planned cell that did not complete, with its reason;
    returns how to finish the campaign: --resume once it has a run in the results, else
    again from the start."""
    for path in run.written:
        console.print(f"wrote {path}", markup=False)
    if missing := run.cells.report():
        planned = len(run.cells.planned)
        console.print(
            f"{len(missing)} of {planned} planned run(s) did not complete:", markup=False
        )
        for line in missing:
            console.print(f"  {line}", markup=False)
    if run.written or run.resume_id:
        return f"finish with: {finish.resume}"
    return f"no run was written; start again with: {finish.again}"


@click.command()
@click.argument("campaign_file", type=click.Path(path_type=Path, dir_okay=False))
@results_option
@workdir_option
@click.option(
    "--keep-datadir", is_flag=True, help="Keep each sandbox datadir after its server stops."
)
@click.option(
    "--resume",
    "resume_id",
    metavar="CAMPAIGN_ID",
    help="Finish an interrupted campaign: keep its complete runs, run the rest under its id.",
)
@allow_dirty_option
@click.option(
    "--host-label",
    metavar="LABEL",
    help="This machine's name on the site, instead of the campaign file's [host] label"
    " (one campaign file for every host of a fleet).",
)
@click.option(
    "--fleet",
    "fleet_stamp",
    metavar="STAMP",
    help="Join the fleet dispatched at STAMP (UTC, YYYYMMDD-HHMMSS): the runs of every host"
    " given it form one campaign, <name>-<STAMP>, whose variants are <host label>.<variant>.",
)
def run(
    campaign_file: Path,
    data_dir: Path,
    workdir: Path,
    keep_datadir: bool,
    resume_id: str | None,
    allow_dirty: bool,
    host_label: str | None,
    fleet_stamp: str | None,
) -> None:
    """Run CAMPAIGN_FILE (TOML) against sandboxed servers and write one JSON per run."""
    with reported_errors():
        run_campaign(
            campaign_file,
            data_dir,
            workdir,
            keep_datadir,
            resume_id,
            allow_dirty,
            host_label,
            fleet_stamp,
        )
