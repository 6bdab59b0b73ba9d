"""Bringing run documents (and the files they refer to) into a results directory all or
nothing: every document validated and every id checked against the directory and the batch
before the first file is written; an id already there is a no-op when its document is the
same (byte for byte, equal as JSON, or for an imported run equal but for when and by which tree
it was imported) and a refusal naming both when it differs (the source file and both its
hashes, when the source changed); the files land atomically and never over another
(contract.write_run, contract.write_new_file)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import contract
from harness.importing.sources import ImportRefused, refused


@dataclass(frozen=True)
class Arrival:
    """One run document to land, with where it came from (a file, or file:line) and, for a
    document copied from another results directory, its bytes as they were."""

    document: contract.RunDocument
    came_from: str
    raw: bytes | None = None
    checked: bool = False  # validated already (contract.check_run on its bytes)
    notes: tuple[str, ...] = ()  # what the import left out of it, one line each, for the user


@dataclass(frozen=True)
class Landed:
    written: list[Path]
    unchanged: list[Path]  # already there with the same content


def land(arrivals: list[Arrival], data_dir: Path, files: dict[str, bytes] | None = None) -> Landed:
    """Land arrivals as data_dir/runs/<id>.json and files (paths relative to data_dir, such as
    a provenance diff) beside them; raises ImportRefused, with nothing written, on the first
    problem."""
    runs_dir = data_dir / "runs"
    new: list[Arrival] = []
    unchanged: list[Path] = []
    seen: dict[str, Arrival] = {}
    for arrival in arrivals:
        document = arrival.document
        target = runs_dir / f"{document['id']}.json"
        problems = [] if arrival.checked else contract.validate_document(document, str(target))
        if problems:
            raise refused(
                arrival.came_from, f"not a valid run: {problems[0].path}: {problems[0].message}"
            )
        if (twin := seen.get(document["id"])) is not None:
            if twin.document != document:
                raise refused(
                    arrival.came_from,
                    f"run id {document['id']} is also {twin.came_from}'s, with other content",
                )
            continue
        seen[document["id"]] = arrival
        if _already_there(target, arrival):
            unchanged.append(target)
        else:
            new.append(arrival)
    extra = {data_dir / name: data for name, data in (files or {}).items()}
    extra = {path: data for path, data in extra.items() if not _same_file(path, data)}
    return Landed(_write(new, runs_dir, extra), unchanged)


def _already_there(target: Path, arrival: Arrival) -> bool:
    """Whether target holds this document already; refuses another document of its id."""
    try:
        present = target.read_bytes()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise refused(target, f"cannot read ({exc.strerror or exc})") from None
    if present == arrival.raw:
        return True
    try:
        there = json.loads(present)
    except ValueError:
        there = None
    if there == arrival.document or (
        isinstance(there, dict) and _as_imported(there) == _as_imported(arrival.document)
    ):
        return True
    document = arrival.document
    # The run file there: only its origin.sources are read, each key with a default.
    if isinstance(there, dict) and (
        changed := _changed_source(cast(contract.RunDocument, there), document)
    ):
        raise refused(
            arrival.came_from,
            f"run id {document['id']} already in {target}, imported from {changed}: the source"
            " changed since; import it under another campaign name, or remove the earlier runs",
        )
    raise refused(
        arrival.came_from,
        f"run id {document['id']} already in {target}, with other content",
    )


def _as_imported(document: Mapping[str, object]) -> Mapping[str, object]:
    """An imported run less when, and by which tree, it was imported: importing the same source
    with the same options again makes the same run, whenever it runs."""
    if not isinstance(given := document.get("origin"), dict):
        return document
    origin = {key: value for key, value in given.items() if key != "imported_at"}
    return {
        **{key: value for key, value in document.items() if key != "harness"},
        "origin": origin,
    }


def _changed_source(there: contract.RunDocument, arriving: contract.RunDocument) -> str | None:
    """'a.csv (sha256 1234abcd…), now 5678ef01…' when a source file of the same name holds other
    bytes than when the run there was imported, else None."""
    before = {s.get("file"): s.get("sha256") for s in there.get("origin", {}).get("sources", [])}
    for source in arriving.get("origin", {}).get("sources", []):
        old = before.get(source["file"])
        if old is not None and old != source["sha256"]:
            return f"{source['file']} (sha256 {old[:12]}…), now {source['sha256'][:12]}…"
    return None


def _same_file(path: Path, data: bytes) -> bool:
    try:
        present = path.read_bytes()
    except FileNotFoundError:
        return False
    if present != data:
        raise refused(path, "already there with other content")
    return True


def _write(arrivals: list[Arrival], runs_dir: Path, files: dict[Path, bytes]) -> list[Path]:
    """Write everything, or undo what was written when a write fails (a full disk)."""
    written: list[Path] = []
    try:
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            contract.write_new_file(path, data.decode("utf-8"))
            written.append(path)
        runs_dir.mkdir(parents=True, exist_ok=True)
        for arrival in arrivals:
            target = runs_dir / f"{arrival.document['id']}.json"
            if arrival.raw is None:
                contract.write_run(arrival.document, runs_dir)
            else:
                contract.write_new_file(target, arrival.raw.decode("utf-8"))
            written.append(target)
    except OSError as exc:
        for path in written:
            path.unlink(missing_ok=True)
        raise ImportRefused(
            f"{runs_dir}: cannot write ({exc.strerror or exc}); nothing was kept"
        ) from None
    return [path for path in written if path.parent == runs_dir]
