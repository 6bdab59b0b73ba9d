"""[sweep] settle (harness/run/settle.py) against a real sandboxed MariaDB: tiny data whose
writes leave a checkpoint age and dirty pages, then the wait."""

from __future__ import annotations

import re
import subprocess
from html import unescape
from pathlib import Path

import pytest

import contract
from generator.analysis.server_starts import server_starts
from harness.run import settle as settle_module
from harness.run.settle import settle
from harness.servers.sandbox import Binaries, Sandbox
from tests.helpers.cli_runs import run_cli, write_campaign
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.server

MYCNF = "[mysqld]\nskip_log_bin\ninnodb_buffer_pool_size = 64M\ninnodb_log_file_size = 48M\n"


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp("settle") / "srv"
    with Sandbox(Binaries.find(Path("/usr")), workdir, MYCNF) as server:
        with server.connect() as conn, conn.cursor() as cursor:
            cursor.execute("CREATE DATABASE debt")
            cursor.execute("CREATE TABLE debt.t (id INT PRIMARY KEY, v VARCHAR(200))")
        yield server


def _write(server: Sandbox, letter: str) -> None:
    """About 10 MB of rows rewritten: dirty pages and redo since the last checkpoint."""
    with server.connect() as conn, conn.cursor() as cursor:
        cursor.execute("USE debt")
        cursor.execute(f"REPLACE INTO t SELECT seq, REPEAT('{letter}', 200) FROM seq_1_to_40000")
        conn.commit()


def _max_dirty_pct(server: Sandbox) -> float:
    with server.connect() as conn, conn.cursor() as cursor:
        cursor.execute("SELECT @@innodb_max_dirty_pages_pct")
        return float(cursor.fetchone()[0])


def test_settle_waits_the_debt_away_and_restores_the_setting(box):
    original = _max_dirty_pct(box)
    _write(box, "a")
    record, commands = settle(box.connect, 60, box.client_command)
    before, after, limits = record["before"], record["after"], record["thresholds"]
    assert before["checkpoint_age_kb"] > limits["checkpoint_age_kb"]  # there was debt
    assert before["dirty_pages"] > limits["dirty_pages"]
    assert after["checkpoint_age_kb"] <= limits["checkpoint_age_kb"]
    assert after["dirty_pages"] <= limits["dirty_pages"]
    assert record["timed_out"] is False and 0 < record["waited_s"] < 60
    # 5 % of the 48 MB log, 1 % of the 64 MB pool's 4,096 pages
    assert limits == {"checkpoint_age_kb": int(0.05 * 48 * 1024 * 1024) // 1024, "dirty_pages": 40}
    assert float(record["max_dirty_pages_pct"]) == original == _max_dirty_pct(box)
    assert [c["purpose"].split(":")[1].split()[0] for c in commands] == [
        "flush",
        "wait",
        "restore",
    ]
    assert commands[1]["command"].startswith("settled=0; for _ in $(seq 60)")


def test_a_wait_that_times_out_is_recorded_and_the_setting_restored(box, monkeypatch):
    original = _max_dirty_pct(box)
    _write(box, "b")
    monkeypatch.setattr(settle_module, "DIRTY_SETTLED_SHARE", -1.0)  # a limit no server reaches
    record, commands = settle(box.connect, 2, box.client_command)
    assert record["timed_out"] is True and record["waited_s"] >= 2
    assert record["after"]["dirty_pages"] is not None
    assert _max_dirty_pct(box) == original
    assert commands[-1]["purpose"] == "settle write debt: restore innodb_max_dirty_pages_pct"


@pytest.fixture(scope="module")
def settled_campaign(tmp_path_factory: pytest.TempPathFactory):
    """Two write workloads on one server start (they share their data), two 2 s steps each (a 1 s step may end before sysbench reports its first second),
    a 1 s pause between them, with [sweep] settle; the runs in the order they ran, and the
    built site."""
    tmp_path = tmp_path_factory.mktemp("settled-campaign")
    campaign = write_campaign(tmp_path, threads="[1, 2]", seconds=2)
    text = campaign.read_text().replace(
        "sleep_seconds = 0\n",
        'sleep_seconds = 1\nsettle = "checkpoint"\nsettle_timeout_seconds = 60\n',
    )
    campaign.write_text(text)
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == [] and len(runs) == 2
    order = server_starts(runs)[runs[0]["id"]]["runs"]
    runs = sorted(runs, key=lambda run: order.index(run["id"]))
    body = f'{{{{< ratios campaign="{runs[0]["campaign"]["id"]}" >}}}}'
    public = build_with_article(tmp_path / "site", body, [tmp_path / "data"])
    return runs, public


def test_a_campaign_with_settle_records_a_wait_before_every_step(settled_campaign):
    """Every step has its own wait, run right before it, and starts at or under the limits."""
    runs, _ = settled_campaign
    for run in runs:
        assert "settle" not in run  # each step holds its own
        for step in run["steps"]:
            record = step["settle"]
            assert record["rule"] == "checkpoint" and record["timeout_s"] == 60
            assert record["timed_out"] is False
            for debt in ("checkpoint_age_kb", "dirty_pages"):
                assert record["after"][debt] <= record["thresholds"][debt]
            assert (
                record["max_dirty_pages_pct"]
                == run["server"]["variables"]["innodb_max_dirty_pages_pct"]
            )
        # flush, wait, restore before each step's measure command, after the step before and
        # the pause between thread levels
        commands = run["reproduce"]["commands"]
        purposes = [c["purpose"].split(":")[0] for c in commands]
        kinds = ("settle write debt", "measure at", "pause between thread levels")
        order = [p for p in purposes if p.startswith(kinds)]
        assert order == [*["settle write debt"] * 3, "measure at 1 thread",
                         "pause between thread levels",
                         *["settle write debt"] * 3, "measure at 2 threads"]  # fmt: skip
        pause = commands[purposes.index("pause between thread levels")]["command"]
        assert pause == "sleep 1"


def test_the_second_run_of_the_start_replays_after_the_first(settled_campaign):
    """replay.sh of the second run: one load, one start on the copy, the first run's steps
    and settle waits, then its own, each step after its wait."""
    runs, public = settled_campaign
    first, second = runs
    assert second["started_at"] >= first["ended_at"]
    replay = (public / "runs" / second["id"] / "replay.sh").read_text()
    comments = [line[2:] for line in replay.splitlines() if line.startswith("# ")]
    assert comments.count("copy the loaded datadir (every variant starts on its own copy)") == 1
    steps = [c for c in comments if c.split(": ")[-1].startswith(("flush", "measure at"))]
    name = first["workload"]["name"]
    assert [c.split(":")[0] for c in steps] == [
        *[f"before this run, {name}"] * 4,
        "settle write debt",
        "measure at 1 thread",
        "settle write debt",
        "measure at 2 threads",
    ]
    assert "settled=0; for _ in $(seq 60)" in replay
    assert replay.count("pause between thread levels\nsleep 1\n") == 2  # one per run
    checked = subprocess.run(
        ["shellcheck", "--severity=style", "-"],
        input=replay,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout


def _text(html: str) -> str:
    """The words of some HTML, a link's text followed by its punctuation as it reads."""
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r" ([,;.])", r"\1", words)


def test_the_run_page_says_how_the_run_went(settled_campaign):
    runs, public = settled_campaign
    first, second = runs
    page = (public / "runs" / second["id"] / "index.html").read_text()
    section = page.split('id="sequence"', 1)[1].split("<h2", 1)[0]
    text = _text(section)
    assert (
        f"This run was the 2nd of 2 on its server start, after {first['workload']['name']},"
        " on the server as that run left it (buffer pool, write debt); the server was started"
        " on a copy of the loaded data." in text
    )
    assert f'href="/runs/{first["id"]}/"' in section or f'runs/{first["id"]}/"' in section
    for threads, label in ((1, "1 thread"), (2, "2 threads")):
        step = second["steps"][threads - 1]["settle"]
        assert f"{label}: settled in" in text
        assert f"(at most 60): checkpoint age {step['before']['checkpoint_age_kb']:,}" in text
    first_page = (public / "runs" / first["id"] / "index.html").read_text()
    first_text = _text(first_page)
    assert (
        f"This run was the 1st of 2 on its server start; {second['workload']['name']} ran"
        " after it on the same start" in first_text
    )
