"""The one verdict on a measured step: the flags that make it unfit to judge, decided here and
nowhere else. Every page, table, chart, shortcode and draft that says whether a step (or a
number resting on it) can be trusted reads these flags; none restates a rule.

A step's flags, each a kind from FLAG_KINDS with the numbers behind it:

- unsteady: its throughput failed the steady-state test (generator/analysis/stats.py).
- inherited: a write step that started with more write debt than the harness settles to
  (generator/analysis/write_debt.py): it paid for the steps before it.
- transient: a write step whose debt was still growing, or reached its ceiling only in the
  second half of the measured window: it measured the climb, not the equilibrium.
- steal: the hypervisor took more than STEAL_LIMIT_PCT of the host's CPU time during the
  step: the VM ran slow, whatever the server did.
- client: the client used nearly all the CPUs it could run on: the step measured the client
  as much as the server.

A step without flags is "fit". A step too short for the steady-state test carries no
"unsteady" flag but says so (steady is None in its trust entry).
"""

from __future__ import annotations

from typing import Any

STEAL_LIMIT_PCT = 5.0

# kind -> (short label for a cell or a chart legend, one line for a legend)
FLAG_KINDS: dict[str, tuple[str, str]] = {
    "unsteady": ("unsteady", "the throughput drifted or varied beyond the steady-state limits"),
    "inherited": ("inherited debt", "started with more write debt than the harness settles to"),
    "transient": ("transient", "the write debt was still growing in the measured window"),
    "steal": ("steal", f"the hypervisor took more than {STEAL_LIMIT_PCT:g} % of the CPU time"),
    "client": ("client-bound", "the client used nearly all the CPUs it could run on"),
}


def step_flags(trust: dict[str, Any], steal_pct: float | None = None) -> list[dict[str, Any]]:
    """The flags of one step from its trust entry (generator/analysis/trust.py) and the
    host's steal share over the step; each {"kind", "label", "detail"}."""
    flags = []

    def flag(kind: str, detail: str) -> None:
        flags.append({"kind": kind, "label": FLAG_KINDS[kind][0], "detail": detail})

    if trust.get("steady") is False:
        flag("unsteady", f"drift {trust['drift']:.1%}, CV {trust['cv']:.1%}")
    debt = trust.get("write_debt")
    if debt and debt["inherited"]:
        flag("inherited", f"started at {debt['start_mb']} MB of checkpoint age, settled is"
                          f" {debt['settled_mb']} MB or less")  # fmt: skip
    if debt and debt["transient"]:
        flag("transient", _transient_detail(debt))
    if steal_pct is not None and steal_pct > STEAL_LIMIT_PCT:
        flag("steal", f"{steal_pct:.1f} % of the CPU time stolen")
    client = trust.get("client")
    if client and client["saturated"]:
        flag("client", f"client CPU {client['cpu_pct']} % of {client['cpus']} CPUs")
    return flags


def _transient_detail(debt: dict[str, Any]) -> str:
    start, end = debt["checkpoint_mb"]
    where = f"checkpoint age {start} → {end} MB (peak {debt['peak_mb']})"
    if debt["ceiling_s"] is None:
        return f"{where}, still rising at the end"
    return f"{where}, its ceiling reached at {debt['ceiling_s']} s of {debt['kept_s']} s"


def flag_counts(flag_lists: list[list[dict[str, Any]]]) -> dict[str, int]:
    """How many of the steps carry each kind of flag, in FLAG_KINDS order, kinds absent left
    out; a step with two kinds counts once under each."""
    counts = dict.fromkeys(FLAG_KINDS, 0)
    for flags in flag_lists:
        for kind in {flag["kind"] for flag in flags}:
            counts[kind] += 1
    return {kind: count for kind, count in counts.items() if count}
