"""Disclosure facts (generator/pages/disclosure.py) on hand-made runs."""

from generator.analysis.memory import memory_fit
from generator.analysis.verdict import FLAG_KINDS
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
        "host": {"hostname": "vm"},
        "server": server,
        "workload": {"name": workload},
    }
    if repeat is not None:
        doc["repeat"] = {"index": repeat, "of": 2}
    return doc


def flag(kind: str) -> dict:
    return {"kind": kind, "label": FLAG_KINDS[kind][0], "detail": "figures"}


def trust(threads: int, *kinds: str, client: bool = True) -> dict:
    """A step's trust entry with flags of these kinds (client: whether its CPU was recorded)."""
    return {
        "threads": threads,
        "trim_s": 2,
        "steady": "unsteady" not in kinds,
        "client": {"saturated": "client" in kinds} if client else None,
        "flags": [flag(kind) for kind in kinds],
    }


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


def test_run_and_campaign_boxes_count_every_kind_of_flag():
    steps = [trust(1), trust(2, "unsteady"), trust(4, "inherited", "transient"),
             trust(8, "transient", "client")]  # fmt: skip
    facts = run_disclosure(A, steps, memory_fit(A))
    assert facts["trim_s"] == [2] and facts["client_judged"] is True
    assert facts["flags"] == {
        "steps": 4,
        "flagged": 3,
        "kinds": [
            {"kind": "unsteady", "label": "unsteady", "count": 1, "at": "2 threads"},
            {"kind": "inherited", "label": "inherited debt", "count": 1, "at": "4 threads"},
            {"kind": "transient", "label": "transient", "count": 2, "at": "4, 8 threads"},
            {"kind": "client", "label": "client-bound", "count": 1, "at": "8 threads"},
        ],
    }
    box = campaign_disclosure([A, B], ["a", "b"], {A["id"]: steps, B["id"]: [trust(1)]})
    assert [option["name"] for option in box["options"]] == ["back_log", "log_bin",
                                                             "max_connections"]  # fmt: skip
    log_bin = box["options"][1]["cells"]
    assert log_bin[0] is None and log_bin[1]["value"] == "ON"
    assert [run["id"] for run in box["flagged_runs"]] == ["c.a.w"]
    assert box["flagged_runs"][0]["kinds"] == facts["flags"]["kinds"]
    assert (box["steps"], box["flags"]["steps"], box["flags"]["flagged"]) == (5, 5, 3)
    # every kind counted, those no step carries at 0, so an article's fact always resolves
    assert box["flag_counts"] == {"unsteady": 1, "inherited": 1, "transient": 2, "steal": 0,
                                  "client": 1}  # fmt: skip
    assert (box["unstable_steps"], box["client_bound_steps"], box["probed"]) == (1, 1, True)
    assert [kind["kind"] for kind in box["flag_kinds"]] == list(FLAG_KINDS)


def test_a_run_without_flags_is_every_step_fit():
    facts = run_disclosure(A, [trust(1), trust(2)], memory_fit(A))
    assert facts["flags"] == {"steps": 2, "flagged": 0, "kinds": []}
    box = campaign_disclosure([A], ["a"], {A["id"]: [trust(1), trust(2)]})
    assert box["flagged_runs"] == [] and box["flags"]["flagged"] == 0


def test_insert_benchmark_steps_are_flagged_by_name_and_their_client_is_not_judged():
    steps = [
        {**trust(0, "unsteady", client=False), "step": "l.i1"},
        {**trust(0, client=False), "step": "qr100"},
        {**trust(0, "unsteady", "steal", client=False), "step": "qp100"},
    ]
    for step in steps:
        del step["threads"]
    facts = run_disclosure(A, steps, memory_fit(A))
    unsteady, steal = facts["flags"]["kinds"]
    assert (unsteady["count"], unsteady["at"]) == (2, "l.i1, qp100")
    assert (steal["count"], steal["at"]) == (1, "qp100")
    assert facts["client_judged"] is False
    box = campaign_disclosure([A], ["a"], {A["id"]: steps})
    assert (box["flags"]["flagged"], box["steps"], box["client_judged"]) == (2, 3, False)


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
    flags = {r["id"]: [trust(1)] for r in runs}
    flags["c.a.w1.p2.r2"] = [trust(1, "unsteady"), trust(2, "client", "inherited")]
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
    rerun_flags = pass2[1]["flags"]
    assert (rerun_flags["steps"], rerun_flags["flagged"]) == (2, 2)
    assert [(kind["kind"], kind["at"]) for kind in rerun_flags["kinds"]] == [
        ("unsteady", "1 thread"),
        ("inherited", "2 threads"),
        ("client", "2 threads"),
    ]
    assert pass2[0]["flags"]["flagged"] == 0
    listed = [
        e["id"] for w in table["workloads"] for r in w["rows"] for p in r["passes"] for e in p
    ]
    assert sorted(listed) == sorted(r["id"] for r in [*runs, rerun])
