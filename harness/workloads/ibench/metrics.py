"""A step's figures from the merged counters: rates, per-second series, rate percentiles,
response-time histograms, the background-rate check and the client's CPU per operation."""

from __future__ import annotations

from harness.workloads.ibench.worker_counters import BUCKETS_US, Counters

PERCENTILES = (50, 75, 90, 95, 99)
SUSTAINED_RATIO = 0.95  # achieved / target below this: the target was not sustained
ROLES = ("insert", "delete", "query")
PLURAL = {"insert": "inserts", "delete": "deletes", "query": "queries"}


def rate_percentiles(rates: list[float]) -> dict[str, float]:
    """The reference's rate percentiles: per-second rates sorted in descending order, the value
    at the 50/75/90/95/99 % position. So p99 is a rate that 99 % of the seconds reached (a low
    value: the bad seconds), p50 the median."""
    if not rates:
        return {f"p{p}": 0.0 for p in PERCENTILES}
    ordered = sorted(rates, reverse=True)
    last = len(ordered) - 1
    return {f"p{p}": float(ordered[min(last, len(ordered) * p // 100)]) for p in PERCENTILES}


def complete_seconds(duration_s: float) -> int:
    """Intervals that lie wholly inside the step (a partial last second would read low)."""
    return int(duration_s)


def histogram_json(counters: Counters) -> dict[str, object]:
    calls = counters.calls
    return {
        "buckets_us": list(BUCKETS_US),  # upper bounds; counts has one more: > 16 s
        "counts": counters.histogram,
        "calls": calls,
        "avg_us": round(counters.sum_response_us / calls, 1) if calls else 0.0,
        "max_us": round(counters.max_response_us, 1),
    }


def background(
    target_per_client: int, clients: int, inserts: int, deletes: int, seconds: float
) -> dict[str, object]:
    """Achieved vs target background write rate of a q step."""
    target = target_per_client * clients
    achieved = inserts / seconds if seconds else 0.0
    ratio = achieved / target if target else 0.0
    return {
        "target_inserts_per_s": target,
        "achieved_inserts_per_s": round(achieved, 2),
        "achieved_deletes_per_s": round(deletes / seconds, 2) if seconds else 0.0,
        "ratio": round(ratio, 4),
        "target_sustained": ratio >= SUSTAINED_RATIO,
    }


def client_cpu(
    cpu_by_role: dict[str, float], counters: dict[str, Counters], op: str, busiest_pct: float
) -> dict[str, object]:
    """CPU of the worker processes (psutil, measured by each over the step) per operation."""
    total = sum(cpu_by_role.values())
    ops = counters[op].total if op in counters else 0
    by_role = {}
    for role, seconds in sorted(cpu_by_role.items()):
        done = counters[role].total if role in counters else 0
        by_role[role] = {
            "seconds": round(seconds, 3),
            "us_per_op": round(seconds * 1e6 / done, 2) if done else None,
        }
    return {
        "op": op,
        "seconds": round(total, 3),
        "us_per_op": round(total * 1e6 / ops, 2) if ops else None,
        "by_role": by_role,
        "busiest_process_pct": round(busiest_pct, 1),
    }


def summarize(
    counters: dict[str, Counters], duration_s: float, clients: int, cpu_pct_series: list[float]
) -> dict[str, object]:
    """Totals, rates, the per-second series (complete seconds) and the percentiles."""
    seconds = complete_seconds(duration_s)
    out: dict[str, object] = {}
    series: dict[str, list[float]] = {"t": [float(s + 1) for s in range(seconds)]}
    percentiles = {}
    for role in ROLES:
        part = counters.get(role, Counters())
        rate = part.total / duration_s if duration_s else 0.0
        name = PLURAL[role]
        out[name] = part.total
        out[f"{name}_per_s"] = round(rate, 2)
        out[f"{name}_per_s_per_client"] = round(rate / clients, 2)
        per_second = [float(v) for v in (part.ops + [0] * seconds)[:seconds]]
        worst = [round(v, 1) for v in (part.max_us + [0.0] * seconds)[:seconds]]
        series[f"{name}_per_s"] = per_second
        series[f"max_{role}_us"] = worst
        percentiles[f"{name}_per_s"] = rate_percentiles(per_second)
    series["client_cpu_pct"] = [round(v, 1) for v in (cpu_pct_series + [0.0] * seconds)][:seconds]
    out["series"] = series
    out["rate_percentiles"] = percentiles
    out["response_time"] = {
        role: histogram_json(counters[role]) for role in ROLES if role in counters
    }
    out["retries"] = {role: counters[role].retries for role in ROLES if role in counters}
    return out
