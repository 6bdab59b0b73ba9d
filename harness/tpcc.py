"""The TPC-C-like workload (workloads.md W4): command lines for the project's Lua in
harness/lua/tpcc/ (run by the system sysbench 1.0.20), and parsers for what it prints.

Commands: `prepare` (parallel load: table sets and warehouses dealt over --threads), `run`,
`check` (consistency conditions of TPC-C clause 3.3.2, one line per condition and set) and
`cleanup`. `--tpcc_mode=compat` reproduces sysbench-tpcc (mix, access pattern, quirks) so
results compare with published sysbench-tpcc numbers; `spec` fixes its deviations.

Per-type statistics: sysbench gives each worker thread its own Lua state, so every thread
counts for itself and prints one `tpcc-stats {json}` line when it ends; parse_stats() adds the
lines up (counts, commits, user rollbacks, retries, a merged latency histogram) and derives the
achieved mix and a tpmC-like figure, always labelled unaudited. Nothing here is a TPC-C result.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import sysbench

LUA_DIR = Path(__file__).resolve().parent / "lua" / "tpcc"
SCRIPT = LUA_DIR / "tpcc.lua"
TEST_NAME = "tpcc"  # a campaign's `test = "tpcc"`
TABLES = ("item", "warehouse", "district", "customer", "history", "orders", "new_orders",
          "stock", "order_line")  # fmt: skip

MODES = ("compat", "spec")
TRX_LEVELS = ("RR", "RC", "SER", "RU")
ITEMS_RULE = 100_000  # rows per item table and stock rows per warehouse (population rule)
TYPES = ("new_order", "payment", "order_status", "delivery", "stock_level", "purge")
# Draw weights: uniform(1, 23) (24 with purge): 10 New-Order, 10 Payment, 1 of each other type.
WEIGHTS = {"new_order": 10, "payment": 10, "order_status": 1, "delivery": 1, "stock_level": 1}
TPMC_LABEL = "tpmC-like: New-Order commits per minute (unaudited, TPC-C-like, not a TPC-C result)"

_COUNTERS = ("count", "commits", "rollbacks", "retries", "deadlocks", "lock_waits", "other_errors")
_STATS_PREFIX = "tpcc-stats "
_CHECK_PREFIX = "tpcc-check "
CONDITIONS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "rows")
PURGE_BREAKS = ("8", "9", "10", "12")


class TpccOutputError(ValueError):
    pass


@dataclass(frozen=True)
class TpccOptions:
    """The workload's options; sysbench_options() is what goes on the command line."""

    scale: int = 1  # warehouses per table set
    tables: int = 1  # independent table sets
    mode: str = "compat"
    use_fk: bool = True
    force_pk: bool = False
    trx_level: str = "RR"
    enable_purge: bool = False
    storage_engine: str = "innodb"
    table_options: str = ""
    items: int = ITEMS_RULE  # smaller only for tests; recorded
    nurand_c: str = ""  # spec mode: "last,id,item"; empty = the Lua's fixed constants

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"tpcc mode must be one of {MODES}, not {self.mode!r}")
        if self.trx_level not in TRX_LEVELS:
            raise ValueError(f"trx_level must be one of {TRX_LEVELS}, not {self.trx_level!r}")
        if self.scale < 1 or self.tables < 1 or self.items < 100:
            raise ValueError("scale and tables must be >= 1, items >= 100")

    @classmethod
    def from_options(cls, options: dict[str, object]) -> TpccOptions:
        """From sysbench-style option names (dashes or underscores), as a campaign writes them:
        {"tables": 10, "scale": 100, "tpcc_mode": "spec", "use_fk": 0, "enable_purge": "yes"}."""
        given = {name.replace("-", "_"): value for name, value in options.items()}
        known = {"scale", "tables", "tpcc_mode", "use_fk", "force_pk", "trx_level",
                 "enable_purge", "mysql_storage_engine", "mysql_table_options", "items",
                 "nurand_c"}  # fmt: skip
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(f"unknown tpcc option(s): {', '.join(unknown)}")

        def flag(value: object) -> bool:
            return str(value).lower() in ("1", "yes", "on", "true")

        fields: dict[str, Any] = {}
        for name, field_name, convert in (
            ("scale", "scale", int),
            ("tables", "tables", int),
            ("tpcc_mode", "mode", str),
            ("use_fk", "use_fk", flag),
            ("force_pk", "force_pk", flag),
            ("trx_level", "trx_level", str),
            ("enable_purge", "enable_purge", flag),
            ("mysql_storage_engine", "storage_engine", str),
            ("mysql_table_options", "table_options", str),
            ("items", "items", int),
            ("nurand_c", "nurand_c", str),
        ):
            if name in given:
                fields[field_name] = convert(given[name])
        return cls(**fields)

    def sysbench_options(self) -> dict[str, str]:
        options = {
            "scale": str(self.scale),
            "tables": str(self.tables),
            "tpcc_mode": self.mode,
            "use_fk": "1" if self.use_fk else "0",
            "force_pk": "1" if self.force_pk else "0",
            "trx_level": self.trx_level,
            "enable_purge": "yes" if self.enable_purge else "no",
            "mysql_storage_engine": self.storage_engine,
        }
        if self.table_options:
            options["mysql_table_options"] = self.table_options
        if self.items != ITEMS_RULE:
            options["items"] = str(self.items)
        if self.nurand_c:
            options["nurand_c"] = self.nurand_c
        return options

    def describe(self) -> dict[str, Any]:
        """The run document's workload.tpcc."""
        return {
            "mode": self.mode,
            "scale": self.scale,
            "table_sets": self.tables,
            "warehouses": self.scale * self.tables,
            "items": self.items,
            "items_rule": self.items == ITEMS_RULE,
            "use_fk": self.use_fk,
            "force_pk": self.force_pk,
            "trx_level": self.trx_level,
            "enable_purge": self.enable_purge,
            "storage_engine": self.storage_engine,
            "table_options": self.table_options,
            "expected_mix_pct": expected_mix(self.enable_purge),
        }


def dataset_label(options: TpccOptions) -> str:
    """What the loaded data depends on, readably: workloads with the same label share a load.
    The mode is part of it (compat draws last names with sysbench-tpcc's per-call NURand
    constant, spec with a fixed load constant)."""
    parts = [
        f"sysbench tpcc {options.tables} set(s) x {options.scale} warehouse(s)",
        f"mode={options.mode}",
        f"use_fk={int(options.use_fk)}",
        f"force_pk={int(options.force_pk)}",
        f"engine={options.storage_engine}",
    ]
    if options.table_options:
        parts.append(f"table_options={options.table_options!r}")
    if options.items != ITEMS_RULE:
        parts.append(f"items={options.items}")
    return " ".join(parts)


def is_tpcc(test: str) -> bool:
    return test == TEST_NAME


def table_names(options: TpccOptions) -> list[str]:
    """Every table prepare creates (item1, warehouse1, ..., order_line<tables>)."""
    return [f"{name}{n}" for n in range(1, options.tables + 1) for name in TABLES]


# --- command lines ------------------------------------------------------------------------------


def command(
    binary: str,
    target: sysbench.Target,
    options: TpccOptions,
    action: str,
    extra: dict[str, str] | None = None,
) -> list[str]:
    merged = {**target.options(), **sysbench.ALWAYS, **options.sysbench_options(), **(extra or {})}
    return [binary, str(SCRIPT), *(f"--{name}={value}" for name, value in merged.items()), action]


def _capped(n: int) -> int:
    return max(1, min(n, 16))


def prepare_argv(
    binary: str, target: sysbench.Target, options: TpccOptions, threads: int | None = None
) -> list[str]:
    """Loaders: by default one per (set, warehouse), at most 16."""
    loaders = threads if threads is not None else _capped(options.tables * options.scale)
    return command(binary, target, options, "prepare", {"threads": str(loaders)})


def run_argv(
    binary: str, target: sysbench.Target, options: TpccOptions, threads: int, seconds: int
) -> list[str]:
    extra = {"threads": str(threads), "time": str(seconds), **sysbench.RUN_ONLY}
    return command(binary, target, options, "run", extra)


def check_argv(
    binary: str,
    target: sysbench.Target,
    options: TpccOptions,
    after_load: bool = False,
    threads: int | None = None,
) -> list[str]:
    """after_load: the data was just loaded (adds condition 11 and the row counts)."""
    extra = {"threads": str(threads if threads is not None else _capped(options.tables))}
    if after_load:
        extra["after_load"] = "on"
    return command(binary, target, options, "check", extra)


def cleanup_argv(binary: str, target: sysbench.Target, options: TpccOptions) -> list[str]:
    return command(binary, target, options, "cleanup")


# --- per-type statistics --------------------------------------------------------------------------


def expected_mix(purge: bool) -> dict[str, float]:
    """Target share of each type in percent (43.48/43.48/4.35/4.35/4.35; 41.67/.../4.17 with purge)."""
    weights = {**WEIGHTS, "purge": 1} if purge else dict(WEIGHTS)
    total = sum(weights.values())
    return {name: round(100.0 * weight / total, 2) for name, weight in weights.items()}


def _bucket_upper_ms(bucket: int, per_doubling: int) -> float:
    return 2.0 ** ((bucket + 1) / per_doubling) / 1000.0


def _percentile_ms(hist: dict[int, int], per_doubling: int, pct: float) -> float:
    total = sum(hist.values())
    if total == 0:
        return 0.0
    threshold = total * pct / 100.0
    running = 0
    for bucket in sorted(hist):
        running += hist[bucket]
        if running >= threshold:
            return round(_bucket_upper_ms(bucket, per_doubling), 3)
    return round(_bucket_upper_ms(max(hist), per_doubling), 3)


def _prefixed_json(output: str, prefix: str) -> list[dict[str, Any]]:
    """The JSON objects of the output lines that start with prefix."""
    lines = []
    for line in output.splitlines():
        if line.startswith(prefix):
            try:
                lines.append(json.loads(line[len(prefix) :]))
            except json.JSONDecodeError as exc:
                raise TpccOutputError(f"unreadable {prefix.strip()} line: {line[:120]!r}") from exc
    return lines


def thread_lines(output: str) -> list[dict[str, Any]]:
    """The per-thread JSON objects of a run's output."""
    return _prefixed_json(output, _STATS_PREFIX)


def parse_stats(
    output: str, total_time_s: float | None = None, threads: int | None = None
) -> dict[str, Any]:
    """Sum the threads' tpcc-stats lines into the run document's step.tpcc.

    total_time_s (sysbench's "total time") gives the tpmC-like figure; threads, when given,
    must match the number of lines (a thread that died prints none).
    """
    lines = thread_lines(output)
    if not lines:
        raise TpccOutputError("no tpcc-stats lines in the output (not a tpcc run?)")
    if threads is not None and len(lines) != threads:
        raise TpccOutputError(f"{len(lines)} tpcc-stats lines for {threads} threads")
    modes = {line["mode"] for line in lines}
    if len(modes) != 1:
        raise TpccOutputError(f"threads disagree on the mode: {sorted(modes)}")
    per_doubling = int(lines[0]["buckets_per_doubling"])

    counters: dict[str, dict[str, int]] = {}
    sums: dict[str, float] = {}
    maxima: dict[str, float] = {}
    hists: dict[str, dict[int, int]] = {}
    for line in lines:
        for name, entry in line["types"].items():
            into = counters.setdefault(name, dict.fromkeys(_COUNTERS, 0))
            for key in _COUNTERS:
                into[key] += int(entry[key])
            sums[name] = sums.get(name, 0.0) + float(entry["sum_us"])
            maxima[name] = max(maxima.get(name, 0.0), float(entry["max_us"]))
            hist = hists.setdefault(name, {})
            for bucket, count in entry["hist"].items():
                hist[int(bucket)] = hist.get(int(bucket), 0) + int(count)

    purge = bool(lines[0]["enable_purge"])
    expected = expected_mix(purge)
    total = sum(c["count"] for c in counters.values())
    types: dict[str, dict[str, Any]] = {}
    achieved: dict[str, float] = {}
    for name in [t for t in TYPES if t in expected or t in counters]:
        c = counters.get(name, dict.fromkeys(_COUNTERS, 0))
        share = 100.0 * c["count"] / total if total else 0.0
        achieved[name] = round(share, 2)
        count = c["count"]
        types[name] = {
            **c,
            "latency_ms": {
                "avg": round(sums.get(name, 0.0) / count / 1000.0, 3) if count else 0.0,
                "p95": _percentile_ms(hists.get(name, {}), per_doubling, 95),
                "p99": _percentile_ms(hists.get(name, {}), per_doubling, 99),
                "max": round(maxima.get(name, 0.0) / 1000.0, 3),
            },
        }
    deviations = [abs(achieved.get(n, 0.0) - pct) for n, pct in expected.items()]
    totals = {key: sum(c[key] for c in counters.values()) for key in _COUNTERS}
    result: dict[str, Any] = {
        "mode": modes.pop(),
        "threads_reported": len(lines),
        "nurand_c": lines[0].get("nurand_c"),
        "types": types,
        "totals": totals,
        "latency_sum_ms": round(sum(sums.values()) / 1000.0, 3),
        "mix": {
            "expected_pct": expected,
            "achieved_pct": achieved,
            "max_deviation_pp": round(max(deviations), 2) if total else None,
        },
    }
    if total_time_s:
        commits = types["new_order"]["commits"]
        result["tpmc_like"] = {
            "value": round(commits * 60.0 / total_time_s, 1),
            "label": TPMC_LABEL,
            "unaudited": True,
            "new_order_commits": commits,
            "seconds": total_time_s,
        }
    return result


def totals_problems(stats: dict[str, Any], events: int, errors: int) -> list[str]:
    """Where the per-type statistics do not add up to sysbench's own totals: every event is
    one finished transaction, and sysbench's ignored errors are the retries (plus, in compat
    mode, the user rollbacks, which sysbench-tpcc counts as errors)."""
    totals = stats["totals"]
    problems = []
    if totals["count"] != events:
        problems.append(
            f"per-type counts add up to {totals['count']}, sysbench had {events} events"
        )
    expected_errors = totals["retries"] + (totals["rollbacks"] if stats["mode"] == "compat" else 0)
    if expected_errors != errors:
        problems.append(
            f"retries{' + rollbacks' if stats['mode'] == 'compat' else ''} = {expected_errors}, "
            f"sysbench counted {errors} errors"
        )
    return problems


# --- consistency check ------------------------------------------------------------------------------


def check_lines(output: str) -> list[dict[str, Any]]:
    return _prefixed_json(output, _CHECK_PREFIX)


def parse_check(output: str, tables: int | None = None) -> dict[str, Any]:
    """Pass/fail per condition (over all sets) from a `check` output.

    A condition passes when every set passes, fails when any set fails, is skipped when every
    set skipped it. tables, when given, must be the number of sets seen for every condition.
    """
    lines = check_lines(output)
    if not lines:
        raise TpccOutputError("no tpcc-check lines in the output")
    conditions: dict[str, dict[str, Any]] = {}
    for line in lines:
        number = str(line["condition"])
        entry = conditions.setdefault(number, {"name": line["name"], "sets": {}})
        entry["sets"][str(line["set"])] = {
            "result": line["result"],
            "violations": int(line["violations"]),
            "detail": line["detail"],
        }
    for number, entry in conditions.items():
        results = {s["result"] for s in entry["sets"].values()}
        entry["result"] = "fail" if "fail" in results else "pass" if "pass" in results else "skip"
        if tables is not None and len(entry["sets"]) != tables:
            raise TpccOutputError(
                f"condition {number}: {len(entry['sets'])} sets reported, expected {tables}"
            )
    ordered = {n: conditions[n] for n in sorted(conditions, key=_condition_order)}
    failed = [n for n, e in ordered.items() if e["result"] == "fail"]
    return {
        "passed": not failed,
        "failed": failed,
        "skipped": [n for n, e in ordered.items() if e["result"] == "skip"],
        "conditions": ordered,
    }


def failed_summary(check: dict[str, Any]) -> str:
    """One line naming each failed condition and the sets it failed in."""
    parts = []
    for number in check["failed"]:
        entry = check["conditions"][number]
        sets = [name for name, s in entry["sets"].items() if s["result"] == "fail"]
        parts.append(f"condition {number} ({entry['name']}) in set(s) {', '.join(sets)}")
    return "; ".join(parts)


def _condition_order(number: str) -> float:
    return float(number) if number.isdigit() else math.inf
