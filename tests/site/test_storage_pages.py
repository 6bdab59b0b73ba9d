"""The storage characterisation on a real site built from fixture runs: the binlog campaign's
runs carry fio figures (two measurements of their host), the Callaghan campaign's host none.
Its host page shows the table, every run and campaign disclosure the line or says the host was
not characterised (generator/pages/storage.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import contract
from generator.analysis.hosts import host_of
from generator.pages.storage import NOT_CHARACTERISED, storage_sentence
from tests.generator.pages.test_storage import LYING, STORAGE
from tests.helpers.page_text import page_words
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

MEASURED = "binlog-sync-policies-20261123-133014"
UNMEASURED = "callaghan-10-11-vs-11-4-20261122-045700"


@pytest.fixture(scope="module")
def storage_site(tmp_path_factory) -> tuple[Path, list[dict]]:
    """public/ and the runs: the binlog campaign's first pass measured as STORAGE, its later
    passes as LYING (the host re-measured); the Callaghan campaign as recorded (no storage)."""
    tmp_path = tmp_path_factory.mktemp("storage-site")
    runs = []
    for campaign in (MEASURED, UNMEASURED):
        for path in sorted((FIXTURE_RUNS / "runs").glob(f"{campaign}.*.json")):
            run = json.loads(path.read_text())
            assert "storage" not in run["host"]
            if campaign == MEASURED:
                run["host"]["storage"] = STORAGE if run["id"].endswith(".p1") else LYING
            assert contract.validate_document(run) == [], run["id"]
            runs.append(run)
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    for run in runs:
        (runs_dir / f"{run['id']}.json").write_text(json.dumps(run))
    return build_with_article(tmp_path, "No figures.", [tmp_path / "data"]), runs


def _host_page(public: Path, run: dict) -> Path:
    return public / "hosts" / contract.page_segment(host_of(run)["name"]) / "index.html"


def test_the_host_page_tables_each_measurement_newest_first(storage_site):
    public, runs = storage_site
    measured = next(run for run in runs if run["campaign"]["id"] == MEASURED)
    page = page_words(_host_page(public, measured))
    assert "Storage The datadir's storage as fio measured it" in page
    assert "measured device fdatasync p50 µs p99 µs 16 KiB reads QD1 IOPS QD32 IOPS" in page
    newest = "2026-11-29T08:00:00Z /dev/vda 0.35 0.51 15,267 40,963 829 write back no 3.33"
    oldest = "2026-11-28T00:14:15Z /dev/vda 136 2,220 15,267 40,963 829 write back yes 3.33"
    assert newest in page and oldest in page
    assert page.index(newest) < page.index(oldest)


def test_a_host_without_figures_says_it_was_not_characterised(storage_site):
    public, runs = storage_site
    unmeasured = next(run for run in runs if run["campaign"]["id"] == UNMEASURED)
    page = page_words(_host_page(public, unmeasured))
    assert "Storage Not characterised: none of this host's runs recorded fio figures" in page
    assert "fdatasync p50 µs" not in page


def test_every_run_disclosure_gives_its_storage_line(storage_site):
    public, runs = storage_site
    for run in runs:
        page = page_words(public / "runs" / run["id"] / "index.html")
        storage = run["host"].get("storage")
        expected = storage_sentence(storage) if storage else NOT_CHARACTERISED
        assert f"Storage: {expected}." in page, run["id"]


def test_every_campaign_disclosure_gives_its_hosts_storage(storage_site):
    public, _ = storage_site
    measured = page_words(public / "campaigns" / MEASURED / "index.html")
    assert f"Storage: {storage_sentence(LYING)}." in measured  # the latest measurement
    assert "flushes NOT honoured" in measured
    unmeasured = page_words(public / "campaigns" / UNMEASURED / "index.html")
    assert f"Storage: {NOT_CHARACTERISED}." in unmeasured
