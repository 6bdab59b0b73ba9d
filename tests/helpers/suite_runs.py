"""Hand-made suite campaigns (workload.suite) built from a committed run, every number a test
checks set here: the generator and site tests of the suite report share them."""

from __future__ import annotations

import copy
import re

from tests.helpers.long_steps import lengthen

CAMPAIGN = "suite-probe-20260101-000000"
VARIANTS = ("a.base", "b.base")
OP = "transaction"


def template_run(runs: list[dict]) -> dict:
    """A committed complete run whose steps record per_op: the shape every suite run copies."""
    with_costs = [
        run
        for run in runs
        if run["status"] == "complete"
        and run["steps"]
        and all("per_op" in step for step in run["steps"])
    ]
    assert with_costs, "no committed run records per_op"
    return min(with_costs, key=lambda run: run["id"])


def label(test: str) -> str:
    """The harness's workload label for an author's test name: random-points_range=100 ->
    random-points-r100."""
    return re.sub(r"[^a-z0-9]+", "-", test.replace("_range=", "-r").lower()).strip("-")


def _step(template: dict, threads: int, numbers: dict) -> dict:
    step = copy.deepcopy(template)
    qps = numbers["qps"]
    step.update(threads=threads, tps=numbers.get("tps", qps))
    step["qps"] = {"total": qps, "read": qps, "write": 0, "other": 0}
    # Flat per-second series at the step's own values, long enough for an interval: no noise,
    # so ratios are judged by the ±5 % band alone (generator/analysis/stats.py) and these
    # fixtures say exactly what they expect.
    lengthen(step)
    seconds = len(step["series"]["t"])
    step["series"] = {
        **step["series"],
        "tps": [step["tps"]] * seconds,
        "qps": [qps] * seconds,
        "p95_ms": [step["latency_ms"]["p95"]] * seconds,
    }
    for absent in ("rows_per_s", "per_op", "monitor", "server_status_delta"):
        step.pop(absent, None)
    step.setdefault("os", {})["cpu_steal_pct"] = 0.0  # no VM steal: every step fit to judge
    if "rows_per_s" in numbers:
        step["rows_per_s"] = numbers["rows_per_s"]
    if "per_op" in numbers:
        step["per_op"] = {"op": OP, **numbers["per_op"]}
    return step


def suite_run(
    template: dict,
    variant: str,
    test: str,
    group: str,
    position: int,
    steps: dict[int, dict],
    suite: str = "callaghan",
    campaign: str = CAMPAIGN,
    repeat: tuple[int, int] | None = None,
) -> dict:
    """A copy of `template` as one suite test of `variant`; steps maps threads to the numbers of
    that step: qps (also the TPS unless tps is given), optional rows_per_s and per_op (cpu_us,
    context_switches, read_kb, write_kb)."""
    run = copy.deepcopy(template)
    name = label(test)
    run["id"] = f"{campaign}.{variant}.{name}"
    run["campaign"].update(
        id=campaign,
        name=campaign.rsplit("-", 2)[0],
        title=f"Suite probe ({suite})",
        file=f"campaigns/{suite}-probe.toml",
        variant_order=list(VARIANTS),
    )
    run["variant"] = variant
    run["workload"]["name"] = name
    run["workload"]["suite"] = {"name": suite, "test": test, "group": group, "position": position}
    run.pop("repeat", None)
    if repeat is not None:
        run["id"] += f".p{repeat[0]}"
        run["repeat"] = {"index": repeat[0], "of": repeat[1]}
    first = template["steps"][0]
    run["steps"] = [_step(first, threads, numbers) for threads, numbers in steps.items()]
    return run


def cost(
    cpu_us: float, context_switches: float = 5.0, read_kb: float = 0.0, write_kb: float = 0.5
):
    return {
        "cpu_us": cpu_us,
        "context_switches": context_switches,
        "read_kb": read_kb,
        "write_kb": write_kb,
    }


def callaghan_campaign(template: dict) -> list[dict]:
    """Seven tests over the four groups at one thread, handed over out of order.

    a.base vs b.base: point-query.pre 1.10 (better), range-notcovered-si.pre 0.95 (on the
    band: same), scan in rows/s 1.05 (same; its 2 -> 2.1 TPS move alike), read-only with a base of 0 QPS (n/a),
    update-index 0.93 (worse), insert 333.3/300 = 1.111 (1.11, better), point-query only run
    by a.base (b.base missing). cpu/o of point-query.pre: 50 -> 40 µs (0.80, better).
    """
    specs = [
        ("insert_range=100", "write", 33, 300, 333.3, {}),
        ("point-query_range=100", "point", 19, 900, None, {}),
        ("update-index_range=100", "write", 4, 2000, 1860, {}),
        ("read-only_range=10", "range-aggregation", 11, 0, 300, {}),
        ("scan_range=100", "range", 10, 2, 2.1, {"rows_per_s": (1_000_000, 1_050_000)}),
        ("range-notcovered-si.pre", "range", 2, 500, 475, {}),
        ("point-query.pre", "point", 1, 1000, 1100, {"per_op": (cost(50), cost(40, 4, 0, 1))}),
    ]
    runs = []
    for test, group, position, base_qps, other_qps, extra in specs:
        for index, (variant, qps) in enumerate(zip(VARIANTS, (base_qps, other_qps), strict=True)):
            if qps is None:
                continue
            numbers = {"qps": qps} | {key: pair[index] for key, pair in extra.items()}
            runs.append(suite_run(template, variant, test, group, position, {1: numbers}))
    return runs


SERIES_CAMPAIGN = "series-probe-20260101-000000"
RELEASES = (("r102.base", "10.2.11"), ("r105.base", "10.5.23"), ("r114.base", "11.4.5"))


def counted(connection: float, background: float = 500.0, events: int = 1000) -> dict:
    """A run's callgrind count (run document `instructions`) of connection and background
    instructions per event, the same in both repeats."""
    repeat = {
        "connection": round(connection * events),
        "background": round(background * events),
        "statements": events,
    }
    return {
        "tool": "valgrind-3.19.0",
        "threads": 1,
        "events": events,
        "warmup_events": 100,
        "repeats": [repeat, dict(repeat)],
        "commands": [],
    }


def release_series(template: dict, passes: int = 3) -> list[dict]:
    """Three MariaDB releases of one suite campaign, one server each, `passes` passes.

    point-query QPS 1000 / 1100 / 1000: the middle release better than the oldest and than its
    predecessor, the newest worse than its predecessor (0.91) and the same as the oldest;
    instructions per event 40,000 / 40,000 / 46,000 (the newest 1.15: worse).
    update-index QPS 2000 / 2000 / 1800 (0.90: worse than both); instructions 60,000 /
    63,000 / 66,000: each step within ±5 % of its predecessor, the newest 1.10 of the oldest.
    """
    specs = [
        ("point-query_range=100", "point", 19, (1000, 1100, 1000), (40_000, 40_000, 46_000)),
        ("update-index_range=100", "write", 4, (2000, 2000, 1800), (60_000, 63_000, 66_000)),
    ]
    runs = []
    for test, group, position, qps, instructions in specs:
        for (variant, version), value, count in zip(RELEASES, qps, instructions, strict=True):
            for index in range(1, passes + 1):
                run = suite_run(
                    template,
                    variant,
                    test,
                    group,
                    position,
                    {1: {"qps": value}},
                    campaign=SERIES_CAMPAIGN,
                    repeat=(index, passes),
                )
                run["campaign"]["variant_order"] = [v for v, _ in RELEASES]
                run["server"].update(product="mariadb", version=version)
                run["instructions"] = counted(count)
                runs.append(run)
    return runs
