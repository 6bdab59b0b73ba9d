"""contract/fields.py: every path it names exists in the schema, and each reader's answer for an
absent field."""

import json
from typing import Any

import pytest

from contract import RunDocument, Step, SummaryStep
from contract._validate import SCHEMA_PATH
from contract.fields import (
    DOCUMENT_PATHS,
    STEP_FIGURES,
    MissingField,
    data_origin_method,
    monitor_series,
    origin_kind,
    pass_count,
    pass_index,
    pass_order,
    required_value,
    server_variable,
    step_figure,
    step_series,
)
from tests.helpers.paths import DATA_DIR

SCHEMA = json.loads(SCHEMA_PATH.read_text())
NUMBERS = {"number", "integer"}


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = SCHEMA
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _node(root: dict[str, Any], path: str) -> dict[str, Any] | None:
    """The schema node at a dotted path below root; None when some key is not a property."""
    node = _resolve(root)
    for key in path.split("."):
        node = _resolve(node.get("properties", {}).get(key, {"missing": True}))
        if node.get("missing"):
            return None
    return node


def _is_number(node: dict[str, Any]) -> bool:
    kinds = node.get("type", "number" if "minimum" in node else None)
    return bool(NUMBERS & set(kinds if isinstance(kinds, list) else [kinds]))


STEP_DEFINITIONS = ("step", "summary_step", "ibench_step")


@pytest.mark.parametrize("figure", STEP_FIGURES)
def test_a_step_figure_is_a_number_of_the_step_schemas(figure: str) -> None:
    nodes = {name: _node(SCHEMA["$defs"][name], figure) for name in STEP_DEFINITIONS}
    assert any(nodes.values()), f"no step definition has {figure}"
    for name, node in nodes.items():
        assert node is None or _is_number(node), f"$defs/{name} {figure} is not a number: {node}"


@pytest.mark.parametrize("path", DOCUMENT_PATHS)
def test_a_document_path_is_in_the_run_schema(path: str) -> None:
    assert _node(SCHEMA, path) is not None, f"the run schema has no {path}"


def test_a_typo_in_a_figure_path_fails_the_schema_check() -> None:
    assert not any(_node(SCHEMA["$defs"][name], "latency_ms.p59") for name in STEP_DEFINITIONS)


def _committed_run() -> RunDocument:
    path = next(p for p in sorted((DATA_DIR / "runs").glob("*.json")) if "callaghan" not in p.name)
    run: RunDocument = json.loads(path.read_text())
    return run


def test_step_figures_of_a_measured_step_and_of_an_imported_cell() -> None:
    step: Step = _committed_run()["steps"][0]  # type: ignore[assignment]
    assert step_figure(step, "tps") == step["tps"]
    assert step_figure(step, "latency_ms.p95") == step["latency_ms"]["p95"]
    cell: SummaryStep = {"threads": 1, "qps": {"total": 12.5}}
    assert step_figure(cell, "qps.total") == 12.5
    assert step_figure(cell, "tps") is None
    assert step_figure(cell, "latency_ms.p95") is None


def test_a_monitor_series_is_empty_when_the_step_was_not_sampled() -> None:
    step: Step = _committed_run()["steps"][0]  # type: ignore[assignment]
    metric = next(name for name in step["monitor"]["series"] if name != "t")
    assert monitor_series(step, metric) == step["monitor"]["series"][metric]
    assert monitor_series(step, "no_such_metric") == []
    unsampled = {key: value for key, value in step.items() if key != "monitor"}
    assert monitor_series(unsampled, metric) == []  # type: ignore[arg-type]
    assert step_series(step, "tps") == step["series"]["tps"]
    assert step_series(step, "no_such_series") == []
    cell: SummaryStep = {"threads": 1, "tps": 3.0}
    assert step_series(cell, "tps") == []


def test_run_fields_when_present_and_when_absent() -> None:
    run = _committed_run()
    once = {key: value for key, value in run.items() if key not in ("repeat", "origin")}
    measured_once: RunDocument = once  # type: ignore[assignment]
    assert (pass_index(measured_once), pass_order(measured_once), pass_count(measured_once)) == (
        None,
        1,
        1,
    )
    third: RunDocument = {**measured_once, "repeat": {"index": 3, "of": 5}}
    assert (pass_index(third), pass_order(third), pass_count(third)) == (3, 3, 5)
    assert origin_kind(measured_once) is None
    assert server_variable(run, "no_such_variable") is None
    assert (
        server_variable(run, "innodb_buffer_pool_size")
        == (run["server"]["variables"]["innodb_buffer_pool_size"])
    )
    assert data_origin_method(run) in ("prepared", "restored", None)


def test_a_required_value_that_is_absent_or_empty_is_named() -> None:
    run = _committed_run()
    assert required_value(run, "server.version") == run["server"]["version"]
    for broken in ({**run, "server": {**run["server"], "my_cnf": ""}}, {"id": "x"}):
        with pytest.raises(MissingField) as raised:
            required_value(broken, "server.my_cnf")
        assert raised.value.path == "server.my_cnf"
