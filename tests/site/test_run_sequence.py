"""The run page's "How the run went" on the built site from the committed data: which runs
shared a server start, and the write-debt waits before the steps (one before the first step in
runs recorded before the harness waited before every step, none in older ones). The waits of a
run measured with per-step settle: tests/harness/run/test_settle.py."""

from __future__ import annotations

import re
from html import unescape

BINLOG = "binlog-sync-policies-20261126-231615.binlog-off"
UNSETTLED = "binlog-sync-policies-20261123-133014.binlog-off"
IBENCH = "ibench-performance-schema-20261123-143014.ps-off.ibench.p1"


def _section(public, run_id: str) -> str:
    """The words of the run page's How the run went section, a link's punctuation after it."""
    html = (public / "runs" / run_id / "index.html").read_text()
    section = html.split('<h2 id="sequence">', 1)[1].split("<h2", 1)[0]
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", section)).split())
    return re.sub(r" ([,;.])", r"\1", words)


def test_the_second_run_of_a_start_names_the_first_and_its_only_wait(built_site):
    _, public = built_site
    text = _section(public, f"{BINLOG}.update-nokey.p1")
    assert text.startswith(
        "How the run went This run was the 2nd of 2 on its server start, after oltp-rw, on the"
        " server as that run left it (buffer pool, write debt); the server was started on a copy"
        " of the loaded data."
    )
    first = _section(public, f"{BINLOG}.oltp-rw.p1")
    assert "This run was the 1st of 2 on its server start; update-nokey ran after it" in first
    # recorded before per-step waits: one wait, before the first step
    assert "1 thread: settled in 4 s (at most 300): checkpoint age 27,487 → 0 KB" in first
    assert "4 threads: no wait before it. 32 threads: no wait before it." in first


def test_a_run_without_settle_says_its_steps_inherited_the_debt(built_site):
    _, public = built_site
    text = _section(public, f"{UNSETTLED}.update-nokey.p1")
    assert "No wait for write debt ran before its steps" in text
    assert "each step started from the debt the one before it left" in text


def test_an_insert_benchmark_run_had_its_own_start(built_site):
    _, public = built_site
    text = _section(public, IBENCH)
    assert (
        "This run had its server start to itself; the server was started for it, on data its"
        " workload created." in text
    )
    assert "The Insert Benchmark waits after its write steps in its own way" in text


def test_the_campaign_page_lists_its_shared_server_starts(built_site):
    _, public = built_site
    html = (public / "campaigns" / BINLOG.split(".")[0] / "index.html").read_text()
    section = html.split('<h2 id="server-starts">', 1)[1].split("<h2", 1)[0]
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", section)).split())
    text = re.sub(r" ([,;.])", r"\1", words)
    for pass_index in (1, 2, 3):
        assert (
            f"binlog-off, pass {pass_index}: oltp-rw → update-nokey (the server was started on"
            " a copy of the loaded data)" in text
        )
    assert f'href="/runs/{BINLOG}.update-nokey.p1/"' in section
    assert 'href="#server-starts"' in html  # in its table of contents
