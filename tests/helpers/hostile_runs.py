"""Hostile run documents: real fixture runs with markup and script in every free-text field that
reaches a page, still valid against the schema. Shared by the site and browser tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.paths import FIXTURE_RUNS

# A campaign of two variants, so that a campaign page with its ratio table is built too.
SOURCES = [
    "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1",
    "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p1",
]
PAYLOAD = (
    "<script>alert('script')</script><img src=x onerror=\"alert('img')\">"
    "<a href=\"javascript:alert('link')\">x</a><svg onload=alert('svg')>\"'&"
)
# The free text that reaches the run and campaign pages (a pattern, an enum or a slug keeps
# markup out of every other string); the description is bidi-tolerant prose as well.
FREE_TEXT = [
    ("campaign", "title"),
    ("campaign", "description"),
    ("campaign", "file"),
    ("status_reason",),
    ("host", "cpu_model"),
    ("host", "kernel"),
    ("host", "os"),
    ("host", "virtualization"),
    ("host", "datadir_filesystem"),
    ("host", "datadir_device"),
    ("host", "datadir_mount_options"),
    ("server", "version_string"),
    ("server", "version_comment"),
    ("server", "basedir"),
    ("server", "binary"),
    ("workload", "tool_version"),
    ("reproduce", "harness_command"),
]


def _set(doc: dict, keys: tuple[str, ...], value: str) -> None:
    for key in keys[:-1]:
        doc = doc[key]
    doc[keys[-1]] = value


def hostile_data(root: Path) -> Path:
    """A data dir of the SOURCES runs with PAYLOAD in every FREE_TEXT field, a my.cnf comment,
    an option value and every replay command; the first run is partial (its reason shows)."""
    runs_dir = root / "data" / "runs"
    runs_dir.mkdir(parents=True)
    for index, run_id in enumerate(SOURCES):
        doc = json.loads((FIXTURE_RUNS / "runs" / f"{run_id}.json").read_text())
        for keys in FREE_TEXT:
            _set(doc, keys, f"{PAYLOAD} {'.'.join(keys)}")
        doc["server"]["my_cnf"] += f"# {PAYLOAD}\n"
        doc["workload"]["options"]["rand-type"] = PAYLOAD
        for command in doc["reproduce"]["commands"]:
            command["command"] = f"echo '{PAYLOAD}'"
            command["purpose"] = PAYLOAD
        if index == 0:
            doc["status"] = "partial"
        (runs_dir / f"{run_id}.json").write_text(json.dumps(doc))
    return runs_dir.parent
