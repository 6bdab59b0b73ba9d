"""Disclosure facts (generator/pages/disclosure.py) on hand-made runs."""

from generator.pages.disclosure import campaign_disclosure, non_defaults, run_disclosure


def run(run_id: str, variant: str, variables: dict, defaults: dict | None, mycnf: dict) -> dict:
    server = {"variables": variables, "my_cnf_options": mycnf}
    if defaults is not None:
        server["compiled_defaults"] = {"source": "probe", "differences": defaults}
    return {
        "id": run_id,
        "variant": variant,
        "started_at": "2026-01-01T00:00:00Z",
        "server": server,
        "workload": {},
    }


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
    assert box["flagged_runs"] == [{"id": "c.a.w", "unstable": [1], "client_bound": []}]
    assert (box["unstable_steps"], box["steps"], box["probed"]) == (1, 1, True)
