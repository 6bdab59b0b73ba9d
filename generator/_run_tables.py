"""SHOW GLOBAL STATUS deltas per transaction, by step: the run page's largest table, as text.

A run page shows every counter that moved (often 60 or more) for every thread level; formatting
those cells in Hugo took half of the site build, so the generator writes them ready to print.
"""

from __future__ import annotations

MISSING = "\u2014"  # an em dash, as helpers/num.html prints an absent number


def table_number(value: float | None) -> str:
    """helpers/num.html's format: thousands separators, at most 2 decimals, no ".00"."""
    return MISSING if value is None else f"{value:,.2f}".removesuffix(".00")


def status_per_event(run: dict) -> dict | None:
    """{"threads": [...], "rows": [[counter, cell per step], ...]} over the steps that recorded
    status deltas (rows sorted by counter); None when none did."""
    # Insert Benchmark steps are named, not thread levels; its own report covers them.
    steps = [
        s for s in run["steps"] if s.get("server_status_delta") is not None and "threads" in s
    ]
    if not steps:
        return None
    names = sorted({name for step in steps for name in step["server_status_delta"]})
    rows = []
    for name in names:
        cells = []
        for step in steps:
            delta = step["server_status_delta"].get(name)
            events = step.get("events", 0)
            cells.append(
                table_number(delta / events) if delta is not None and events > 0 else MISSING
            )
        rows.append([name, *cells])
    return {"threads": [step["threads"] for step in steps], "rows": rows}
