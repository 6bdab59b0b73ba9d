"""A build from the generator's cache publishes the same site as a cold build of the same data:
after runs were added, changed and removed, and after cache entries were damaged (real Hugo)."""

from __future__ import annotations

import filecmp
import json
import shutil
from pathlib import Path

import pytest

from generator.hugo import cache_keys
from generator.hugo import site_contract as site
from generator.hugo.build import generate
from generator.hugo.cache import Cache
from generator.hugo.load import RunFile, load_runs
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article, data_of

pytestmark = pytest.mark.site

CAMPAIGN = "binlog-sync-policies-20261123-133014"
ADDED = f"{CAMPAIGN}.binlog-off.oltp-rw.p3"  # joins a cell of two earlier passes
CHANGED = "tpcc-sets-vs-warehouses-20261123-131945.base.four-sets-1w.p1"
REMOVED = "ibench-performance-schema-20261123-143014.ps-on.ibench.p1"
PROBE = f'{{{{< ratios campaign="{CAMPAIGN}" workload="oltp-rw" >}}}}'


def _later_data(tmp_path: Path, fixture_runs) -> Path:
    """The fixture runs after the change: ADDED present, CHANGED's rates raised, REMOVED gone."""
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"] != REMOVED)
    changed = data / "runs" / f"{CHANGED}.json"
    doc = json.loads(changed.read_text())
    for step in doc["steps"]:
        step["tps"] = round(step["tps"] * 1.25, 2)
    changed.write_text(json.dumps(doc, indent=1))
    return data


def _differences(left: Path, right: Path) -> list[str]:
    """Files only on one side or different, recursively."""
    found = []

    def walk(compared: filecmp.dircmp, where: str) -> None:
        found.extend(f"{where}{name}" for name in compared.left_only + compared.right_only)
        _, mismatch, errors = filecmp.cmpfiles(
            compared.left, compared.right, compared.common_files, shallow=False
        )
        found.extend(f"{where}{name}" for name in mismatch + errors)
        for name, sub in compared.subdirs.items():
            walk(sub, f"{where}{name}/")

    walk(filecmp.dircmp(left, right), "")
    return found


@pytest.fixture(scope="module")
def fixture_runs() -> list[RunFile]:
    return load_runs([FIXTURE_RUNS])


@pytest.fixture(scope="module")
def cold_public(tmp_path_factory, fixture_runs) -> Path:
    """The later data built from an empty build dir."""
    root = tmp_path_factory.mktemp("cold")
    return build_with_article(root, PROBE, [_later_data(root, fixture_runs)])


def test_adding_changing_and_removing_runs_publishes_what_a_cold_build_does(
    tmp_path, fixture_runs, cold_public
):
    earlier = data_of(tmp_path / "earlier", fixture_runs, lambda run: run["id"] != ADDED)
    generate([earlier], tmp_path / "build")  # fills the cache with the earlier archive
    data = _later_data(tmp_path, fixture_runs)
    shutil.rmtree(tmp_path / "earlier")
    public = build_with_article(tmp_path, PROBE, [data])
    assert (public / "runs" / ADDED / "index.html").is_file()
    assert not (public / "runs" / REMOVED).exists()
    assert _differences(public, cold_public) == []


def test_damaged_cache_entries_are_rebuilt_not_published(tmp_path, fixture_runs, cold_public):
    data = _later_data(tmp_path, fixture_runs)
    cache_dir = tmp_path / "build" / site.CACHE_DIR
    generate([data], tmp_path / "build")
    run_entries = sorted((cache_dir / "run").iterdir())
    campaign_entries = sorted((cache_dir / "campaign").iterdir())
    corrupted, truncated = run_entries[0], campaign_entries[0]
    entry = corrupted.read_bytes()
    middle = len(entry) // 2
    corrupted.write_bytes(entry[:middle] + bytes([entry[middle] ^ 0x20]) + entry[middle + 1 :])
    truncated.write_bytes(truncated.read_bytes()[:100])
    # Entries are read when the build dir lacks their files (an entry whose files are in place
    # is not read at all): a cache kept while the generated folders were deleted.
    for sub in site.OWNED_SUBDIRS:
        shutil.rmtree(tmp_path / "build" / sub)

    cache = Cache(cache_dir, cache_keys.code_version())
    generate([data], tmp_path / "build", cache)
    assert len(cache.dropped) == 2
    assert sorted(cache.derived) == sorted(cache.dropped)
    public = build_with_article(tmp_path, PROBE, [data])
    assert _differences(public, cold_public) == []
