"""Disclosure facts (generator/pages/disclosure.py) on hand-made runs."""

from generator.pages.disclosure import campaign_disclosure, non_defaults, run_disclosure


def run(
    run_id: str,
    variant: str,
    variables: dict,
    defaults: dict | None,
    mycnf: dict,
    workload: str = "w",
    repeat: int | None = None,
) -> dict:
    server = {"variables": variables, "my_cnf_options": mycnf}
    if defaults is not None:
        server["compiled_defaults"] = {"source": "probe", "differences": defaults}
    doc = {
        "id": run_id,
        "campaign": {"id": "c"},
        "variant": variant,
        "status": "complete",
        "started_at": "2026-01-01T00:00:00Z",
        "server": server,
        "workload": {"name": workload},
    }
    if repeat is not None:
        doc["repeat"] = {"index": repeat, "of": 2}
    return doc


def trust(threads: int, steady: bool | None, saturated: bool = False) -> dict:
    return {"threads": threads, "trim_s": 2, "steady": steady, "client": {"saturated": saturated}}


A = run("c.a.w", "a", {"max_connections": "300", "back_log": "110"},
        {"max_connections": "151", "back_log": "80"}, {"max_connections": "300"})  # fmt: skip
B = run("c.b.w", "b", {"max_connections": "151", "log_bin": "ON"}, {"log_bin": "OFF"},
        {"log_bin": "binlog"})  # fmt: skip


def test_non_defaults_say_where_each_value_came_from():
    assert non_defaults(A) == [
        {"name": "back_log", "value": "110", "default": "80", "set_in_mycnf": False},
        {"name": "max_connections", "value": "300", "default": "151", "set_in_mycnf": True},
    ]
    assert non_defaults(run("x", "a", {}, None, {})) is None  # not probed: not "all default"


def test_run_and_campaign_boxes_name_flagged_steps():
    facts = run_disclosure(A, [trust(1, True), trust(2, False), trust(4, True, saturated=True)])
    assert (facts["unstable"], facts["client_bound"], facts["trim_s"]) == ([2], [4], [2])
    box = campaign_disclosure([A, B], ["a", "b"], {A["id"]: [trust(1, False)], B["id"]: []})
    assert [option["name"] for option in box["options"]] == ["back_log", "log_bin",
                                                             "max_connections"]  # fmt: skip
    log_bin = box["options"][1]["cells"]
    assert log_bin[0] is None and log_bin[1]["value"] == "ON"
    assert box["flagged_runs"] == [
        {
            "id": "c.a.w",
            "unstable": [1],
            "unstable_at": "1 thread",
            "client_bound": [],
            "client_bound_at": "",
        }
    ]
    assert (box["unstable_steps"], box["steps"], box["probed"]) == (1, 1, True)
    assert (facts["unstable_at"], facts["client_bound_at"]) == ("2 threads", "4 threads")


def test_insert_benchmark_steps_are_flagged_by_name_and_their_client_is_not_judged():
    steps = [
        {"step": "l.i1", "trim_s": 1, "steady": False, "client": None},
        {"step": "qr100", "trim_s": 3, "steady": True, "client": None},
        {"step": "qp100", "trim_s": 3, "steady": False, "client": None},
    ]
    facts = run_disclosure(A, steps)
    assert (facts["unstable"], facts["unstable_at"]) == (["l.i1", "qp100"], "l.i1, qp100")
    assert (facts["client_bound"], facts["client_judged"]) == ([], False)
    box = campaign_disclosure([A], ["a"], {A["id"]: steps})
    assert (box["unstable_steps"], box["steps"], box["client_judged"]) == (2, 3, False)


def test_the_campaign_box_lists_every_run_by_workload_variant_and_pass():
    runs = [
        run(f"c.{variant}.{workload}.p{index}", variant, {}, None, {}, workload, index)
        for workload in ("w2", "w1")
        for variant in ("b", "a")
        for index in (2, 1)
        if (workload, variant) != ("w2", "b")  # a cell the campaign never ran
    ]
    rerun = {
        **run("c.a.w1.p2.r2", "a", {}, None, {}, "w1", 2),
        "started_at": "2026-01-02T00:00:00Z",
    }
    flags = {r["id"]: [trust(1, True)] for r in runs}
    flags["c.a.w1.p2.r2"] = [trust(1, False), trust(2, True, saturated=True)]
    table = campaign_disclosure([*runs, rerun], ["a", "b"], flags)["run_table"]
    assert (table["passes"], table["repeated"], table["runs"], table["rows"]) == (
        [1, 2],
        True,
        7,
        3,
    )
    w1, w2 = table["workloads"]
    assert w1["name"] == "w1" and [row["variant"] for row in w1["rows"]] == ["a", "b"]
    assert [row["variant"] for row in w2["rows"]] == ["a"]
    pass1, pass2 = w1["rows"][0]["passes"]
    assert [entry["id"] for entry in pass1] == ["c.a.w1.p1"]
    # the re-run stands beside the pass it replaced, and only it counts
    assert [(e["id"], e["counted"]) for e in pass2] == [
        ("c.a.w1.p2", False),
        ("c.a.w1.p2.r2", True),
    ]
    assert (pass2[1]["unstable"], pass2[1]["client_bound"]) == ([1], [2])
    assert pass2[0]["unstable"] == []
    listed = [
        e["id"] for w in table["workloads"] for r in w["rows"] for p in r["passes"] for e in p
    ]
    assert sorted(listed) == sorted(r["id"] for r in [*runs, rerun])
