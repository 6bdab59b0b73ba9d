"""Per-step trust facts of a run (generator/analysis/trust.py) on hand-made steps, each entry with
its verdict's flags (generator/analysis/verdict.py)."""

from generator.analysis.trust import run_trust


def run(tps: list[float], client: list[float], trim: int | None = None) -> dict:
    step = {
        "threads": 4,
        "duration_s": float(len(tps)),
        "tps": sum(tps) / len(tps),
        "series": {"t": list(range(1, len(tps) + 1)), "tps": tps},
        "monitor": {"series": {"client_cpu_pct": client}},
    }
    workload = {"tool": "sysbench", "client_cpu_affinity": [1]}
    workload |= {"trim_seconds": trim} if trim is not None else {}
    return {"workload": workload, "host": {"cpu_threads": 2}, "steps": [step, {"name": "l.i0"}]}


def test_warm_up_is_cut_and_the_rest_judged():
    tps = [10.0, 50.0] + [100.0, 102.0, 98.0, 101.0, 99.0] * 4  # 22 s: the default cuts 2 s
    (trust,) = run_trust(run(tps, client=[50.0] * 22))
    assert trust["trim_s"] == 2 and trust["seconds"] == 20 and trust["tps_kept"] == 100.0
    assert trust["steady"] is True
    assert trust["client"] == {"cpu_pct": 50.0, "cpus": 1, "saturated": False}
    assert trust["write_debt"] is None and trust["flags"] == []  # fit


def test_campaign_override_and_a_saturated_pinned_client():
    tps = [10.0, 50.0] + [100.0] * 8
    (trust,) = run_trust(run(tps, client=[95.0] * 10, trim=0))
    assert trust["trim_s"] == 0 and trust["tps_kept"] == 86.0
    assert trust["client"]["saturated"] is True
    # no warm-up cut: the first two seconds make it unsteady too
    assert [flag["kind"] for flag in trust["flags"]] == ["unsteady", "client"]


def test_insert_benchmark_steps_are_judged_on_their_headline_rate_by_name():
    steady = [100.0, 102.0, 98.0, 101.0, 99.0] * 4
    climbing = [50.0 + 5 * second for second in range(20)]

    def step(name: str, kind: str, series: dict) -> dict:
        return {"step": name, "kind": kind, "duration_s": 20.0, "series": series}

    ibench = {
        "workload": {"tool": "ibench"},
        "steps": [
            step("l.i0", "load", {"inserts_per_s": steady}),
            step("l.x", "index", {}),
            step("flush", "flush", {}),
            step("qr100", "query", {"queries_per_s": climbing, "inserts_per_s": steady}),
        ],
    }
    load, query = run_trust(ibench)
    assert (load["step"], load["steady"], load["trim_s"]) == ("l.i0", True, 2)
    assert (query["step"], query["steady"]) == ("qr100", False)  # its queries/s, not its inserts
    assert query["client"] is None and query["write_debt"] is None
    assert load["flags"] == [] and [flag["kind"] for flag in query["flags"]] == ["unsteady"]
