"""What every `mybench` command shares: the console (stderr), the default folders, the
options several commands take, and the one way a failure a user can act on is reported."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import click
from rich.console import Console

import contract
import generator
from generator.hugo.left_out import shown
from harness import PROJECT_ROOT
from harness.errors import ServerStartError, UserError

console = Console(stderr=True, highlight=False, soft_wrap=True)
DEFAULT_DATA = PROJECT_ROOT / "data"
DEFAULT_WORKDIR = PROJECT_ROOT / ".scratch" / "sandboxes"
DEFAULT_BUILD = PROJECT_ROOT / "build"
DEFAULT_CONTENT = PROJECT_ROOT / "content"
DEFAULT_MYCNF = PROJECT_ROOT / "campaigns" / "mycnf" / "small-vm.cnf"
DEMO_CAMPAIGN = PROJECT_ROOT / "campaigns" / "demo.toml"
DEMO_SCRATCH = PROJECT_ROOT / ".scratch" / "demo"

directory = click.Path(path_type=Path, file_okay=False)


def data_arguments(data_dir: Path) -> list[str]:
    """--data DIR for a next command, nothing for the default results directory."""
    return [] if data_dir.resolve() == DEFAULT_DATA.resolve() else ["--data", shown(data_dir)]


class Count(click.IntRange):
    """A whole number in ASCII digits, within the range: click's own reads int(), which also
    takes other scripts' digits and 1_000 (contract/_numbers.py)."""

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, str) and contract.whole_number(value) is None:
            self.fail(f"{value!r} is not a whole number in ASCII digits", param, ctx)
        return int(super().convert(cast(Any, value), param, ctx))


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
    except generator.ArticleProblems as exc:
        fail(f"{exc.summary}; nothing was published", exc.lines)
    except (UserError, generator.BuildError) as exc:
        fail(str(exc))
