"""A build plans from outlines and parses documents only inside the units that derive from them;
the site-wide indexes are joined from the campaigns' cached pieces, the same bytes as computed
from every document; validation on every core reports what the serial contract reports."""

from __future__ import annotations

import json
import pickle
import shutil

import pytest

import contract
from contract import is_ibench
from generator.hugo import build_tree, parallel
from generator.hugo import site_contract as site
from generator.hugo.build import generate
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import code_version
from generator.hugo.errors import InvalidData
from generator.hugo.load import plan_runs
from generator.pages.browse import browse_index
from generator.pages.browse_split import browse_filters, browse_pages
from generator.pages.compare_index import compare_index
from generator.pages.compare_split import split_compare_index
from tests.helpers.site_build import data_of

CAMPAIGN = "binlog-sync-policies-20261123-133014"
NEW_RUN = f"{CAMPAIGN}.binlog-off.oltp-rw.p3"
OTHER_NEW_RUN = "tpcc-sets-vs-warehouses-20261123-131945.base.one-set-4w.p1"


def _compact(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _site_wide_from_documents(docs: list[contract.RunDocument]) -> dict[str, bytes]:
    """The index files computed from every document at once, as before pieces existed."""
    catalogue, campaign_files = split_compare_index(
        compare_index([doc for doc in docs if not is_ibench(doc)])
    )
    browse = browse_index(docs)
    files = {
        site.COMPARE_CATALOGUE: _compact(catalogue),
        site.BROWSE_FILTERS: _compact(browse_filters(browse)),
    }
    for page in browse_pages(browse):
        files[site.browse_page(page["number"])] = _compact(page)
    for campaign_id, content in campaign_files.items():
        files[site.compare_campaign_file(campaign_id)] = _compact(content)
    return files


def _built(build_dir, files) -> dict[str, bytes]:
    return {rel: (build_dir / rel).read_bytes() for rel in files}


def _docs(data) -> list[contract.RunDocument]:
    return sorted(contract.validate_dir(data)[0], key=lambda doc: doc["id"])


def test_the_indexes_joined_from_pieces_equal_those_of_the_documents(fixture_runs):
    expected = _site_wide_from_documents([run.doc for run in fixture_runs])
    files = build_tree.hugo_inputs(fixture_runs)
    assert {rel: files[rel] for rel in expected} == expected
    assert len(expected) == 6  # catalogue, filters, one page, three compared campaigns


def test_after_a_new_run_the_indexes_join_cached_pieces(tmp_path, fixture_runs):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"] not in (NEW_RUN, OTHER_NEW_RUN))
    build = tmp_path / "build"
    generate([data], build)
    new = {run["id"]: path for path, run in fixture_runs}
    shutil.copy(new[NEW_RUN], data / "runs")
    cache = Cache(build / site.CACHE_DIR, code_version())
    generate([data], build, cache)
    expected = _site_wide_from_documents(_docs(data))
    assert _built(build, expected) == expected
    # A lost piece costs deriving its campaign again, not a wrong index.
    for entry in (build / site.CACHE_DIR / "pieces").iterdir():
        entry.unlink()
    shutil.copy(new[OTHER_NEW_RUN], data / "runs")
    generate([data], build)
    expected = _site_wide_from_documents(_docs(data))
    assert _built(build, expected) == expected


@pytest.fixture
def parsed(monkeypatch):
    """The ids of the documents a build parses: validated, or read by a unit."""
    seen: list[str] = []
    real_check, real_read = contract.check_run, build_tree.read_document

    def checking(file, raw):
        seen.append(json.loads(raw)["id"])
        return real_check(file, raw)

    def reading(run):
        seen.append(run.id)
        return real_read(run)

    monkeypatch.setattr(contract, "check_run", checking)
    monkeypatch.setattr(build_tree, "read_document", reading)
    monkeypatch.setattr(parallel, "MIN_JOBS", 10**6)  # counted here, not in a worker
    return seen


def test_a_warm_build_parses_no_document_and_a_new_run_only_its_campaign(
    tmp_path, fixture_runs, parsed
):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"] != NEW_RUN)
    build = tmp_path / "build"
    generate([data], build)
    assert len(set(parsed)) == len(fixture_runs) - 1  # cold: every document
    parsed.clear()
    generate([data], build)
    assert parsed == []
    shutil.copy(next(path for path, run in fixture_runs if run["id"] == NEW_RUN), data / "runs")
    generate([data], build)
    # The new run validated, its unit, its cell's and its campaign's: no other campaign's.
    assert NEW_RUN in parsed
    assert {run_id.split(".")[0] for run_id in parsed} == {CAMPAIGN}


def test_an_invalid_document_found_by_a_worker_is_reported_as_the_contract_does(
    tmp_path, fixture_runs, monkeypatch
):
    if parallel.cores() < 2:
        pytest.skip("one core: the pool is never used")
    monkeypatch.setattr(parallel, "MIN_JOBS", 1)
    data = data_of(tmp_path, fixture_runs, lambda run: True)
    bad = data / "runs" / f"{NEW_RUN}.json"
    doc = json.loads(bad.read_text())
    doc["steps"][0]["tps"] = -1
    doc["server"]["version"] = "x" * 5000
    bad.write_text(json.dumps(doc))
    (data / "runs" / "notes.txt").write_text("a stray")
    _, problems = contract.validate_dir(data)
    build = tmp_path / "build"
    for _ in range(2):  # never remembered as valid: the second build says it again
        with pytest.raises(InvalidData) as refused:
            generate([data], build)
        assert refused.value.problems == problems
        assert str(refused.value) == str(InvalidData(problems))
        assert not build.exists()  # a refused build writes nothing, not even the memo
    assert [str(p.file) for p in problems[-1:]] == [str(data / "runs" / "notes.txt")]
    assert any(p.file == str(bad) and p.path == "$.steps[0].tps" for p in problems)


def test_a_document_changed_after_its_validation_stops_the_unit_that_reads_it(
    tmp_path, fixture_runs
):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"].startswith(CAMPAIGN))
    plan = plan_runs([data])
    changed = data / "runs" / f"{NEW_RUN}.json"
    changed.write_bytes(changed.read_bytes() + b"\n")
    unit = next(d for d in build_tree.derivations(plan, "") if d.label == f"run/{NEW_RUN}")
    with pytest.raises(InvalidData) as refused:
        unit.derive()
    assert str(refused.value) == (
        f"1 data problem: {changed}: $: changed while the site was being built; build again"
    )
    # Raised in a pool worker, it reaches the build whole.
    assert pickle.loads(pickle.dumps(refused.value)).problems == refused.value.problems
