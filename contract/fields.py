"""Reading a run document: each field that readers take from more than one place, spelled once.

A field a run always holds is read with a plain subscript (`run["server"]["version"]`): the
TypedDicts of _run_document.py make mypy refuse a key the schema lacks. What this module holds
is the rest, each with its one spelling and its one answer for "absent":

- a step's figures by a dotted path (`step_figure(step, "latency_ms.p95")`), for the tables and
  charts that list their columns as data. `StepFigure` names every such path, so a typo is a type
  error, and tests/contract/test_fields.py checks each against the schema's step definitions.
  An imported step holds only the figures its source gave, so every figure may be absent;
- a step's monitoring series by metric name;
- the fields of a run that are optional in the schema but have a meaning when absent (a run that
  is not one of several passes is pass 1 of 1; a run without `origin` was measured here);
- a required value at a dotted path of a document read from outside (a run page's JSON that
  `mybench reproduce` rebuilds a campaign from), refused by name when it is missing or empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from contract._run_document import AnyStep, PrintedRatio, RunDocument, Step, SummaryStep

# A figure of a step at a dotted path: of a sysbench step ($defs/step; a summary table's
# $defs/summary_step holds some of them), or of an Insert Benchmark step ($defs/ibench_step:
# the operation counts, the host's counters and cost per operation). Within an object, in the
# order the run page's tables show them (figures_under).
StepFigure = Literal[
    "tps",
    "rows_per_s",
    "events",
    "errors",
    "reconnects",
    "duration_s",
    "inserts",
    "deletes",
    "queries",
    "inserts_per_s",
    "queries_per_s",
    "rows",
    "qps.total",
    "qps.read",
    "qps.write",
    "qps.other",
    "latency_ms.min",
    "latency_ms.avg",
    "latency_ms.p95",
    "latency_ms.p99",
    "latency_ms.max",
    "os.cpu_user_pct",
    "os.cpu_system_pct",
    "os.cpu_iowait_pct",
    "os.cpu_steal_pct",
    "os.cpu_idle_pct",
    "os.context_switches_per_s",
    "os.read_kb_per_s",
    "os.write_kb_per_s",
    "per_op.cpu_us",
    "per_op.context_switches",
    "per_op.read_kb",
    "per_op.write_kb",
]
STEP_FIGURES: tuple[StepFigure, ...] = get_args(StepFigure)


def figures_under(parent: str) -> tuple[StepFigure, ...]:
    """The figures of a step's object `parent` (os, per_op, latency_ms), in StepFigure's order."""
    return tuple(figure for figure in STEP_FIGURES if figure.startswith(f"{parent}."))


# A required value of a run document at a dotted path, as `required_value` reads it.
DocumentPath = Literal[
    "id",
    "variant",
    "steps",
    "workload",
    "workload.tool",
    "campaign.name",
    "server.product",
    "server.version",
    "server.my_cnf",
]
DOCUMENT_PATHS: tuple[DocumentPath, ...] = get_args(DocumentPath)


class MissingField(ValueError):
    """A required value of a document read from outside is absent or empty."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def _at(document: Mapping[str, object], path: str) -> object:
    value: object = document
    for key in path.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def step_figure(step: AnyStep, figure: StepFigure) -> float | None:
    """The step's figure at `figure`; None where the step lacks it."""
    value = _at(step, figure)
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def printed_ratios(step: Step | SummaryStep) -> dict[str, PrintedRatio]:
    """The ratios a published table printed beside the step's figures, by metric; empty for a
    step of any other source."""
    # `in` narrows the union to SummaryStep for mypy, where `.get` on a Step would not type-check.
    return step["printed_ratios"] if "printed_ratios" in step else {}  # noqa: SIM401


def monitor_series(step: AnyStep, metric: str) -> list[float]:
    """The step's per-second samples of a monitored metric; empty when it was not sampled."""
    if "monitor" not in step:
        return []
    return step["monitor"]["series"].get(metric) or []


def step_series(step: AnyStep, name: str) -> list[float]:
    """The step's own per-second series (tps, p95_ms, inserts_per_s, ...); empty when it has none
    of that name."""
    series = _at(step, "series")
    values = series.get(name) if isinstance(series, Mapping) else None
    return list(values) if isinstance(values, list) else []


def server_variable(run: RunDocument, name: str) -> str | None:
    """The server's global variable as SHOW GLOBAL VARIABLES printed it; None when not recorded."""
    return run["server"].get("variables", {}).get(name)


def pass_index(run: RunDocument) -> int | None:
    """Which pass of its cell the run is (1-based); None for a run measured once."""
    return run["repeat"]["index"] if "repeat" in run else None


def pass_order(run: RunDocument) -> int:
    """The run's place among its cell's passes, a run measured once being the first."""
    return pass_index(run) or 1


def pass_count(run: RunDocument) -> int:
    """How many passes the run's cell was measured in; 1 for a run measured once."""
    return run["repeat"]["of"] if "repeat" in run else 1


def origin_kind(run: RunDocument) -> Literal["sysbench-log", "summary-table"] | None:
    """What an imported run was imported from (sysbench-log, summary-table); None when it was
    measured by this harness."""
    return run["origin"]["kind"] if "origin" in run else None


def data_origin_method(run: RunDocument) -> Literal["prepared", "restored"] | None:
    """How the workload's data came to be; None when not recorded."""
    origin = run["workload"].get("data_origin")
    return origin["method"] if origin else None


def required_value(document: Mapping[str, object], path: DocumentPath) -> object:
    """The document's value at `path`; MissingField naming the path when it is absent or empty
    (null, "", [] or {})."""
    value = _at(document, path)
    if value in (None, "", [], {}):
        raise MissingField(path)
    return value
