"""The compiled validator (jsonschema-rs) decides and jsonschema explains: both must read the
schema alike, or a run one accepts would be refused, or let through, by the other."""

import copy
import json

import jsonschema
import pytest

import contract
from contract._validate import SCHEMA_PATH, _verdict
from tests.helpers.compare_runs import compare_runs, drifted_runs
from tests.helpers.hostile_runs import hostile_data
from tests.helpers.paths import DATA_DIR, REPO
from tests.helpers.suite_runs import callaghan_campaign, template_run

SCHEMA = json.loads(SCHEMA_PATH.read_text())
STOCK = jsonschema.Draft202012Validator(
    SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)


def _documents() -> list[dict]:
    paths = [*sorted((DATA_DIR / "runs").glob("*.json")),
             *sorted((REPO / "tests" / "fixtures" / "runs").glob("*.json"))]  # fmt: skip
    runs = [json.loads(path.read_text()) for path in paths]
    return [*runs, *compare_runs(runs), *drifted_runs(compare_runs(runs)),
            *callaghan_campaign(template_run(runs))]  # fmt: skip


def _breakages(run: dict) -> list[dict]:
    """One broken copy per kind of keyword: nested series items, a map of strings, a plain
    property, an integer, an enum, a required member, a pattern, a size limit."""
    edits = [
        lambda d: d["steps"][0]["series"]["tps"].__setitem__(2, "x"),
        lambda d: d["steps"][0]["series"]["qps"].__setitem__(1, True),  # a boolean is no number
        lambda d: d["steps"][-1]["series"]["t"].__setitem__(0, -1),
        lambda d: d["server"]["variables"].__setitem__("port", 3306),
        lambda d: d["steps"][0].__setitem__("errors", 1.5),
        lambda d: d.__setitem__("status", 3),
        lambda d: d["steps"][0].pop("series"),
        lambda d: d["host"].pop("kernel"),
        lambda d: d.pop("reproduce"),
        lambda d: d["host"].__setitem__("hostname", "-bad-"),
        lambda d: d["server"].__setitem__("my_cnf", "x" * 262145),
    ]
    broken = []
    for edit in edits:
        doc = copy.deepcopy(run)
        edit(doc)
        broken.append(doc)
    return broken


def test_both_validators_accept_every_valid_document(tmp_path):
    hostile = sorted((hostile_data(tmp_path) / "runs").glob("*.json"))
    documents = [*_documents(), *(json.loads(path.read_text()) for path in hostile)]
    assert len(documents) > 200
    for doc in documents:
        assert _verdict(SCHEMA_PATH).is_valid(doc), doc["id"]
        assert not list(STOCK.iter_errors(doc)), doc["id"]


def test_both_validators_refuse_each_breakage():
    run = next(
        doc for doc in _documents() if len(doc["steps"]) > 1 and "series" in doc["steps"][0]
    )
    for doc in _breakages(run):
        stock = list(STOCK.iter_errors(doc))
        assert _verdict(SCHEMA_PATH).is_valid(doc) == (not stock), [e.message for e in stock]


def test_a_refused_document_is_explained_by_jsonschema():
    run = next(doc for doc in _documents() if "series" in doc["steps"][0])
    broken = copy.deepcopy(run)
    broken["steps"][0]["tps"] = "x"
    problems = contract.validate_document(broken, "r.json")
    assert [(p.path, p.message) for p in problems] == [
        ("$.steps[0].tps", "'x' is not of type 'number'")
    ]


@pytest.mark.parametrize("stamp", ["2024-13-45T00:00:00Z", "2024-02-30T10:00:00Z"])
def test_a_date_only_the_compiled_validator_checks_is_still_refused(stamp):
    run = copy.deepcopy(_documents()[0])
    run["started_at"] = stamp
    problems = contract.validate_document(run, "r.json")
    assert [p.path for p in problems] == ["$.started_at"]
    assert stamp in problems[0].message
