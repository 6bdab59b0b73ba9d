"""Datasets shared between workloads, and the store of pristine loaded datadirs."""

from __future__ import annotations

import pytest

from harness.errors import UserError
from harness.model.campaign import Workload
from harness.servers.pristine import PristineStore, copy_datadir, ensure_room, pristine_key
from harness.workloads.drivers import dataset_of, group_by_dataset


def workload(label: str, test: str = "oltp_read_only", **options: str) -> Workload:
    return Workload(label, test, tables=4, table_size=1000, options=options)


def test_statement_options_share_data_table_options_do_not():
    point = workload("point", "oltp_point_select")
    ranges = workload("ranges", **{"range-size": "10000", "db-ps-mode": "disable"})
    no_secondary = workload("nosec", secondary="on")
    assert dataset_of(point) == dataset_of(ranges) == "sysbench oltp 4x1000"
    assert dataset_of(no_secondary) == "sysbench oltp 4x1000 --secondary=on"
    bigger = Workload("big", "oltp_read_only", tables=4, table_size=2000, options={})
    groups = group_by_dataset([point, bigger, no_secondary, ranges])
    assert [[w.label for w in group] for group in groups] == [
        ["point", "ranges"],
        ["big"],
        ["nosec"],
    ]


def test_key_names_server_options_and_dataset():
    key = pristine_key("a", {"innodb_page_size": "8k"}, "sysbench oltp 4x1000")
    assert key == "server a; innodb_page_size=8k; sysbench oltp 4x1000"
    assert "default data options" in pristine_key("a", {}, "d")


def test_store_keeps_a_loaded_datadir_and_finds_it_again(tmp_path):
    loaded = tmp_path / "loading"
    (loaded / "sbtest").mkdir(parents=True)
    (loaded / "sbtest" / "sbtest1.ibd").write_bytes(b"x" * 4096)
    store = PristineStore.at(tmp_path / "store")
    facts = {
        "loaded_by": "a",
        "load_seconds": 1.5,
        "rows": 10,
        "data_bytes": 4096,
        "load_commands": [],
    }
    copy = store.keep("key", loaded, **facts)
    assert not loaded.exists() and (copy.datadir / "sbtest" / "sbtest1.ibd").is_file()
    # a later process (--resume) finds it from the mark left beside it
    again = PristineStore.at(tmp_path / "store").get("key")
    assert again == copy
    assert PristineStore.at(tmp_path / "store").get("other") is None

    restored = tmp_path / "run" / "datadir"
    seconds = copy_datadir(copy.datadir, restored)
    assert seconds >= 0 and (restored / "sbtest" / "sbtest1.ibd").read_bytes() == b"x" * 4096
    assert copy.origin(seconds)["method"] == "restored"
    store.remove()
    assert not (tmp_path / "store").exists()


def test_a_copy_that_cannot_fit_is_refused_before_writing(tmp_path, monkeypatch):
    source = tmp_path / "source"
    source.mkdir()
    (source / "ibdata1").write_bytes(b"x" * 1000)
    monkeypatch.setattr("shutil.disk_usage", lambda path: type("U", (), {"free": 10})())
    with pytest.raises(UserError, match=r"not enough space .* MiB needed"):
        ensure_room(source, tmp_path / "target")
    with pytest.raises(UserError):
        copy_datadir(source, tmp_path / "target" / "datadir")
    assert not (tmp_path / "target" / "datadir").exists()
