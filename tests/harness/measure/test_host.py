"""The host description's identity parts (harness/measure/host.py): the keyed machine id, the
datadir's disk model and the fingerprint, on this machine and on machine id files of our own."""

from __future__ import annotations

import hashlib
from pathlib import Path

import contract
from harness.measure import host

MACHINE_ID = "3d1219c7c4c5404aaa1f6d2a48adfda4"


def test_the_machine_id_is_only_used_keyed(tmp_path):
    path = tmp_path / "machine-id"
    path.write_text(MACHINE_ID + "\n")
    key = host.machine_key((str(path),))
    assert key is not None and len(key) == 64
    assert MACHINE_ID not in key
    assert key != hashlib.sha256(MACHINE_ID.encode()).hexdigest()  # not a plain, guessable hash
    other = tmp_path / "other"
    other.write_text(MACHINE_ID.replace("3", "4") + "\n")
    assert host.machine_key((str(other),)) != key


def test_no_usable_machine_id_gives_no_key(tmp_path):
    empty = tmp_path / "empty"
    empty.write_text("uninitialized\n")
    assert host.machine_key((str(tmp_path / "missing"), str(empty))) is None


def test_a_pseudo_filesystem_has_no_disk_model():
    assert host.device_model("tmpfs") is None
    assert host.device_model(None) is None


def test_collect_host_records_the_fingerprint_of_its_facts_and_the_label(tmp_path):
    described = host.collect_host(tmp_path, "bench box")
    assert described["label"] == "bench box"
    assert described["fingerprint"] == contract.host_fingerprint(described, host.machine_key())
    assert "label" not in host.collect_host(tmp_path)
    machine_id = Path("/etc/machine-id").read_text().strip()
    assert machine_id not in repr(described)
