"""Key tables for the user guide, generated from the JSON Schemas themselves (the campaign file's
and the run document's), so the reference cannot drift from what the harness and validator
accept. One row per key path: `servers.<label>.basedir`, `steps[].tpcc.types.<name>.count`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from contract._validate import SCHEMA_PATH as RUN_SCHEMA_PATH

# The harness owns the campaign schema; the guide only documents it.
REPO = Path(__file__).resolve().parents[2]
CAMPAIGN_SCHEMA_PATH = REPO / "harness" / "campaign" / "campaign.schema.json"
SCHEMAS = {"campaign": CAMPAIGN_SCHEMA_PATH, "run": RUN_SCHEMA_PATH}
BRANCHES = ("allOf", "anyOf", "oneOf", "then", "else")  # where else a key can be declared
LONG_ENUM = 4  # beyond this many values, the type column says "string" and the values go below


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """node with a local $ref ("#/$defs/x") replaced by its target; the node's own keywords
    (a description next to a $ref) win."""
    ref = node.get("$ref")
    if not ref:
        return node
    target = root
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    return {**_resolve(target, root), **{k: v for k, v in node.items() if k != "$ref"}}


def _type_of(node: dict[str, Any]) -> str:
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        if len(node["enum"]) > LONG_ENUM:
            return "string"
        return " | ".join(json.dumps(value) for value in node["enum"])
    kinds = node.get("type")
    if isinstance(kinds, list):
        return " or ".join(kinds)
    if kinds == "array" and isinstance(node.get("items"), dict) and "type" in node["items"]:
        return f"array of {node['items']['type']}"
    if kinds:
        return str(kinds)
    options = [_type_of(branch) for branch in node.get("oneOf", []) + node.get("anyOf", [])]
    return " or ".join(dict.fromkeys(option for option in options if option))


def _condition(test: dict[str, Any], path: str = "") -> tuple[str, object] | None:
    """The first `const` an if-schema tests, as (key path, value): enough for the schemas here."""
    for name, child in test.get("properties", {}).items():
        where = f"{path}.{name}" if path else name
        if "const" in child:
            return where, child["const"]
        if found := _condition(child, where):
            return found
    return None


def _declared(
    node: dict[str, Any], root: dict[str, Any]
) -> tuple[list[tuple[str, dict[str, Any], str]], set[str]]:
    """(name, schema, when) of each property of node, including those its branches declare;
    `when` says which if/then/else branch a declaration belongs to ("" for always)."""
    declared = [(name, schema, "") for name, schema in node.get("properties", {}).items()]
    required = set(node.get("required", []))
    condition = _condition(node["if"]) if "if" in node else None
    for keyword in BRANCHES:
        branches = node.get(keyword, [])
        when = ""
        if keyword in ("then", "else") and condition:
            key, value = condition
            when = f"{key} {'=' if keyword == 'then' else '≠'} {json.dumps(value)}"
        for branch in branches if isinstance(branches, list) else [branches]:
            more, needed = _declared(_resolve(branch, root), root)
            known = {name for name, _, _ in declared}
            # A branch inside a branch holds under both conditions (a summary table's origin,
            # then workload.tool).
            declared += [
                (name, schema, " and ".join(filter(None, (when, inner))))
                for name, schema, inner in more
                if when or inner or name not in known
            ]
            if keyword == "allOf":
                required |= needed
    return declared, required


def _key_label(path: str) -> str:
    """How a free-named key shows in a path: servers.<server>, steps[].status.<status>."""
    last = path.rsplit(".", 1)[-1].removesuffix("[]")
    singular = last[:-2] if last.endswith("xes") else last[:-1]
    return f"<{singular}>" if last.endswith("s") and len(last) > 1 else "<key>"


def _rows(
    node: dict[str, Any],
    path: str,
    required: bool,
    root: dict[str, Any],
    seen: tuple[str, ...],
    when: str = "",
) -> list[dict[str, Any]]:
    ref = node.get("$ref")
    if ref in seen:  # a recursive definition: documented once, at its first use
        return []
    node = _resolve(node, root)
    rows = []
    if path and (not when or "type" in node or "description" in node):
        rows.append(
            {
                "path": path,
                "type": _type_of(node),
                "required": required,
                "description": node.get("description", ""),
                "values": node["enum"] if len(node.get("enum", [])) > LONG_ENUM else [],
                "when": when,
            }
        )
    seen = (*seen, ref) if ref else seen
    properties, needed = _declared(node, root)
    for name, child, branch in properties:
        where = f"{path}.{name}" if path else name
        rows += _rows(child, where, name in needed, root, seen, branch or when)
    named = node.get("additionalProperties")
    if isinstance(named, dict) and named:
        label = _key_label(path)
        rows += _rows(named, f"{path}.{label}" if path else label, False, root, seen, when)
    items = node.get("items")
    if isinstance(items, dict):
        item = _resolve(items, root)
        if _declared(item, root)[0] or isinstance(item.get("additionalProperties"), dict):
            rows += _rows(items, f"{path}[]", False, root, seen, when)
    return rows


def schema_rows(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Every key path a document may hold, in declaration order, with its type, whether it is
    required where it appears, and the schema's own description."""
    return _rows(schema, "", True, schema, ())


def schema_docs() -> dict[str, dict[str, Any]]:
    """The guide's generated reference tables, by schema name."""
    docs = {}
    for name, path in SCHEMAS.items():
        schema = json.loads(path.read_text())
        docs[name] = {
            "title": schema.get("title", name),
            "file": path.relative_to(REPO).as_posix(),  # where a reader finds it in the repository
            "rows": schema_rows(schema),
        }
    return docs
