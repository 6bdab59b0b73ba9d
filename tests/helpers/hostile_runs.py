"""Hostile run documents: real fixture runs with markup and script in every free-text field that
reaches a page, still valid against the schema, and a real import of logs whose file names hold
markup. Shared by the site, import and browser tests."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from tests.helpers.paths import FIXTURE_RUNS, FIXTURES

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
            # The CPU model names the host's page, where a "/" is refused: the payload without.
            payload = PAYLOAD.replace("/", "") if keys == ("host", "cpu_model") else PAYLOAD
            _set(doc, keys, f"{payload} {'.'.join(keys)}")
        doc["server"]["my_cnf"] += f"# {PAYLOAD}\n"
        doc["workload"]["options"]["rand-type"] = PAYLOAD
        for command in doc["reproduce"]["commands"]:
            command["command"] = f"echo '{PAYLOAD}'"
            command["purpose"] = PAYLOAD
        if index == 0:
            doc["status"] = "partial"
        (runs_dir / f"{run_id}.json").write_text(json.dumps(doc))
    return runs_dir.parent


# Source file names with markup, as an importer's folder may hold them (a name has no "/"):
# one per log of the recorded sweep (1, 2 and 4 threads), the second three variations of the
# first three, so one import makes two passes of a run and names all six.
HOSTILE_FILE_NAMES = [
    "<img src=x onerror=alert('img-file')>.log",
    "<svg onload=alert('svg-file')>.log",
    "javascript:alert('scheme-file')",
    '"><IMG SRC=x oNeRrOr=alert`img-upper`>.txt',
    "<svg><animate onbegin=alert('svg-animate') attributeName=x dur=1s>.log",
    "JaVaScRiPt:alert('scheme-upper')",
]
SWEEP_LOGS = ["oltp_read_only_1thr.txt", "oltp_read_only_2thr.txt", "oltp_read_only_4thr.txt"]
HOSTILE_IMPORT = "named-sources"  # the imported campaign's name


def hostile_import(data: Path, importer: Path) -> str:
    """`mybench import sysbench` into data of the recorded sweep's logs copied under importer
    (a folder standing for the importer's own) as HOSTILE_FILE_NAMES, with a my.cnf from there;
    returns its output, and fails the test when the import fails."""
    logs = importer / "logs"
    logs.mkdir(parents=True)
    files = []
    for index, name in enumerate(HOSTILE_FILE_NAMES):
        shutil.copy(FIXTURES / "sysbench" / "import" / SWEEP_LOGS[index % 3], logs / name)
        os.utime(logs / name, (1_600_000_000, 1_600_000_000))
        files.append(str(logs / name))
    (importer / "my.cnf").write_text("[mysqld]\ninnodb_buffer_pool_size = 64M\n")
    facts = ["--campaign", HOSTILE_IMPORT, "--variant", "base", "--test", "oltp_read_only",
             "--product", "mariadb", "--server-version", "10.11.6", "--host", "bench1"]  # fmt: skip
    args = ["import", "sysbench", *files, *facts, "--my-cnf", str(importer / "my.cnf")]
    result = CliRunner().invoke(main, [*args, "--data", str(data)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output
