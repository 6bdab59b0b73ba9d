"""A results directory's known changes (known-changes.toml beside its runs/): changes in a
recurring campaign's history whose cause its owner knows, each with the reason shown on the
history charts. Read and checked against data/schema/known-changes-v1.schema.json."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import NotRequired, TypedDict

from contract._invisible_text import invisible_characters
from contract._validate import Problem, schema_problems

KNOWN_CHANGES_FILE = "known-changes.toml"
KNOWN_CHANGES_SCHEMA_PATH = (
    Path(__file__).resolve().parents[1] / "data" / "schema" / "known-changes-v1.schema.json"
)


class KnownChange(TypedDict):
    campaign: str  # the campaign file's name
    since: str  # the id of the first campaign the change shows in
    reason: str
    # Narrowing to some series; absent: every series of the campaign.
    host: NotRequired[str]  # a host's label or hostname
    workload: NotRequired[str]
    variant: NotRequired[str]
    level: NotRequired[str]
    metric: NotRequired[str]
    # Where it was read (file, and JSON path of the entry), for a problem that names it.
    source: NotRequired[tuple[str, str]]


def load_known_changes(data_dir: Path) -> tuple[list[KnownChange], list[Problem]]:
    """The known changes of the results directory (none without the file), or the problems
    that keep its file from being read, naming file and field."""
    path = Path(data_dir) / KNOWN_CHANGES_FILE
    if not path.is_file():
        return [], []
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        return [], [Problem(str(path), "$", f"not TOML: {error}")]
    problems = schema_problems(document, str(path), KNOWN_CHANGES_SCHEMA_PATH)
    # the reasons are shown on pages: no text that reads as something else there
    problems += [Problem(str(path), where, why) for where, why in invisible_characters(document)]
    if problems:
        return [], problems
    known: list[KnownChange] = document["known"]
    for index, change in enumerate(known):
        change["source"] = (str(path), f"$.known[{index}]")
    return known, []
