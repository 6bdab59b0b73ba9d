"""How lists name a run and the one figure they show for it (the home page, section and term
lists through the run index's params, and /browse/ through its index).

The figure is a run's own headline: the highest TPS over its thread levels for sysbench and
TPC-C-like runs, or, for an imported run whose source gave no TPS (a published table in QPS, as
Callaghan prints his), the highest QPS, else rows/s; for an Insert Benchmark run, which has no
TPS, the insert rate of its initial load step (l.i0), the number Callaghan's summaries lead
with, or else the first step's own headline rate. A repeated run is named with its pass, so
three passes of one variant read apart.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, ibench_steps, is_ibench, level_steps
from contract.fields import StepFigure, step_figure
from generator.pages.ibench import headline

# A sysbench run's headline, the first of these its steps give.
STEP_HEADLINES: tuple[tuple[str, StepFigure], ...] = (
    ("max TPS", "tps"),
    ("max QPS", "qps.total"),
    ("max rows/s", "rows_per_s"),
)

PRODUCT_NAMES = {"mariadb": "MariaDB", "mysql": "MySQL", "percona": "Percona Server"}


def product_name(run: RunDocument) -> str:
    """The server product as lists show it ("MariaDB"), or its recorded name when unknown."""
    product = run["server"]["product"]
    return PRODUCT_NAMES.get(product, product)


def run_headline(run: RunDocument) -> dict[str, Any]:
    """{"value": number or None, "label": what it is, e.g. "max TPS" or "l.i0 inserts/s"}."""
    if is_ibench(run):
        steps = ibench_steps(run)
        loads = [step for step in steps if step["kind"] == "load"]
        for step in loads + steps:
            value, unit = headline(step)
            if value is not None:
                return {"value": value, "label": f"{step['step']} {unit}"}
        return {"value": None, "label": ""}
    for label, figure in STEP_HEADLINES:
        values = [
            value for step in level_steps(run) if (value := step_figure(step, figure)) is not None
        ]
        if values:
            return {"value": max(values), "label": label}
    return {"value": None, "label": ""}


def pass_name(run: RunDocument) -> str:
    """ "repeat 2 of 3" for a pass of a repeated campaign (as the run page's title says it), else
    ""."""
    repeat = run.get("repeat")
    return f"repeat {repeat['index']} of {repeat['of']}" if repeat else ""


def run_name(run: RunDocument) -> str:
    """The run's name, its run page's title (through the run index, pages/run_page.py):
    "oltp-rw on MariaDB 11.4.5, binlog-off", with ", repeat 2 of 3" for a pass."""
    name = f"{run['workload']['name']} on {product_name(run)} {run['server']['version']}"
    name = f"{name}, {run['variant']}"
    passed = pass_name(run)
    return f"{name}, {passed}" if passed else name
