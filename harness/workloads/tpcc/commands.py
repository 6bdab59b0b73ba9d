"""Command lines for the project's TPC-C-like Lua (lua/tpcc.lua beside this package):
`prepare` (parallel load: table sets and warehouses dealt over --threads), `run`, `check`
(consistency conditions of TPC-C clause 3.3.2, one line per condition and set) and `cleanup`.
"""

from __future__ import annotations

from pathlib import Path

from harness.model.tpcc_options import TpccOptions
from harness.servers.sysbench_target import Target
from harness.workloads.sysbench.commands import ALWAYS, RUN_ONLY

LUA_DIR = Path(__file__).resolve().parent / "lua"
SCRIPT = LUA_DIR / "tpcc.lua"


def command(
    binary: str,
    target: Target,
    options: TpccOptions,
    action: str,
    extra: dict[str, str] | None = None,
) -> list[str]:
    merged = {**target.options(), **ALWAYS, **options.sysbench_options(), **(extra or {})}
    return [binary, str(SCRIPT), *(f"--{name}={value}" for name, value in merged.items()), action]


def _capped(n: int) -> int:
    return max(1, min(n, 16))


def prepare_argv(
    binary: str, target: Target, options: TpccOptions, threads: int | None = None
) -> list[str]:
    """Loaders: by default one per (set, warehouse), at most 16."""
    loaders = threads if threads is not None else _capped(options.tables * options.scale)
    return command(binary, target, options, "prepare", {"threads": str(loaders)})


def run_argv(
    binary: str, target: Target, options: TpccOptions, threads: int, seconds: int
) -> list[str]:
    extra = {"threads": str(threads), "time": str(seconds), **RUN_ONLY}
    return command(binary, target, options, "run", extra)


def check_argv(
    binary: str,
    target: Target,
    options: TpccOptions,
    after_load: bool = False,
    threads: int | None = None,
) -> list[str]:
    """after_load: the data was just loaded (adds condition 11 and the row counts)."""
    extra = {"threads": str(threads if threads is not None else _capped(options.tables))}
    if after_load:
        extra["after_load"] = "on"
    return command(binary, target, options, "check", extra)


def cleanup_argv(binary: str, target: Target, options: TpccOptions) -> list[str]:
    return command(binary, target, options, "cleanup")


# --- per-type statistics --------------------------------------------------------------------------
