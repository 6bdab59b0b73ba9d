"""The typed read model (contract.RunDocument and its parts) says what the JSON Schema says.

The walk starts at the schema's root and RunDocument and descends property by property: every
object with named properties must be a TypedDict with exactly those keys and the schema's
required ones Required; an open map must be dict[str, <its values>]; arrays are lists; enums
and consts are Literals of the same values; scalars the matching Python type, `| None` where
the schema allows null.
"""

import json
import types
from typing import (
    Any,
    Literal,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import pytest

import contract
from contract._validate import SCHEMA_PATH
from tests.helpers.compare_runs import compare_runs, drifted_runs
from tests.helpers.paths import DATA_DIR
from tests.helpers.repeated_runs import as_repeat, two_variants
from tests.helpers.suite_runs import callaghan_campaign, template_run

SCHEMA = json.loads(SCHEMA_PATH.read_text())
SCALARS = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None)}


def _resolve(node: dict) -> dict:
    """Follow a local $ref (#/$defs/step/properties/os included) to the node it names."""
    while "$ref" in node:
        target: Any = SCHEMA
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k not in ("$ref", "description")}}
    return node


def _members(annotation: object) -> tuple[object, ...]:
    if get_origin(annotation) in (Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def _literal_values(annotation: object) -> set[object]:
    return {v for m in _members(annotation) for v in get_args(m) if get_origin(m) is Literal}


def _check(node: dict, annotation: object, path: str) -> list[str]:
    """What disagrees between one schema node and the annotation of the same place."""
    node = _resolve(node)
    if "enum" in node or "const" in node:
        expected = set(node.get("enum", [node.get("const")]))
        found = _literal_values(annotation)
        return [] if found == expected else [f"{path}: Literal{sorted(found, key=str)} vs {node}"]
    kinds = node["type"] if isinstance(node.get("type"), list) else [node.get("type")]
    members = list(_members(annotation))
    if "null" in kinds:
        if type(None) not in members:
            return [f"{path}: null allowed by the schema, not by {annotation}"]
        members.remove(type(None))
        kinds = [kind for kind in kinds if kind != "null"]
    elif type(None) in members:
        return [f"{path}: {annotation} allows None, the schema does not"]
    if len(kinds) != 1 or len(members) != 1:
        return [f"{path}: cannot compare {kinds} with {annotation}"]
    kind, member = kinds[0], members[0]
    if kind == "array":
        if get_origin(member) is not list:
            return [f"{path}: an array typed {member}"]
        return _check(node.get("items", {}), get_args(member)[0], f"{path}[]")
    if kind == "object":
        return _check_object(node, member, path)
    return [] if member is SCALARS[kind] else [f"{path}: {kind} typed {member}"]


def _check_object(node: dict, member: object, path: str) -> list[str]:
    extra = node.get("additionalProperties", True)
    if extra is False:
        if not is_typeddict(member):
            return [f"{path}: an object with named properties typed {member}, not a TypedDict"]
        return _check_typeddict(node, member, path)
    if get_origin(member) is not dict or get_args(member)[0] is not str:
        return [f"{path}: an open map typed {member}, not dict[str, ...]"]
    if node.get("properties"):
        return [f"{path}: both named properties and other keys; no type here says that yet"]
    return _check(extra if isinstance(extra, dict) else {}, get_args(member)[1], f"{path}.*")


def _check_typeddict(node: dict, typed: Any, path: str) -> list[str]:
    hints = get_type_hints(typed)
    properties = node.get("properties", {})
    problems = [f"{path}.{name}: in the schema, not in {typed.__name__}"
                for name in properties.keys() - hints.keys()]  # fmt: skip
    problems += [f"{path}.{name}: in {typed.__name__}, not in the schema"
                 for name in hints.keys() - properties.keys()]  # fmt: skip
    if set(typed.__required_keys__) != set(node.get("required", [])):
        problems.append(
            f"{path}: {typed.__name__} requires {sorted(typed.__required_keys__)}, "
            f"the schema {sorted(node.get('required', []))}"
        )
    for name in properties.keys() & hints.keys():
        if name == "steps" and typed is contract.RunDocument:
            problems += _check_steps(hints[name], path)
        else:
            problems += _check(properties[name], hints[name], f"{path}.{name}")
    return problems


def _check_steps(annotation: object, path: str) -> list[str]:
    """steps: list[Step] | list[IbenchStep] | list[SummaryStep], the branches of the schema's
    step-type condition (a summary table's origin, then workload.tool)."""
    by_kind = SCHEMA["allOf"][1]
    by_tool = by_kind["else"]
    branches = {
        "sysbench": by_tool["else"],
        "ibench": by_tool["then"],
        "summary": by_kind["then"],
    }
    lists = _members(annotation)
    if len(lists) != len(branches):
        return [f"{path}.steps: {annotation}, not one list type per step type"]
    problems = []
    for kind, typed in zip(branches, lists, strict=True):
        steps = {"type": "array", **branches[kind]["properties"]["steps"]}
        problems += _check(steps, typed, f"{path}.steps({kind})")
    return problems


def test_the_typed_model_matches_the_schema():
    assert _check(SCHEMA, contract.RunDocument, "$") == []


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda d: d["properties"]["host"]["properties"].pop("kernel"), "$.host.kernel: in Host"),
        (lambda d: d["properties"]["host"]["required"].remove("hostname"), "$.host: Host requires"),
        (lambda d: d["$defs"]["step"]["properties"].update(new={"type": "string"}),
         "$.steps(sysbench)[].new: in the schema"),
        (lambda d: d["properties"]["status"]["enum"].append("aborted"), "$.status: Literal"),
        (lambda d: d["$defs"]["step"]["properties"]["qps"].update(additionalProperties=True),
         "not dict[str, ...]"),
        (lambda d: d["properties"]["server"]["properties"]["variables"].update(
            additionalProperties={"type": "number"}), "$.server.variables.*: number"),
    ],
)  # fmt: skip
def test_the_walk_notices_a_disagreement(monkeypatch, change, complaint):
    changed = json.loads(json.dumps(SCHEMA))
    change(changed)
    monkeypatch.setitem(globals(), "SCHEMA", changed)
    problems = _check(changed, contract.RunDocument, "$")
    assert any(complaint in problem for problem in problems), problems


def test_a_plain_dict_for_a_nested_object_is_a_disagreement():
    Loose = TypedDict("Loose", {**get_type_hints(contract.Step), "qps": dict[str, float]})
    problems = _check_typeddict(_resolve({"$ref": "#/$defs/step"}), Loose, "$.steps[]")
    assert any("$.steps[].qps: an object with named properties" in p for p in problems)


def test_committed_runs_and_test_fixtures_validate():
    runs, problems = contract.validate_dir(DATA_DIR)
    assert problems == [] and runs
    base, later = two_variants(runs)
    made = [
        *compare_runs(runs),
        *drifted_runs(compare_runs(runs)),
        as_repeat(base, 1, 2),
        as_repeat(later, 2, 2, scale=1.1),
        *callaghan_campaign(template_run(runs)),
    ]
    for doc in made:
        assert contract.validate_document(doc) == [], doc["id"]
