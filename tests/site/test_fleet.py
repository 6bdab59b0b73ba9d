"""A fleet simulated on one machine, as the Campaign workflow runs it on two self-hosted runners
(.github/workflows/campaign.yml): the same tiny campaign run twice, each time as another host
(--host-label) of one fleet (--fleet), into a results directory of its own; the two merged
with `mybench import runs`, as the collect job merges the runners' artifacts; the site built.
The campaign page shows both hosts and the ratio of one to the other."""

from __future__ import annotations

import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

import contract
from tests.helpers.cli_runs import SANDBOX
from tests.helpers.site_build import build_with_article

pytestmark = [pytest.mark.server, pytest.mark.site]

STAMP = "20261126-120000"
HOSTS = ("bench-1", "bench-2")
CAMPAIGN = (
    """
name = "fleet"
title = "One campaign on two hosts"
"""
    + SANDBOX.format(basedir="/usr")
    + """
[variants.base]
[sweep]
threads = [1]
step_seconds = 1
[workloads.ps]
test = "oltp_point_select"
tables = 1
table_size = 200
"""
)


def mybench(*args: str | Path) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "cli", *map(str, args)]
    return subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)


def test_two_hosts_of_one_fleet_merge_into_one_campaign_page(tmp_path):
    campaign = tmp_path / "fleet.toml"
    campaign.write_text(CAMPAIGN)
    artifacts = tmp_path / "artifacts"
    for host in HOSTS:
        results = artifacts / f"runs-{host}"
        ran = mybench("run", campaign, "--host-label", host, "--fleet", STAMP,
                      "--data", results, "--workdir", tmp_path / "work" / host)  # fmt: skip
        assert ran.returncode == 0, ran.stderr

    data = tmp_path / "data"
    merged = mybench("import", "runs", artifacts, "--data", data)
    assert merged.returncode == 0, merged.stderr
    runs, problems = contract.validate_dir(data)
    assert problems == []
    campaign_id = f"fleet-{STAMP}"
    assert {run["campaign"]["id"] for run in runs} == {campaign_id}
    assert sorted((run["variant"], run["host"]["label"]) for run in runs) == [
        ("bench-1.base", "bench-1"),
        ("bench-2.base", "bench-2"),
    ]

    public = build_with_article(tmp_path / "site", "", [data])
    html = (public / "campaigns" / campaign_id / "index.html").read_text()
    page = " ".join(unescape(html).split())
    meta = page[page.index('<p class="meta">') :]
    named = re.findall(r'<span class="host" [^>]*>(bench-[12]) · [0-9a-f]{6}</span>', meta)
    assert named[:2] == list(HOSTS)
    # the drift banner says the difference may be the machine's, naming both
    banner = page[page.index('class="banner banner-drift"') :]
    assert "come from 2 different machines" in banner.split("</div>")[0]
    assert all(f"<code>{host} · " in banner.split("</div>")[0] for host in HOSTS)
    # bench-2 relative to bench-1, at the same variant and thread count
    ratios = page[page.index("<h4>Transactions per second relative to bench-1.base</h4>") :]
    row = re.search(
        # a pass flagged on this VM (steal, say) adds its flag count after the ratio
        r'<td class="same" title="([\d,.]+) TPS[^"]*">1\.00(?:<span class="flags">.*?</span></span>)?</td> '
        r'<td class="\w+" title="([\d,.]+) TPS[^"]*">([\d.]+)',
        ratios,
    )
    assert row, ratios[:600]
    base, other, ratio = (float(value.replace(",", "")) for value in row.groups())
    assert ratio == pytest.approx(other / base, abs=0.006)


def test_a_fleet_run_needs_a_host_label_and_a_stamp(tmp_path):
    campaign = tmp_path / "fleet.toml"
    campaign.write_text(CAMPAIGN)
    where = ["--data", tmp_path / "data", "--workdir", tmp_path / "work"]
    unlabelled = mybench("run", campaign, "--fleet", STAMP, *where)
    assert unlabelled.returncode == 2
    assert f"--fleet {STAMP}: the hosts of a fleet are told apart by their label" in (
        unlabelled.stderr
    )
    bad_stamp = mybench("run", campaign, "--fleet", "yesterday", "--host-label", "b", *where)
    assert bad_stamp.returncode == 2
    assert "--fleet yesterday: not a UTC stamp YYYYMMDD-HHMMSS" in bad_stamp.stderr
    assert not (tmp_path / "data" / "runs").exists()
