"""The guide's key tables (generator/pages/schema_doc.py) cover every key the schemas accept."""

from __future__ import annotations

import json

from generator.pages.schema_doc import SCHEMAS, schema_docs, schema_rows


def test_every_campaign_key_is_described():
    rows = schema_docs()["campaign"]["rows"]
    undescribed = [row["path"] for row in rows if not row["description"]]
    assert not undescribed, f"describe these in harness/campaign.schema.json: {undescribed}"
    paths = {row["path"] for row in rows}
    for key in ("servers.<server>.basedir", "variants.<variant>.options.<option>",
                "sweep.repeats", "workloads.<workload>.steps"):  # fmt: skip
        assert key in paths


def test_every_declared_property_of_the_run_schema_has_a_row():
    schema = json.loads(SCHEMAS["run"].read_text())
    paths = {row["path"] for row in schema_docs()["run"]["rows"]}
    for name in schema["properties"]:
        assert name in paths
    # Steps are typed by a summary table's origin, then by workload.tool (nested if/then/else):
    # every kind is documented, each marked with the conditions it holds under.
    when = {row["when"] for row in schema_docs()["run"]["rows"] if row["path"] == "steps[].tps"}
    assert when == {
        'origin.kind = "summary-table"',
        'origin.kind ≠ "summary-table" and workload.tool ≠ "ibench"',
    }
    assert any(
        row["path"] == "steps[].inserts_per_s"
        and row["when"] == 'origin.kind ≠ "summary-table" and workload.tool = "ibench"'
        for row in schema_docs()["run"]["rows"]
    )


def test_rows_of_a_small_schema():
    schema = {
        "type": "object",
        "required": ["a"],
        "properties": {
            "a": {"type": "integer", "description": "An a."},
            "b": {"$ref": "#/$defs/named"},
            "c": {"enum": ["x", "y", "z", "v", "w"]},
        },
        "$defs": {
            "named": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            }
        },
    }
    rows = [(r["path"], r["type"], r["required"], r["values"]) for r in schema_rows(schema)]
    assert rows == [
        ("a", "integer", True, []),
        ("b", "object", False, []),
        ("b.<key>", "array of string", False, []),
        ("c", "string", False, ["x", "y", "z", "v", "w"]),
    ]
