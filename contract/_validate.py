"""Validate run documents against the published JSON Schema; problems name file and JSON path
(or line and column when a file is not JSON).

Two validators read the one schema. jsonschema-rs (compiled) gives the verdict: it checks a run
in ~0.3 ms where jsonschema's pure-Python descent took ~8 ms, most of a cold build's
validation. Only a document it refuses goes through jsonschema, whose messages (the field's
JSON path, a long value shortened, a size and its limit, a pattern's reason) are the ones users
and tests read; should jsonschema find nothing there (jsonschema-rs also checks the date-time
format), jsonschema-rs's own messages are reported, so a refused document is never let
through.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import cast

import jsonschema
import jsonschema_rs

from contract._invisible_text import invisible_characters, may_hold_invisible
from contract._page_names import PageNameError, page_segment
from contract._run_document import RunDocument
from contract._secrets import credential_leaks
from contract._strict_json import parse_strict

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "data" / "schema" / "run-v1.schema.json"


@dataclass(frozen=True)
class Problem:
    file: str
    path: str  # JSON path such as $.steps[0].tps
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}"


@cache
def _schema(path: Path = SCHEMA_PATH) -> dict[str, object]:
    return cast(dict[str, object], json.loads(path.read_text()))


@cache
def _verdict(path: Path) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(_schema(path), validate_formats=True)


@cache
def _explainer(path: Path) -> jsonschema.Draft202012Validator:
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    return jsonschema.Draft202012Validator(_schema(path), format_checker=checker)


def schema_problems(doc: object, file: str, schema_path: Path = SCHEMA_PATH) -> list[Problem]:
    """The problems the schema at schema_path finds in doc (the run schema unless told)."""
    if _verdict(schema_path).is_valid(doc):
        return []
    explained = [
        Problem(file, _json_path(err.absolute_path), _message(err))
        for err in sorted(
            _explainer(schema_path).iter_errors(doc), key=lambda e: list(e.absolute_path)
        )
    ]
    return explained or [
        Problem(file, _json_path(err.instance_path), err.message)
        for err in _verdict(schema_path).iter_errors(doc)
    ]


def _json_path(parts: Iterable[str | int]) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


# Size keywords -> what they count; their message states the size and the limit instead of
# quoting the (possibly megabytes long) value.
_SIZES = {"maxItems": "items", "maxLength": "characters", "maxProperties": "members"}


def _message(error: jsonschema.ValidationError) -> str:
    """jsonschema's message with a long value shortened (a 400-digit number, a huge string);
    a size over its limit says both; a failed pattern also quotes the field's description,
    which says why."""
    if error.validator in _SIZES and isinstance(error.instance, str | list | dict):
        return (
            f"{len(error.instance):,} {_SIZES[str(error.validator)]}, over the limit of "
            f"{error.validator_value:,} ({error.validator})"
        )
    if error.validator == "not" and (named := _named_def(error.validator_value)):
        return f"{reprlib.repr(error.instance)} is {named}"
    message = error.message
    value = repr(error.instance)
    if message.startswith(value):
        message = reprlib.repr(error.instance) + message[len(value) :]
    why = error.schema.get("description") if isinstance(error.schema, dict) else None
    return f"{message}: {why}" if error.validator == "pattern" and why else message


def _named_def(refused: object) -> str | None:
    """The description of the $defs entry a `not` refuses (what the value must not be, and
    why), rather than jsonschema's dump of the subschema."""
    ref = refused.get("$ref") if isinstance(refused, dict) else None
    defs = cast(dict[str, dict[str, str]], _schema()["$defs"])
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return None
    return defs.get(ref.removeprefix("#/$defs/"), {}).get("description")


def validate_document(
    doc: object, file: str = "<document>", json_text: str | None = None
) -> list[Problem]:
    """Schema problems plus the rules a schema cannot say (cross-field, invisible characters,
    credentials in clear: contract/_secrets.py, ids that cannot name a page:
    contract/_page_names.py).

    json_text, the document's file text when known, spares the walk for invisible characters
    when it holds none.
    """
    problems = schema_problems(doc, file)
    if problems or not isinstance(doc, dict):
        return problems
    if json_text is None or may_hold_invisible(json_text):
        problems += [Problem(file, path, why) for path, why in invisible_characters(doc)]
    problems += [Problem(file, path, why) for path, why in credential_leaks(doc)]
    if file.endswith(".json") and Path(file).stem != doc["id"]:
        problems.append(Problem(file, "$.id", f"id {doc['id']!r} differs from the file name"))
    for path, name in (("$.id", doc["id"]), ("$.campaign.id", doc["campaign"]["id"])):
        try:
            page_segment(name)  # /runs/<id>/, /campaigns/<id>/
        except PageNameError as refused:
            problems.append(Problem(file, path, f"cannot name a page: {refused}"))
    # A sysbench step is keyed by its thread level, an Insert Benchmark step by its name.
    keys = [step.get("threads", step.get("step")) for step in doc["steps"]]
    if len(set(keys)) != len(keys):
        what = "steps" if doc["workload"]["tool"] == "ibench" else "thread levels"
        problems.append(Problem(file, "$.steps", f"duplicate {what} {keys}"))
    if doc["status"] == "complete" and not doc["steps"]:
        problems.append(Problem(file, "$.steps", "a complete run has no steps"))
    for index, step in enumerate(doc["steps"]):
        for where, series in (
            ("series", step.get("series", {})),  # an ibench flush step has none
            ("monitor.series", step.get("monitor", {}).get("series", {})),
        ):
            if len({len(values) for values in series.values()}) > 1:
                path = f"$.steps[{index}].{where}"
                problems.append(Problem(file, path, "series have different lengths"))
        monitor = step.get("monitor", {})
        for name in sorted(set(monitor.get("kinds", {})) - set(monitor.get("series", {}))):
            path = f"$.steps[{index}].monitor.kinds"
            problems.append(Problem(file, path, f"kind of {name!r}, which has no series"))
    return problems


def check_run(file: str, raw: bytes) -> tuple[RunDocument | None, list[Problem]]:
    """Parse and validate the bytes of run file `file`; the document is None when it cannot be
    used."""
    doc, unparsed = parse_strict(raw)
    if unparsed:
        return None, [Problem(file, where, why) for where, why in unparsed]
    problems = validate_document(doc, file, raw.decode("utf-8"))
    return (None if problems else cast(RunDocument, doc)), problems


def load_run(path: Path) -> tuple[RunDocument | None, list[Problem]]:
    """Read and validate one run file; the document is None when it cannot be used."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [unreadable(path, exc)]
    return check_run(str(path), raw)


def unreadable(path: Path, exc: OSError) -> Problem:
    return Problem(str(path), "$", f"cannot read: {exc.strerror}")


def run_files(data_dir: Path) -> tuple[list[Path], list[Problem]]:
    """The runs/*.json of a results directory, sorted, and a problem for anything else there."""
    runs_dir = data_dir / "runs"
    if not runs_dir.is_dir():
        return [], [Problem(str(runs_dir), "$", "no runs/ directory here")]
    strays = sorted(p for p in runs_dir.iterdir() if p.suffix != ".json")
    problems = [
        Problem(str(stray), "$", "not a .json run file")
        for stray in strays
        if not stray.name.startswith(".")
    ]
    return sorted(runs_dir.glob("*.json")), problems
