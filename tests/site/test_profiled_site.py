"""The site built from what `mybench run` really records: a tiny campaign against a sandboxed
MariaDB with perf sampling every step, two variants (no binary log, and one synced at every
commit), built with Hugo. The run pages embed a flame graph per step drawn from perf's stacks,
and the campaign links the binlog variant's differential page at each thread level."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

import contract
from tests.helpers.cli_runs import SANDBOX, run_cli
from tests.helpers.site_build import build_with_posts

pytestmark = pytest.mark.server

CAMPAIGN = (
    """
name = "flames"
title = "Profiled binary log"
"""
    + SANDBOX.format(basedir="/usr")
    + """
[variants.base]
[variants.binlog]
options = { log_bin = "binlog", sync_binlog = 1, server_id = 1, skip_log_bin = false }
[sweep]
threads = [1, 2]
step_seconds = 2
sleep_seconds = 0
[workloads.upd]
test = "oltp_update_non_index"
tables = 2
table_size = 2000
"""
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("profiled-site")
    campaign = root / "flames.toml"
    campaign.write_text(CAMPAIGN)
    result = run_cli(root, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(root / "data")
    assert problems == [] and len(runs) == 2
    return runs, build_with_posts(root, lambda posts: None, [root / "data"])


def test_each_run_page_embeds_a_flame_graph_per_step(built):
    runs, public = built
    for run in runs:
        assert "file" in run["profile"], run["profile"]
        html = (public / "runs" / run["id"] / "index.html").read_text()
        urls = re.findall(
            r'<object class="flame-graph" type="image/svg\+xml" data="([^"]+)"', html
        )
        profiled = [s["threads"] for s in run["steps"] if s.get("profile", {}).get("kept_samples")]
        assert profiled == [1, 2], "every step has its profile"
        assert urls == [f"/runs/{run['id']}/flame-{threads}.svg" for threads in profiled]
        svg = ElementTree.parse(public / urls[0].lstrip("/")).getroot()
        titles = [
            "".join(node.itertext()) for node in svg.iter("{http://www.w3.org/2000/svg}title")
        ]
        assert any(title.startswith("mariadbd") for title in titles)  # the process's own stacks
        assert re.search(r"<tr><td><code>[^<]+</code></td><td>[\d.]+</td>", html)  # its table


def test_the_campaign_links_the_binlog_variants_differential_pages(built):
    runs, public = built
    campaign = runs[0]["campaign"]["id"]
    html = (public / "campaigns" / campaign / "index.html").read_text()
    links = re.findall(r'<a href="(/campaigns/[^"]+/profiles/[^"]+)">', html)
    expected = [f"/campaigns/{campaign}/profiles/upd/binlog/{threads}/" for threads in (1, 2)]
    assert links == expected
    page = (public / links[0].lstrip("/") / "index.html").read_text()
    rows = re.findall(r"<tr><td><code>([^<]+)</code></td>((?:<td>[^<]*</td>){5})</tr>", page)
    assert rows, "no share change listed"
    # The expensive variant's own work leads the table: the binary log's group commit, absent
    # from the base (no binary log), present in the variant.
    top = dict(rows[:5])
    grown = [function for function in top if function.startswith("MYSQL_BIN_LOG::")]
    assert grown, f"the binary log's functions do not lead the changes: {list(top)}"
    base_share = re.findall(r"<td>([^<]*)</td>", top[grown[0]])[0]
    assert float(base_share) == 0.0
    (svg,) = re.findall(r'data="([^"]+\.svg)"', page)
    ElementTree.parse(public / svg.lstrip("/"))
