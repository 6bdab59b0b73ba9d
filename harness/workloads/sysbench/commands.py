"""Drive the system sysbench 1.0.20 binary: command lines, prepare/run/cleanup, version check."""

from __future__ import annotations

import re
import shlex
import shutil
import signal
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from harness import PROJECT_ROOT
from harness.errors import UserError
from harness.servers.sysbench_target import Target
from harness.workloads.sysbench import project_lua

if TYPE_CHECKING:
    from harness.model.campaign import Workload

SUPPORTED_VERSION = "1.0.20"
# Every published reference uses uniform keys; sysbench's default is "special" (75 % of hits on
# 1 % of rows), and prepare-time draws shape the k column, so it is passed to every command.
ALWAYS = {"rand-type": "uniform"}
RUN_ONLY = {"report-interval": "1", "histogram": "on"}


def sysbench_binary() -> str:
    path = shutil.which("sysbench")
    if path is None:
        raise UserError("sysbench not found on PATH (Debian package 'sysbench')")
    return path


def sysbench_version(binary: str) -> str:
    output = subprocess.run(
        check=False, args=[binary, "--version"], capture_output=True, text=True
    ).stdout
    match = re.search(r"sysbench (\S+)", output)
    if match is None:
        raise UserError(f"{binary}: cannot read its version from {output!r}")
    return match[1]


def workload_options(workload: Workload) -> dict[str, str]:
    """The options that define the data and the statements, as recorded in the run document."""
    return {
        "tables": str(workload.tables),
        "table-size": str(workload.table_size),
        **ALWAYS,
        **workload.options,
    }


def command(
    binary: str, workload: Workload, target: Target, action: str, extra: dict[str, str]
) -> list[str]:
    options = {**target.options(), **workload_options(workload), **extra}
    is_ours = project_lua.is_project_test(workload.test)
    return [
        binary,
        str(project_lua.script(workload.test)) if is_ours else workload.test,
        *(f"--{name}={value}" for name, value in options.items()),
        action,
    ]


# A password shown as an environment variable stays a shell expansion in the rendered command.
_SHELL_PASSWORD = re.compile(r'--mysql-password="\$[A-Za-z_][A-Za-z0-9_]*"')


def _readable(arg: str) -> str:
    """The binary by name and the project's Lua by its path in the repository."""
    if arg.endswith("/sysbench"):
        return "sysbench"
    if arg.endswith(".lua") and Path(arg).is_relative_to(PROJECT_ROOT / "harness"):
        return str(Path(arg).relative_to(PROJECT_ROOT))
    return arg


def render(argv: list[str]) -> str:
    """A shell-ready command line, with the binary by name so it reads as a reader would type it."""
    return " ".join(
        arg if _SHELL_PASSWORD.fullmatch(arg) else shlex.quote(arg)
        for arg in (_readable(arg) for arg in argv)
    )


class SysbenchFailed(Exception):
    def __init__(self, argv: list[str], returncode: int, output: str):
        tail = [line for line in output.strip().splitlines() if line.strip()][-3:]
        super().__init__(f"sysbench {argv[-1]} exited with {returncode}: {' | '.join(tail)}")
        self.output = output


def execute(argv: list[str]) -> str:
    """Run to completion; on Ctrl-C sysbench gets SIGINT too (same process group), is reaped,
    and KeyboardInterrupt propagates to the caller."""
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output, _ = process.communicate()
    except KeyboardInterrupt:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        raise
    if process.returncode != 0:
        raise SysbenchFailed(argv, process.returncode, output)
    return output


def prepare_argv(binary: str, workload: Workload, target: Target) -> list[str]:
    # prepare builds table i in thread (i-1) mod threads: one thread per table loads in parallel.
    return command(binary, workload, target, "prepare", {"threads": str(workload.tables)})


def _run_table_size(workload: Workload) -> dict[str, str]:
    if workload.suite is not None and workload.suite.run_table_size is not None:
        # ids drawn from [1, n] while the table keeps its rows (Callaghan's update-one)
        return {"table-size": str(workload.suite.run_table_size)}
    return {}


def run_argv(
    binary: str, workload: Workload, target: Target, threads: int, seconds: int
) -> list[str]:
    extra = {"threads": str(threads), "time": str(seconds), **RUN_ONLY}
    return command(binary, workload, target, "run", {**extra, **_run_table_size(workload)})


def events_argv(binary: str, workload: Workload, target: Target, events: int) -> list[str]:
    """Exactly `events` events (transactions) at one thread, however long they take."""
    extra = {"threads": "1", "events": str(events), "time": "0"}
    return command(binary, workload, target, "run", {**extra, **_run_table_size(workload)})


def cleanup_argv(binary: str, workload: Workload, target: Target) -> list[str]:
    return command(binary, workload, target, "cleanup", {})
