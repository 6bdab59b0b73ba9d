"""The storage lines and host page rows (generator/pages/storage.py) on fio figures as the
harness records them (harness/measure/storage.py)."""

from __future__ import annotations

import copy

from generator.analysis.hosts import host_of
from generator.pages.storage import (
    NOT_CHARACTERISED,
    campaign_storage,
    host_measurements,
    host_pages,
    run_storage,
    storage_sentence,
)

STORAGE = {
    "tool": "fio",
    "version": "3.33",
    "measured_at": "2026-11-28T00:14:15Z",
    "device": "/dev/vda",
    "write_cache": "write back",
    "file_mb": 256,
    "seconds_per_test": 3.0,
    "sync_write_4k": {"iops": 6461.5, "mb_per_s": 26.47, "p50_us": 136.192, "p99_us": 2220.16},
    "rand_read_16k_qd1": {"iops": 15266.7, "mb_per_s": 250.1, "p50_us": 43.264, "p99_us": 86.5},
    "rand_read_16k_qd32": {"iops": 40963.0, "mb_per_s": 671.1, "p50_us": 806.9, "p99_us": 970.8},
    "seq_write": {"iops": 790.2, "mb_per_s": 828.595, "p50_us": 1171.5, "p99_us": 1400.8},
    "flushes_honoured": True,
}
# A later measurement of a disk whose cache lies about flushes.
LYING = {
    **copy.deepcopy(STORAGE),
    "measured_at": "2026-11-29T08:00:00Z",
    "sync_write_4k": {"iops": 348818.2, "mb_per_s": 1428.8, "p50_us": 0.35, "p99_us": 0.51},
    "flushes_honoured": False,
}


def run(run_id: str, hostname: str, started: str, storage: dict | None) -> dict:
    host: dict = {"hostname": hostname, "cpu_model": "AMD EPYC", "cpu_threads": 2}
    if storage is not None:
        host["storage"] = storage
    return {"id": run_id, "started_at": started, "host": host}


def test_the_sentence_goes_through_the_site_number_format():
    assert storage_sentence(STORAGE) == (
        "fdatasync p50 136 µs (p99 2,220 µs), 16 KiB random reads 15,267 IOPS at QD1"
        " (p50 43.3 µs) and 40,963 at QD32, 1 MiB sequential writes 829 MB/s;"
        " write cache write back; flushes honoured (fio 3.33, 2026-11-28)"
    )
    lying = storage_sentence(LYING)
    assert lying.startswith("fdatasync p50 0.35 µs (p99 0.51 µs),")
    assert "flushes NOT honoured: an fdatasync returns in under 10 µs" in lying
    unknown = {**STORAGE, "write_cache": None, "flushes_honoured": None}
    assert "write cache not reported; whether flushes are honoured is unknown" in (
        storage_sentence(unknown)
    )


def test_a_run_says_whether_its_host_was_characterised():
    assert run_storage(run("a", "vm", "2026-11-28T01:00:00Z", STORAGE)) == {
        "measured": True,
        "text": storage_sentence(STORAGE),
    }
    assert run_storage(run("b", "vm", "2026-11-28T01:00:00Z", None)) == {
        "measured": False,
        "text": NOT_CHARACTERISED,
    }


def test_a_campaign_gives_one_line_per_host_from_its_latest_measured_run():
    one_host = [
        run("a", "vm", "2026-11-28T01:00:00Z", STORAGE),
        run("b", "vm", "2026-11-29T09:00:00Z", LYING),
        run("c", "vm", "2026-11-29T10:00:00Z", None),  # a run that recorded none
    ]
    assert campaign_storage(one_host) == [
        {"host": None, "measured": True, "text": storage_sentence(LYING)}
    ]
    fleet = [*one_host, run("d", "other", "2026-11-28T01:00:00Z", None)]
    lines = campaign_storage(fleet)
    names = sorted({host_of(each)["name"] for each in fleet})
    assert [line["host"] for line in lines] == names
    assert {line["host"]: line["measured"] for line in lines} == {
        host_of(one_host[0])["name"]: True,
        host_of(fleet[-1])["name"]: False,
    }


def test_host_pages_list_each_distinct_measurement_newest_first():
    first = host_measurements([run("a", "vm", "2026-11-28T01:00:00Z", STORAGE)])
    second = host_measurements(
        [
            run("b", "vm", "2026-11-29T09:00:00Z", LYING),
            run("c", "vm", "2026-11-29T10:00:00Z", LYING),
            run("d", "other", "2026-11-29T10:00:00Z", None),
        ]
    )
    pages = host_pages([first, second, first])  # a measurement shared by campaigns counts once
    (name,) = pages
    assert [row["measured_at"] for row in pages[name]] == [
        LYING["measured_at"],
        STORAGE["measured_at"],
    ]
    newest, oldest = pages[name]
    assert (newest["fsync_p50"], newest["flushes"], newest["lying"]) == ("0.35", "no", True)
    assert oldest == {
        "measured_at": "2026-11-28T00:14:15Z",
        "device": "/dev/vda",
        "fsync_p50": "136",
        "fsync_p99": "2,220",
        "read_qd1": "15,267",
        "read_qd32": "40,963",
        "seq_write": "829",
        "write_cache": "write back",
        "flushes": "yes",
        "lying": False,
        "fio": "3.33",
    }
