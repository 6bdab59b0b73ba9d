"""What `mybench reproduce RUN` does before it runs anything: find the run's document and a
server build of its version here, rebuild its campaign, and write the campaign file beside the
results (results/reproduce/<run id>.toml) so it can be read and run again with `mybench run`.
A document read from elsewhere is kept beside it too (results/reproduce/originals/runs/), so a
preview can show the original next to its reproduction. Both are named by the run's id, which
is checked against the run document schema's id first: nothing is written outside --results."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import quote

import jsonschema

import contract
from harness import PROJECT_ROOT
from harness.errors import UserError
from harness.reproduce.campaign_file import rebuild_campaign, refuse_unreproducible, required
from harness.reproduce.original import Original, data_dir_holding, find_original
from harness.reproduce.server_build import find_build

FOLDER = "reproduce"  # under the results directory
ORIGINALS = "originals"  # a data directory (runs/*.json) under FOLDER
RUN_SCHEMA = PROJECT_ROOT / "data" / "schema" / "run-v1.schema.json"


@dataclass(frozen=True)
class Plan:
    campaign_file: Path
    original: Original
    original_data_dir: Path  # holds the original as runs/<id>.json, for a preview
    notes: list[str]


def _create(path: Path, content: bytes) -> Path:
    """Write a new file whole: path, or path-2, path-3 ... when one is there (never replaced)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".", delete=False) as tmp:
        tmp.write(content)
    attempt, candidate = 1, path
    try:
        while True:
            try:
                os.link(tmp.name, candidate)
                return candidate
            except FileExistsError:
                attempt += 1
                candidate = path.with_name(f"{path.stem}-{attempt}{path.suffix}")
    finally:
        os.unlink(tmp.name)


def _keep_original(original: Original, data_dirs: list[Path], folder: Path) -> Path:
    """A data directory holding the original: where it was found, or a copy under folder."""
    run_id = original.document["id"]
    if (holding := original.data_dir or data_dir_holding(run_id, data_dirs)) is not None:
        return holding
    copies = folder / ORIGINALS
    if not (copies / "runs" / f"{run_id}.json").is_file():
        text = json.dumps(original.document, indent=1, ensure_ascii=False) + "\n"
        _create(copies / "runs" / f"{run_id}.json", text.encode())
    return copies


@cache
def _id_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(RUN_SCHEMA.read_text())
    return jsonschema.Draft202012Validator(
        {"$defs": schema["$defs"], **schema["properties"]["id"]}
    )


def check_id(run_id: str) -> None:
    """UserError unless run_id is an id the schema allows, so it names a file in one folder."""
    error = jsonschema.exceptions.best_match(_id_validator().iter_errors(run_id))
    if error is not None:
        raise UserError(f"id: {error.message}: not a run id; nothing written")


def prepare(
    run: str,
    data_dirs: list[Path],
    results: Path,
    basedir: Path | None,
    repeats: int,
    allow_private: bool = False,
) -> Plan:
    """Everything up to the campaign file; UserError when the run cannot be reproduced here."""
    original = find_original(run, data_dirs, allow_private)
    document = original.document
    check_id(document["id"])
    refuse_unreproducible(document)
    build = find_build(
        str(required(document, "server.product")),
        str(required(document, "server.version")),
        str(document["server"].get("basedir", "")),
        basedir,
    )
    rebuilt = rebuild_campaign(
        document, original.source, str(build.basedir), repeats, confined=not original.trusted
    )
    folder = results / FOLDER
    campaign_file = _create(folder / f"{document['id']}.toml", rebuilt.text.encode())
    notes = [note for note in (build.note, *rebuilt.notes) if note]
    return Plan(campaign_file, original, _keep_original(original, data_dirs, folder), notes)


def series_label(document: contract.RunDocument) -> str:
    """The compare page's label for a run among runs of several campaigns
    (site/assets/js/compare/selection.js): campaign id, variant, and #pass when repeated."""
    label = document["variant"]
    if (repeat := document.get("repeat")) is not None:
        label = f"{label} #{repeat['index']}"
    return f"{document['campaign']['id']} {label}"


def compare_path(original: contract.RunDocument, new_ids: list[str]) -> str:
    """The site-relative compare URL: the original and its reproductions, the original as base
    (the query string site/assets/js/compare/state.js reads)."""
    runs = ",".join(quote(run_id, safe="") for run_id in [original["id"], *new_ids])
    workload = quote(original["workload"]["name"], safe="")
    base = quote(series_label(original), safe="")
    return f"compare/?runs={runs}&workload={workload}&base={base}"
