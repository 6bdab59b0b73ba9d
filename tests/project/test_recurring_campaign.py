"""A recurring campaign's change points, end to end: one tiny campaign file run six times against
a real sandbox, its binary log synced at every commit (`sync_binlog = 1`) from the fourth run on,
and `mybench history` names the change at the fourth campaign and nowhere else: TPS down, and
p95 up when its noise lets the test see it; the same six runs without the change report none.

Until the change no commit waits for a disk (the redo log is written out once a second, the
binary log left to the OS); from it every commit waits for the binary log's fsync: less than
half the TPS here. Otava's t-test has three campaigns a side, so each campaign's figure is the
median of five passes: single 2 s passes on this VM spread by ±10 % and more. Steps of 2 s keep
fewer seconds than the step verdict needs to judge write debt (a debt judged on so few seconds
would be a guess either way). From the change on, p95 is the disk's fsync latency: while the
suite's other worker writes to the same disk it may spread too much across three campaigns for
p < 0.001, so its change may go unreported; it is never reported elsewhere. The changed and
unchanged fourth to sixth campaigns run in turns, so a load that comes and goes on the host
meets both. The sandboxes' datadirs live beside the repository, on its disk: under a tmpfs /tmp
an fsync costs nothing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.page_text import page_words
from tests.helpers.paths import REPO
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.server

CAMPAIGN = """
name = "nightly"
title = "A tiny campaign run every night"
[servers.debian]
kind = "sandbox"
basedir = "/usr"
[mycnf]
base = '''
[mysqld]
innodb_buffer_pool_size = 64M
innodb_log_file_size = 48M
innodb_flush_log_at_trx_commit = 2
log_bin = binlog
server_id = 1
sync_binlog = 0
'''
[variants.base]
options = {options}
[sweep]
threads = [1]
step_seconds = 2
sleep_seconds = 0
repeats = 5
settle = "checkpoint"
[workloads.upd]
test = "oltp_update_non_index"
tables = 1
table_size = 1000
"""
UNCHANGED = "{}"
BINLOG_SYNCED = "{ sync_binlog = 1 }"
CHANGE_LINE = re.compile(
    r"^  upd · base · 1 thread · (tps|p95) on .*; first campaign after: (\S+)$"
)


@pytest.fixture(scope="module")
def on_disk() -> Iterator[Path]:
    scratch = REPO / ".scratch"
    scratch.mkdir(exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix="recurring-", dir=scratch))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_campaign(root: Path, data: Path, options: str) -> str:
    """Run the campaign once into data; the id of the campaign it wrote."""
    campaign = root / "nightly.toml"
    campaign.write_text(CAMPAIGN.replace("{options}", options))
    before = set((data / "runs").glob("*.json")) if (data / "runs").is_dir() else set()
    done = subprocess.run(
        [sys.executable, "-m", "cli", "run", str(campaign), "--data", str(data),
         "--workdir", str(root / "work")],
        cwd=REPO, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = {path.name.split(".")[0] for path in set((data / "runs").glob("*.json")) - before}
    [campaign_id] = written
    return campaign_id


def history(data: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "history", "nightly", "--data", str(data)],
        cwd=REPO, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def six_nights(on_disk: Path) -> tuple[Path, Path, list[str]]:
    """Two results directories: three runs unchanged, then three with the binary log synced
    (changed) or three more unchanged (steady); and the changed one's campaign ids in order."""
    changed, steady = on_disk / "changed", on_disk / "steady"
    ids = [run_campaign(on_disk, changed, UNCHANGED) for _ in range(3)]
    shutil.copytree(changed, steady)
    for _ in range(3):
        ids.append(run_campaign(on_disk, changed, BINLOG_SYNCED))
        run_campaign(on_disk, steady, UNCHANGED)
    return changed, steady, ids


def test_a_synced_binary_log_from_the_fourth_run_is_one_change(six_nights):
    changed, _, ids = six_nights
    lines = history(changed)
    assert lines[0].startswith("nightly: 2 series from 30 runs of 6 campaigns on 1 host"), lines
    found = {}
    for line in lines[2:]:
        match = CHANGE_LINE.match(line)
        assert match, line
        assert match[1] not in found, lines  # one change per series at most
        found[match[1]] = (line, match[2])
    assert lines[1] == f"{len(found)} change point{'s' * (len(found) > 1)}, newest first:", lines
    assert "tps" in found, lines
    for metric, (line, first_after) in found.items():
        assert first_after == ids[3], (metric, line)
        assert ", worse; p " in line, line


def test_the_same_six_runs_without_the_change_report_none(six_nights):
    _, steady, _ = six_nights
    assert history(steady)[1:] == ["no change point"]


def history_metrics(data: Path) -> list[str]:
    """The metrics of the change points `mybench history` reports."""
    return [match[1] for line in history(data) if (match := CHANGE_LINE.match(line))]


def _change_rows(public: Path) -> list[str]:
    """The rows of the history page's change table, as the reader reads them."""
    page = (public / "history" / "nightly" / "index.html").read_text()
    section = page.split('id="changes"', 1)[1].split("<h2", 1)[0]
    return [
        page_words(row)
        for row in re.findall(r'<tr class="change-[^"]*">.*?</tr>', section, re.DOTALL)
    ]


def test_the_history_pages_show_the_same(six_nights, tmp_path_factory):
    changed, steady, ids = six_nights
    rows = _change_rows(
        build_with_article(tmp_path_factory.mktemp("changed"), "A probe.", [changed])
    )
    assert {row.split(" ", 1)[0] for row in rows} == {ids[3]}, rows
    metrics = sorted(row.split(" · ")[3].split(" ")[0] for row in rows)
    assert metrics == sorted(history_metrics(changed)), rows  # the command's, one row each
    assert all(" worse, p " in row for row in rows)
    public = build_with_article(tmp_path_factory.mktemp("steady"), "A probe.", [steady])
    assert _change_rows(public) == []
    assert "None: no test moved" in page_words(public / "history" / "nightly" / "index.html")
