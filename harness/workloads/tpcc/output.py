"""Parsers for what the TPC-C-like Lua prints.

Per-type statistics: sysbench gives each worker thread its own Lua state, so every thread
counts for itself and prints one `tpcc-stats {json}` line when it ends; parse_stats() adds the
lines up (counts, commits, user rollbacks, retries, a merged latency histogram) and derives the
achieved mix and a tpmC-like figure, always labelled unaudited. `check` prints one
`tpcc-check {json}` line per consistency condition and table set.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

import contract
from contract import whole_number
from harness.model.tpcc_options import TYPES, expected_mix

TPMC_LABEL = "tpmC-like: New-Order commits per minute (unaudited, TPC-C-like, not a TPC-C result)"

Counter = Literal["count", "commits", "rollbacks", "retries", "deadlocks", "lock_waits",
                  "other_errors"]  # fmt: skip
_COUNTERS: tuple[Counter, ...] = (
    "count", "commits", "rollbacks", "retries", "deadlocks", "lock_waits", "other_errors",
)  # fmt: skip
_STATS_PREFIX = "tpcc-stats "
_CHECK_PREFIX = "tpcc-check "
CONDITIONS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "rows")
PURGE_BREAKS = ("8", "9", "10", "12")


class TpccOutputError(ValueError):
    pass


def _bucket_upper_ms(bucket: int, per_doubling: int) -> float:
    upper_us: float = 2.0 ** ((bucket + 1) / per_doubling)  # a positive base: never complex
    return upper_us / 1000.0


def _no_counts() -> contract.TpccCounts:
    return {"count": 0, "commits": 0, "rollbacks": 0, "retries": 0, "deadlocks": 0,
            "lock_waits": 0, "other_errors": 0}  # fmt: skip


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
) -> contract.TpccStep:
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

    counters: dict[str, contract.TpccCounts] = {}
    sums: dict[str, float] = {}
    maxima: dict[str, float] = {}
    hists: dict[str, dict[int, int]] = {}
    for line in lines:
        for name, entry in line["types"].items():
            into = counters.setdefault(name, _no_counts())
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
    types: dict[str, contract.TpccType] = {}
    achieved: dict[str, float] = {}
    for name in [t for t in TYPES if t in expected or t in counters]:
        c = counters.get(name, _no_counts())
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
    totals = _no_counts()
    for key in _COUNTERS:
        totals[key] = sum(c[key] for c in counters.values())
    result: contract.TpccStep = {
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


def totals_problems(stats: contract.TpccStep, events: int, errors: int) -> list[str]:
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


def parse_check(output: str, tables: int | None = None) -> contract.TpccCheck:
    """Pass/fail per condition (over all sets) from a `check` output.

    A condition passes when every set passes, fails when any set fails, is skipped when every
    set skipped it. tables, when given, must be the number of sets seen for every condition.
    """
    lines = check_lines(output)
    if not lines:
        raise TpccOutputError("no tpcc-check lines in the output")
    names: dict[str, str] = {}
    sets_of: dict[str, dict[str, contract.TpccConditionSet]] = {}
    for line in lines:
        number = str(line["condition"])
        names.setdefault(number, line["name"])
        sets_of.setdefault(number, {})[str(line["set"])] = {
            "result": line["result"],
            "violations": int(line["violations"]),
            "detail": line["detail"],
        }
    conditions: dict[str, contract.TpccCondition] = {}
    for number, sets in sets_of.items():
        results = {s["result"] for s in sets.values()}
        conditions[number] = {
            "name": names[number],
            "sets": sets,
            "result": "fail" if "fail" in results else "pass" if "pass" in results else "skip",
        }
        if tables is not None and len(sets) != tables:
            raise TpccOutputError(
                f"condition {number}: {len(sets)} sets reported, expected {tables}"
            )
    ordered = {n: conditions[n] for n in sorted(conditions, key=_condition_order)}
    failed = [n for n, e in ordered.items() if e["result"] == "fail"]
    return {
        "passed": not failed,
        "failed": failed,
        "skipped": [n for n, e in ordered.items() if e["result"] == "skip"],
        "conditions": ordered,
    }


def failed_summary(check: contract.TpccCheck) -> str:
    """One line naming each failed condition and the sets it failed in."""
    parts = []
    for number in check["failed"]:
        entry = check["conditions"][number]
        sets = [name for name, s in entry["sets"].items() if s["result"] == "fail"]
        parts.append(f"condition {number} ({entry['name']}) in set(s) {', '.join(sets)}")
    return "; ".join(parts)


def _condition_order(number: str) -> float:
    value = whole_number(number)
    return math.inf if value is None else value
