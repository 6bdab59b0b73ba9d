"""The generator's cache: entries checked on read, derived files redone only for what changed,
validation once per document, and the same files whichever cores derived them."""

from __future__ import annotations

import json
import os
import shutil
from functools import partial

import pytest

import contract._validate
from generator.hugo import cache_keys, parallel
from generator.hugo import site_contract as site
from generator.hugo.build import generate
from generator.hugo.build_tree import hugo_inputs
from generator.hugo.cache import Cache
from generator.hugo.errors import InvalidData
from generator.hugo.load import ValidatedBefore, load_runs
from tests.helpers.site_build import data_of

CAMPAIGN = "binlog-sync-policies-20261123-133014"
NEW_RUN = f"{CAMPAIGN}.binlog-off.oltp-rw.p3"
CELL_SIBLINGS = [f"{CAMPAIGN}.binlog-off.oltp-rw.p1", f"{CAMPAIGN}.binlog-off.oltp-rw.p2"]


def _cache(build_dir):
    return Cache(build_dir / site.CACHE_DIR, cache_keys.code_version())


def _generate(data, build_dir) -> Cache:
    cache = _cache(build_dir)
    generate([data], build_dir, cache)
    return cache


@pytest.fixture
def counted_validations(monkeypatch):
    """The file of every document the contract validates, in call order."""
    validated = []
    real = contract._validate.validate_document

    def counting(doc, file="<document>", json_text=None):
        validated.append(file)
        return real(doc, file, json_text)

    monkeypatch.setattr(contract._validate, "validate_document", counting)
    return validated


def test_an_entry_reads_back_the_files_put(tmp_path):
    cache = Cache(tmp_path, "code")
    files = {"a/b.json": b"{}", "c": b"", "d/\u00e9.svg": bytes(range(256))}
    cache.put("run", "k1", files)
    cache.put("run", "k2", {})
    assert Cache(tmp_path, "code").get("run", "x", "k1") == files
    assert Cache(tmp_path, "code").get("run", "x", "k2") == {}


@pytest.mark.parametrize(
    "damage",
    [
        lambda entry: entry[: len(entry) // 2],  # truncated write
        lambda entry: entry[:-5] + bytes([entry[-5] ^ 1]) + entry[-4:],  # one flipped bit
        lambda entry: b"",
        lambda entry: entry[:40],  # header only, its digest cut
    ],
)
def test_a_damaged_entry_is_dropped_not_read(tmp_path, damage):
    Cache(tmp_path, "code").put("run", "k", {"a.json": b'{"tps": 123.4}' * 50})
    entry = tmp_path / "run" / "k"
    entry.write_bytes(damage(entry.read_bytes()))
    cache = Cache(tmp_path, "code")
    assert cache.get("run", "the-run", "k") is None
    assert cache.dropped == ["run/the-run"]
    assert cache.derived == ["run/the-run"]
    assert not entry.exists()


def test_prune_keeps_only_what_this_build_used(tmp_path):
    before = Cache(tmp_path, "code")
    for name in ("old", "kept"):
        before.put("run", name, {"f": name.encode()})
    (tmp_path / "run" / ".interrupted.partial").write_bytes(b"half")
    after = Cache(tmp_path, "code")
    assert after.get("run", "r", "kept") is not None
    assert after.prune() == 2
    assert sorted(path.name for path in (tmp_path / "run").iterdir()) == ["kept"]


def test_a_new_run_derives_its_cell_its_campaign_and_the_indexes_only(tmp_path, fixture_runs):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"] != NEW_RUN)
    build = tmp_path / "build"
    cold = _generate(data, build)
    assert len([name for name in cold.derived if name.startswith("run/")]) == 15
    assert _generate(data, build).derived == []  # nothing changed: nothing derived

    shutil.copy(next(path for path, run in fixture_runs if run["id"] == NEW_RUN), data / "runs")
    added = _generate(data, build)
    # The cell's earlier passes list the new one among their passes: their facts change too.
    assert sorted(added.derived) == sorted(
        [
            f"valid/{NEW_RUN}.json",
            "site/site",
            f"campaign/{CAMPAIGN}",
            *(f"run/{run_id}" for run_id in [*CELL_SIBLINGS, NEW_RUN]),
        ]
    )
    assert added.dropped == []


def test_a_removed_run_leaves_no_entry_and_no_file(tmp_path, fixture_runs):
    data = data_of(tmp_path, fixture_runs, lambda run: True)
    build = tmp_path / "build"
    _generate(data, build)
    entries = sum(1 for _ in (build / site.CACHE_DIR).rglob("*"))
    (data / "runs" / f"{NEW_RUN}.json").unlink()
    removed = _generate(data, build)
    assert f"run/{NEW_RUN}" not in removed.derived
    # Its run entry went, and its cell's, its campaign's and the validity memo were replaced.
    after = sum(1 for _ in (build / site.CACHE_DIR).rglob("*"))
    assert after == entries - 1
    assert not (build / site.run_static(NEW_RUN, site.RUN_DOCUMENT)).exists()


@pytest.mark.parametrize("version_input", ["schema", "code", "library"])
def test_a_new_code_version_derives_everything_again(
    tmp_path, fixture_runs, monkeypatch, version_input
):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"].startswith("tpcc-"))
    build = tmp_path / "build"
    _generate(data, build)
    if version_input == "schema":
        schema = json.loads(cache_keys.SCHEMA_FILES[0].read_text())
        schema["description"] = schema.get("description", "") + " (edited)"
        edited = tmp_path / "run-v1.schema.json"
        edited.write_text(json.dumps(schema))
        monkeypatch.setattr(cache_keys, "SCHEMA_FILES", (edited, *cache_keys.SCHEMA_FILES[1:]))
    elif version_input == "code":
        extra = tmp_path / "more-code"
        extra.mkdir()
        (extra / "new_module.py").write_text("X = 1\n")
        monkeypatch.setattr(cache_keys, "CODE_DIRS", (*cache_keys.CODE_DIRS, extra))
    else:
        monkeypatch.setattr(cache_keys, "version", lambda library: f"{library}-other")
    again = _generate(data, build)
    assert sorted(again.derived) == sorted(
        [
            "site/site",
            "campaign/tpcc-sets-vs-warehouses-20261123-131945",
            "valid/memo",
            *(f"run/{run['id']}" for _, run in fixture_runs if run["id"].startswith("tpcc-")),
            *(
                f"valid/{run['id']}.json"
                for _, run in fixture_runs
                if run["id"].startswith("tpcc")
            ),
        ]
    )


def _load(data, build_dir):
    """load_runs as a build does it: with the build dir's memo, stored once the load passed."""
    validated = ValidatedBefore(_cache(build_dir))
    run_files = load_runs([data], validated)
    validated.store()
    return run_files


def test_an_unchanged_document_is_validated_once(tmp_path, fixture_runs, counted_validations):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"].startswith(CAMPAIGN))
    assert len(_load(data, tmp_path / "build")) == 6
    assert len(counted_validations) == 6
    counted_validations.clear()
    again = _load(data, tmp_path / "build")
    assert counted_validations == []
    assert [run.doc for run in again] == [run.doc for run in load_runs([data])]
    counted_validations.clear()

    changed = data / "runs" / f"{NEW_RUN}.json"
    doc = json.loads(changed.read_text())
    doc["steps"][0]["tps"] = doc["steps"][0]["tps"] + 1
    changed.write_text(json.dumps(doc, indent=1))
    _load(data, tmp_path / "build")
    assert counted_validations == [str(changed)]


def test_an_invalid_document_is_refused_alike_with_a_memo_and_every_time(tmp_path, fixture_runs):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"] == NEW_RUN)
    bad = data / "runs" / f"{NEW_RUN}.json"
    doc = json.loads(bad.read_text())
    doc["steps"][0]["tps"] = -1
    bad.write_text(json.dumps(doc))
    with pytest.raises(InvalidData) as plain:
        load_runs([data])
    messages = []
    for _ in range(2):  # an invalid file is never remembered: the second build says it again
        with pytest.raises(InvalidData) as cached:
            generate([data], tmp_path / "build")
        messages.append(str(cached.value))
    assert messages == [str(plain.value)] * 2
    assert f"{bad}: $.steps[0].tps:" in messages[0]


def test_every_core_derives_the_same_files_in_the_same_order(fixture_runs, monkeypatch):
    if parallel.cores() < 2:
        pytest.skip("one core: the pool is never used")
    serial = hugo_inputs(fixture_runs)
    monkeypatch.setattr(parallel, "MIN_JOBS", 1)
    pooled = hugo_inputs(fixture_runs)
    assert list(pooled.items()) == list(serial.items())


def test_the_pool_runs_jobs_in_other_processes_and_keeps_their_order(monkeypatch):
    if parallel.cores() < 2:
        pytest.skip("one core: the pool is never used")
    monkeypatch.setattr(parallel, "MIN_JOBS", 1)
    results = list(parallel.in_order([partial(lambda n: (n, os.getpid()), n) for n in range(50)]))
    assert [n for n, _ in results] == list(range(50))
    assert os.getpid() not in {pid for _, pid in results}


def _age(data, seconds: int) -> None:
    """Every run file's modification time moved `seconds` into the past."""
    for path in (data / "runs").glob("*.json"):
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - seconds * 1_000_000_000))


def _run_file_reads(monkeypatch, data) -> list[str]:
    """The name of every run file of data read through Path.read_bytes."""
    reads: list[str] = []
    real = type(data).read_bytes

    def counting(path):
        if path.parent == data / "runs":
            reads.append(path.name)
        return real(path)

    monkeypatch.setattr(type(data), "read_bytes", counting)
    return reads


def test_a_file_with_the_recorded_stat_is_not_even_read(tmp_path, fixture_runs, monkeypatch):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"].startswith(CAMPAIGN))
    _age(data, 3600)
    _load(data, tmp_path / "build")
    reads = _run_file_reads(monkeypatch, data)
    plan = ValidatedBefore(_cache(tmp_path / "build"))
    assert all(plan.known(path) for path in sorted((data / "runs").glob("*.json")))
    assert reads == []
    touched = data / "runs" / f"{NEW_RUN}.json"
    os.utime(touched)  # same bytes, new time: read and hashed, not validated again
    assert plan.known(touched) is not None and reads == [touched.name]


def test_a_rewrite_that_keeps_size_and_time_is_caught_while_racy(
    tmp_path, fixture_runs, counted_validations
):
    """A file rewritten within the clock's granularity of the memo keeps its stat: a file
    modified that close to the memo is hashed, not trusted."""
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"].startswith(CAMPAIGN))
    _load(data, tmp_path / "build")
    changed = data / "runs" / f"{NEW_RUN}.json"
    before = changed.stat()
    text = changed.read_text()
    altered = text.replace('"status": "complete"', '"status": "partial" ')
    assert altered != text and len(altered) == len(text)
    with changed.open("r+") as file:  # same inode
        file.write(altered)
    os.utime(changed, ns=(before.st_atime_ns, before.st_mtime_ns))
    counted_validations.clear()
    (reloaded,) = [run for run in _load(data, tmp_path / "build") if run.path == changed]
    assert counted_validations == [str(changed)]
    assert reloaded.doc["status"] == "partial"
