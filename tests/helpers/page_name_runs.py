"""Run documents whose names become paths, edited from the binlog fixture campaign's six runs:
shared by the generator's checks (tests/generator/hugo/test_term_pages.py) and the real Hugo
build (tests/site/test_page_names.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.helpers.paths import FIXTURE_RUNS

CAMPAIGN = "binlog-sync-policies-20261123-133014"
SOURCES = sorted((FIXTURE_RUNS / "runs").glob(f"{CAMPAIGN}.*.json"))
Edit = Callable[[dict], None]


def edited_runs(root: Path, edits: list[Edit]) -> list[Path]:
    """root/data/runs holding one source run per edit (in SOURCES order), each changed by its
    edit; the run files, named by their (possibly edited) ids."""
    runs_dir = root / "data" / "runs"
    runs_dir.mkdir(parents=True)
    paths = []
    for source, edit in zip(SOURCES, edits, strict=False):
        doc = json.loads(source.read_text())
        edit(doc)
        path = runs_dir / f"{doc['id']}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False))
        paths.append(path)
    return paths


def on_host(fingerprint: str, **host: str) -> Edit:
    """An edit moving a run to the host of this fingerprint with these host fields."""
    return lambda doc: doc["host"].update(fingerprint=fingerprint, **host)
