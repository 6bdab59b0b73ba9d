"""The site built from what `mybench run` really records: a tiny campaign against a sandboxed
MariaDB with perf sampling every step, two variants (no binary log, and one synced at every
commit), built with Hugo. The run pages embed a flame graph per step drawn from perf's stacks,
and the campaign links the binlog variant's differential page at each thread level."""

from __future__ import annotations

import re
from html import unescape
from xml.etree import ElementTree

import pytest

import contract
from generator.pages.profiles import campaign_profiles
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


def cite(campaign: str, threads: int, **chosen: str) -> str:
    attributes = " ".join(f'{key}="{value}"' for key, value in chosen.items())
    return (
        f'{{{{< profile campaign="{campaign}" workload="upd" variant="binlog" '
        f'threads="{threads}" {attributes} >}}}}'
    )


def post_citing(campaign: str, function: str) -> str:
    """An article citing the 1-thread differential cell: its lead, and one function's change
    and shares."""
    return f"""---
title: "Profile citations"
date: 2026-11-28
campaign: {campaign}
---

## tl;dr

The lead is {cite(campaign, 1, show="lead")}; it moved {cite(campaign, 1, function=function)},
from {cite(campaign, 1, function=function, show="base")} to
{cite(campaign, 1, function=function, show="variant")}.

## Reproduce
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("profiled-site")
    campaign = root / "flames.toml"
    campaign.write_text(CAMPAIGN)
    result = run_cli(root, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(root / "data")
    assert problems == [] and len(runs) == 2
    campaign_id = runs[0]["campaign"]["id"]
    # cite the second largest move, so the function is looked up, not taken as the lead
    profiles = {run["id"]: contract.load_profile(root / "data", run)[0] for run in runs}
    base = next(run["variant"] for run in runs if run["variant"] != "binlog")
    (cell, _) = campaign_profiles(campaign_id, base, runs, profiles)
    cited = cell["changes"][1][0]

    def write_post(posts):
        (posts / "cited").mkdir()
        (posts / "cited" / "index.md").write_text(post_citing(campaign_id, cited))

    return runs, build_with_posts(root, write_post, [root / "data"]), cited


def test_each_run_page_embeds_a_flame_graph_per_step(built):
    runs, public, _ = built
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
    runs, public, _ = built
    campaign = runs[0]["campaign"]["id"]
    html = (public / "campaigns" / campaign / "index.html").read_text()
    links = re.findall(r'<a href="(/campaigns/[^"]+/profiles/[^"]+)">', html)
    expected = [f"/campaigns/{campaign}/profiles/upd/binlog/{threads}/" for threads in (1, 2)]
    assert links == expected
    page = (public / links[0].lstrip("/") / "index.html").read_text()
    rows = re.findall(r"<tr><td><code>([^<]+)</code></td>((?:<td>[^<]*</td>){5})</tr>", page)
    assert rows, "no share change listed"
    # The expensive variant's own work is among the largest moves: the binary log's group
    # commit, absent from the base (no binary log), present in the variant. (Which row leads
    # depends on the load of the machine: the shared callers above it grow as well.)
    moves = {function: re.findall(r"<td>([^<]*)</td>", cells) for function, cells in rows}
    grown = [
        function
        for function, (_, _, change, *_) in moves.items()
        if function.startswith("MYSQL_BIN_LOG::") and float(unescape(change)) > 0
    ]
    assert grown, f"no function of the binary log among the moves: {list(moves)}"
    assert float(moves[grown[0]][0]) == 0.0
    (svg,) = re.findall(r'data="([^"]+\.svg)"', page)
    ElementTree.parse(public / svg.lstrip("/"))


def test_an_article_cites_a_differential_share_and_links_its_page(built):
    runs, public, function = built
    campaign = runs[0]["campaign"]["id"]
    page = f"/campaigns/{campaign}/profiles/upd/binlog/1/"
    table = (public / page.lstrip("/") / "index.html").read_text()
    rows = dict(
        re.findall(r"<tr><td><code>([^<]+)</code></td>((?:<td>[^<]*</td>){5})</tr>", table)
    )
    lead = next(iter(rows))
    base, variant, change = map(unescape, re.findall(r"<td>([^<]*)</td>", rows[function])[:3])
    article = (public / "posts" / "cited" / "index.html").read_text()
    cited = re.findall(
        r'<a class="profile-cite" href="([^"]+)" title="[^"]*">([^<]*(?:<code>[^<]*</code>)?)</a>',
        article,
    )
    assert cited == [
        (page, f"<code>{lead}</code>"),
        (page, f"{change} pp"),
        (page, f"{base} %"),
        (page, f"{variant} %"),
    ]
