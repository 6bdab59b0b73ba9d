"""The storage characterisation (harness/measure/storage.py): the real fio on a directory of
this machine with a tiny file and 1 s jobs, measured once for the module; the cache by host
fingerprint and device; the refusals (no fio, a full filesystem, fio's own failure); `mybench
storage`; and a tiny campaign whose runs all carry the cached figures."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import contract
from harness.measure import host, storage
from tests.helpers.cli_runs import run_cli, write_campaign
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.small_tmpfs import small_tmpfs

TINY = {"file_mb": 16, "seconds": 1.0}


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> tuple[dict, Path, Path]:
    """(the storage fio measured under a datadir that does not exist yet, that datadir, the
    cache dir it was written to)."""
    root = tmp_path_factory.mktemp("storage")
    datadir, cache = root / "sandboxes" / "datadir", root / "cache"
    found, cached = storage.characterise(datadir, cache=cache, **TINY)
    assert not cached
    return dict(found), datadir, cache


def test_fio_figures_are_parsed_and_fit_the_schema(measured):
    found, datadir, _ = measured
    assert storage.storage_problems(found) == []
    _, device, _ = host.mount_of(datadir)
    assert (found["tool"], found["device"], found["file_mb"]) == ("fio", device, 16)
    assert found["write_cache"] == host.write_cache(device)
    fio = subprocess.run(["fio", "--version"], capture_output=True, text=True, check=True)
    assert fio.stdout.strip() == f"fio-{found['version']}"
    for name in ("sync_write_4k", "rand_read_16k_qd1", "rand_read_16k_qd32", "seq_write"):
        result = found[name]
        assert result["iops"] > 0 and result["mb_per_s"] > 0, name
        assert 0 < result["p50_us"] <= result["p99_us"], name
    # 16 KiB per read, 4 KiB per durable write: bandwidth and IOPS agree
    qd1 = found["rand_read_16k_qd1"]
    assert qd1["mb_per_s"] == pytest.approx(qd1["iops"] * 16384 / 1e6, rel=0.05)
    honoured = found["sync_write_4k"]["p50_us"] >= storage.LYING_FLUSH_US
    assert found["flushes_honoured"] is honoured
    assert not datadir.parent.exists() or not any(datadir.parent.iterdir())  # no test file left


def test_a_run_document_carrying_the_figures_is_valid(measured):
    found, _, _ = measured
    run = json.loads(next((FIXTURE_RUNS / "runs").glob("*.json")).read_text())
    run["host"]["storage"] = found
    assert contract.validate_document(run) == []
    damaged = copy.deepcopy(run)
    del damaged["host"]["storage"]["sync_write_4k"]["iops"]
    assert contract.validate_document(damaged) != []


def test_the_cache_answers_for_the_same_host_and_device_only(measured, tmp_path):
    found, datadir, cache = measured
    fingerprint, device = storage.host_key(datadir)
    assert json.loads(storage.cache_file(fingerprint, device, cache).read_text()) == found
    again, cached = storage.characterise(datadir / "elsewhere", cache=cache, **TINY)
    assert cached and again == found

    # another machine's (or disk's) entry is never taken for this one
    other = {**found, "measured_at": "2020-01-01T00:00:00Z"}
    moved = tmp_path / "cache"
    moved.mkdir()
    storage.cache_file("0" * 64, device, moved).write_text(json.dumps(other))
    storage.cache_file(fingerprint, "/dev/other0", moved).write_text(json.dumps(other))
    assert not storage.cache_file(fingerprint, device, moved).exists()
    assert storage.cache_file(fingerprint, device, moved) != storage.cache_file(
        fingerprint, "/dev/other0", moved
    )
    # a damaged entry is not trusted: it is measured again
    storage.cache_file(fingerprint, device, moved).write_text('{"tool": "fio"}')
    fresh, cached = storage.characterise(datadir, cache=moved, **TINY)
    assert not cached and fresh["measured_at"] != other["measured_at"]
    assert storage.storage_problems(fresh) == []


def test_missing_fio_is_refused_naming_the_path(tmp_path):
    with pytest.raises(storage.StorageUnmeasured) as refused:
        storage.measure(tmp_path / "datadir", None, fio="fio-not-installed", **TINY)
    assert str(refused.value) == (
        f"{tmp_path}: storage not characterised: fio-not-installed not found (apt-get install fio)"
    )


def test_a_filesystem_too_full_for_the_test_file_is_refused(tmp_path):
    with small_tmpfs(tmp_path / "small", "8m") as small:
        if small.prefix:
            pytest.skip("needs a tmpfs this process sees")  # never as root, as the suite runs
        with pytest.raises(storage.StorageUnmeasured) as refused:
            storage.measure(small.path, "tmpfs", **TINY)
    message = str(refused.value)
    assert message.startswith(f"{small.path}: storage not characterised: 8 MiB free,")
    assert "needs 16 MiB" in message


def test_a_flush_that_reaches_no_media_is_not_honoured(tmp_path):
    """tmpfs keeps its files in RAM: its fdatasync returns at once, as a lying cache's does."""
    with small_tmpfs(tmp_path / "ram", "128m") as ram:
        if ram.prefix:
            pytest.skip("needs a tmpfs this process sees")
        found = storage.measure(ram.path / "datadir", "tmpfs", **TINY)
        assert list(ram.path.iterdir()) == []  # the scratch directory is gone
    assert found["sync_write_4k"]["p50_us"] < storage.LYING_FLUSH_US
    assert found["flushes_honoured"] is False
    assert found["write_cache"] is None  # no block device, no sysfs queue
    assert storage.storage_problems(found) == []


def test_fio_failing_is_refused_with_its_own_line(tmp_path):
    with pytest.raises(storage.StorageUnmeasured) as refused:
        storage.measure(tmp_path, None, file_mb=0, seconds=1)
    assert str(refused.value) == (
        f"{tmp_path}: storage not characterised: fio: rand_read_16k_qd1: you need to specify size="
    )
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_filesystem_is_refused_naming_it(tmp_path):
    with small_tmpfs(tmp_path / "ro", "128m") as read_only:
        if read_only.prefix:
            pytest.skip("needs a tmpfs this process sees")
        subprocess.run(["mount", "-o", "remount,ro", str(read_only.path)], check=True)
        with pytest.raises(storage.StorageUnmeasured) as refused:
            storage.measure(read_only.path, "tmpfs", **TINY)
    assert str(refused.value).startswith(
        f"{read_only.path}: storage not characterised: cannot write there: "
    )


def _mybench(*argv: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli", *argv],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
    )


def test_mybench_storage_prints_the_cached_figures(measured, tmp_path):
    found, datadir, _ = measured
    fingerprint, device = storage.host_key(datadir)
    entry = storage.cache_file(fingerprint, device, tmp_path / "mybench" / "storage")
    entry.parent.mkdir(parents=True)
    entry.write_text(json.dumps(found))
    shown = _mybench("storage", "--datadir-at", str(datadir), XDG_CACHE_HOME=str(tmp_path))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines() == [
        f"storage under {datadir} (from the cache):",
        *storage.report_lines(found),
    ]


def test_mybench_storage_without_fio_says_why_in_one_line(tmp_path):
    shown = _mybench(
        "storage", "--datadir-at", str(tmp_path), XDG_CACHE_HOME=str(tmp_path), PATH="/nowhere"
    )
    assert shown.returncode == 2
    assert shown.stderr.splitlines()[-1] == (
        f"error: {tmp_path}: storage not characterised: fio not found (apt-get install fio)"
    )


@pytest.mark.server
def test_every_run_of_a_campaign_carries_the_cached_figures(measured, tmp_path):
    found, _, _ = measured
    fingerprint, device = storage.host_key(tmp_path / "work")
    entry = storage.cache_file(fingerprint, device, tmp_path / "xdg" / "mybench" / "storage")
    entry.parent.mkdir(parents=True)
    entry.write_text(json.dumps(found))
    campaign = write_campaign(tmp_path, threads="[1]", seconds=1)
    done = run_cli(tmp_path, campaign, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert done.returncode == 0, done.stderr
    assert "measuring the storage" not in done.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == [] and len(runs) == 2
    assert all(run["host"]["storage"] == found for run in runs)
