"""A step's figures from the merged counters: rates, per-second series, rate percentiles,
response-time histograms, the background-rate check and the client's CPU per operation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

import contract
from harness.workloads.ibench.worker_counters import BUCKETS_US, Counters

SUSTAINED_RATIO = 0.95  # achieved / target below this: the target was not sustained
# A worker's role, as a step's client_cpu, response_time and retries name it.
Role = Literal["insert", "delete", "query"]
ROLES: tuple[Role, ...] = ("insert", "delete", "query")


class Summary(TypedDict):
    """What summarize gives a step (contract.IbenchStep's keys)."""

    inserts: int
    inserts_per_s: float
    inserts_per_s_per_client: float
    deletes: int
    deletes_per_s: float
    deletes_per_s_per_client: float
    queries: int
    queries_per_s: float
    queries_per_s_per_client: float
    series: contract.IbenchSeries
    rate_percentiles: contract.IbenchRatePercentiles
    response_time: contract.ResponseTimes
    retries: contract.Retries


def rate_percentiles(rates: list[float]) -> contract.RatePercentiles:
    """The reference's rate percentiles: per-second rates sorted in descending order, the value
    at the 50/75/90/95/99 % position. So p99 is a rate that 99 % of the seconds reached (a low
    value: the bad seconds), p50 the median."""
    ordered = sorted(rates, reverse=True)

    def at(pct: int) -> float:
        if not ordered:
            return 0.0
        return float(ordered[min(len(ordered) - 1, len(ordered) * pct // 100)])

    return {"p50": at(50), "p75": at(75), "p90": at(90), "p95": at(95), "p99": at(99)}


def complete_seconds(duration_s: float) -> int:
    """Intervals that lie wholly inside the step (a partial last second would read low)."""
    return int(duration_s)


def histogram_json(counters: Counters) -> contract.ResponseHistogram:
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
) -> contract.Background:
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
    cpu_by_role: dict[Role, float], counters: dict[Role, Counters], op: Role, busiest_pct: float
) -> contract.ClientCpu:
    """CPU of the worker processes (psutil, measured by each over the step) per operation."""
    total = sum(cpu_by_role.values())
    ops = counters[op].total if op in counters else 0
    by_role: contract.CpuByRole = {}
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


@dataclass(frozen=True)
class _Rates:
    """One role's operations over a step: the total, its rate and each complete second's."""

    total: int
    per_s: float
    per_s_per_client: float
    per_second: list[float]
    worst_us: list[float]  # per second: the largest response time

    @classmethod
    def of(cls, part: Counters, duration_s: float, clients: int, seconds: int) -> _Rates:
        rate = part.total / duration_s if duration_s else 0.0
        return cls(
            part.total,
            round(rate, 2),
            round(rate / clients, 2),
            [float(v) for v in (part.ops + [0] * seconds)[:seconds]],
            [round(v, 1) for v in (part.max_us + [0.0] * seconds)[:seconds]],
        )


def summarize(
    counters: dict[Role, Counters], duration_s: float, clients: int, cpu_pct_series: list[float]
) -> Summary:
    """Totals, rates, the per-second series (complete seconds) and the percentiles."""
    seconds = complete_seconds(duration_s)
    inserts, deletes, queries = (
        _Rates.of(counters.get(role, Counters()), duration_s, clients, seconds) for role in ROLES
    )
    response_time: contract.ResponseTimes = {}
    retries: contract.Retries = {}
    for role in ROLES:
        if role in counters:
            response_time[role] = histogram_json(counters[role])
            retries[role] = counters[role].retries
    cpu_pct = [round(v, 1) for v in (cpu_pct_series + [0.0] * seconds)][:seconds]
    return {
        "inserts": inserts.total,
        "inserts_per_s": inserts.per_s,
        "inserts_per_s_per_client": inserts.per_s_per_client,
        "deletes": deletes.total,
        "deletes_per_s": deletes.per_s,
        "deletes_per_s_per_client": deletes.per_s_per_client,
        "queries": queries.total,
        "queries_per_s": queries.per_s,
        "queries_per_s_per_client": queries.per_s_per_client,
        "series": {
            "t": [float(s + 1) for s in range(seconds)],
            "inserts_per_s": inserts.per_second,
            "max_insert_us": inserts.worst_us,
            "deletes_per_s": deletes.per_second,
            "max_delete_us": deletes.worst_us,
            "queries_per_s": queries.per_second,
            "max_query_us": queries.worst_us,
            "client_cpu_pct": cpu_pct,
        },
        "rate_percentiles": {
            "inserts_per_s": rate_percentiles(inserts.per_second),
            "deletes_per_s": rate_percentiles(deletes.per_second),
            "queries_per_s": rate_percentiles(queries.per_second),
        },
        "response_time": response_time,
        "retries": retries,
    }
