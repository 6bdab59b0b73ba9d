"""The one verdict on a step (generator/analysis/verdict.py): each kind of flag from a crafted
trust entry, with the numbers behind it, and flag_counts over several steps."""

from __future__ import annotations

from typing import Any

from generator.analysis.verdict import FLAG_KINDS, STEAL_LIMIT_PCT, flag_counts, step_flags


def entry(**fields: Any) -> dict[str, Any]:
    """A fit step's trust entry (generator/analysis/trust.py), fields replaced."""
    fit = {"steady": True, "drift": 0.01, "cv": 0.02, "write_debt": None, "client": None}
    return fit | fields


def debt(inherited: bool = False, transient: bool = False, ceiling_s: int | None = 3) -> dict:
    return {
        "inherited": inherited,
        "transient": transient,
        "start_mb": 150,
        "settled_mb": 13,
        "checkpoint_mb": [150, 181],
        "peak_mb": 182,
        "ceiling_s": ceiling_s,
        "kept_s": 108,
    }


def kinds(flags: list[dict[str, Any]]) -> list[str]:
    return [flag["kind"] for flag in flags]


def test_a_fit_step_has_no_flags():
    assert step_flags(entry()) == []
    assert step_flags(entry(steady=None, drift=None, cv=None)) == []  # too short: not unsteady
    assert step_flags(entry(write_debt=debt())) == []
    assert step_flags(entry(client={"saturated": False, "cpu_pct": 40, "cpus": 2}), 1.0) == []


def test_each_kind_with_its_label_and_the_numbers_behind_it():
    (unsteady,) = step_flags(entry(steady=False, drift=-0.392, cv=0.176))
    assert unsteady == {
        "kind": "unsteady",
        "label": "unsteady",
        "detail": "drift -39.2%, CV 17.6%",
    }
    (inherited,) = step_flags(entry(write_debt=debt(inherited=True)))
    assert inherited["label"] == FLAG_KINDS["inherited"][0] == "inherited debt"
    assert "150 MB" in inherited["detail"] and "13 MB" in inherited["detail"]
    (late,) = step_flags(entry(write_debt=debt(transient=True, ceiling_s=80)))
    assert late["kind"] == "transient"
    assert (
        late["detail"]
        == "checkpoint age 150 → 181 MB (peak 182), its ceiling reached at 80 s of 108 s"
    )
    (climbing,) = step_flags(entry(write_debt=debt(transient=True, ceiling_s=None)))
    assert climbing["detail"].endswith("still rising at the end")
    (steal,) = step_flags(entry(), STEAL_LIMIT_PCT + 0.6)
    assert steal["kind"] == "steal" and steal["detail"] == "5.6 % of the CPU time stolen"
    assert step_flags(entry(), STEAL_LIMIT_PCT) == []  # at the limit, not over it
    (client,) = step_flags(entry(client={"saturated": True, "cpu_pct": 97, "cpus": 2}))
    assert (client["label"], client["detail"]) == ("client-bound", "client CPU 97 % of 2 CPUs")


def test_a_step_carries_every_kind_that_applies_in_flag_kinds_order():
    flags = step_flags(
        entry(
            steady=False,
            client={"saturated": True, "cpu_pct": 95, "cpus": 4},
            write_debt=debt(inherited=True, transient=True),
        ),
        12.0,
    )
    assert kinds(flags) == list(FLAG_KINDS)


def test_flag_counts_count_each_step_once_per_kind_in_order():
    unsteady = {"kind": "unsteady", "label": "unsteady", "detail": ""}
    transient = {"kind": "transient", "label": "transient", "detail": ""}
    steps = [[transient, unsteady], [], [transient], [transient, transient]]
    counts = flag_counts(steps)
    assert counts == {"unsteady": 1, "transient": 3}
    assert list(counts) == ["unsteady", "transient"]  # FLAG_KINDS order, absent kinds left out
    assert flag_counts([]) == {} and flag_counts([[], []]) == {}
