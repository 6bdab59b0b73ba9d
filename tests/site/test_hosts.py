"""Two machines with one hostname, built into a real site: /browse/, the hosts taxonomy, the
run and campaign pages and the drift banner name two hosts (generator/analysis/hosts.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from generator.analysis.hosts import host_of
from tests.helpers.browse_split import reassembled_browse
from tests.helpers.page_text import page_words
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

CAMPAIGN = "binlog-sync-policies-20261123-133014"
OTHER_CPU = "Intel(R) Xeon(R) Processor"


@pytest.fixture(scope="module")
def two_host_site(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The binlog fixture campaign, its sync-1 runs moved to a machine that differs only in its
    CPU model (hostname "vm" on both, as on the project's two VMs)."""
    tmp_path = tmp_path_factory.mktemp("two-hosts")
    runs = []
    for path in sorted((FIXTURE_RUNS / "runs").glob(f"{CAMPAIGN}.*.json")):
        run = json.loads(path.read_text())
        if run["variant"] == "sync-1":
            run = copy.deepcopy(run)
            run["host"]["cpu_model"] = OTHER_CPU
        runs.append(run)
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    for run in runs:
        (runs_dir / f"{run['id']}.json").write_text(json.dumps(run))
    return build_with_article(tmp_path, "No figures.", [tmp_path / "data"]), runs


def test_browse_offers_two_hosts_for_one_hostname(two_host_site):
    public, runs = two_host_site
    assert {run["host"]["hostname"] for run in runs} == {"vm"}
    hosts = {host_of(run)["fingerprint"]: host_of(run)["name"] for run in runs}
    assert len(hosts) == 2
    (filters,) = (public / "browse").glob("filters.*.json")
    pages = [json.loads(path.read_text()) for path in (public / "browse" / "pages").glob("*.json")]
    index = reassembled_browse(json.loads(filters.read_text()), pages)
    assert index["hosts"] == hosts
    by_id = {record["id"]: record["host"] for record in index["runs"]}
    assert by_id == {run["id"]: host_of(run)["fingerprint"] for run in runs}

    listing = page_words(public / "hosts" / "index.html")
    for name in hosts.values():
        assert f"{name} (3)" in listing  # three passes of one variant per host


def test_run_and_campaign_pages_name_each_host(two_host_site):
    public, runs = two_host_site
    for run in runs:
        page = page_words(public / "runs" / run["id"] / "index.html")
        assert f"Host {host_of(run)['name']} (host identity derived" in page
    campaign = page_words(public / "campaigns" / CAMPAIGN / "index.html")
    names = sorted({host_of(run)["name"] for run in runs})
    assert any(f"on {a} (host identity derived" in campaign for a in names)
    assert all(name in campaign for name in names)


def test_the_drift_banner_says_the_runs_come_from_two_machines(two_host_site):
    public, runs = two_host_site
    campaign = page_words(public / "campaigns" / CAMPAIGN / "index.html")
    assert "The compared runs come from 2 different machines" in campaign
    for run in runs[:1] + runs[-1:]:
        assert f"{host_of(run)['name']} (3 runs)" in campaign
    assert f"CPU model: AMD EPYC (3 runs); {OTHER_CPU} (3 runs)" in campaign
