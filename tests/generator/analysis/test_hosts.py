"""Which host a run comes from (generator/analysis/hosts.py), on the fixture run documents."""

from __future__ import annotations

import copy

import pytest

import contract
from generator.analysis.hosts import (
    cpu_name,
    host_bases,
    host_of,
    hosts_of,
    same_variant_across_hosts,
)

MIB = 2**20


@pytest.fixture
def run(fixture_runs) -> dict:
    """A fixture run written before fingerprints were recorded, as a fresh copy."""
    return copy.deepcopy(fixture_runs[0].doc)


def with_host(run: dict, **changes: object) -> dict:
    other = copy.deepcopy(run)
    other["host"].update(changes)
    return other


def test_two_documents_differing_only_in_cpu_model_are_two_hosts(run):
    other = with_host(run, cpu_model="Intel(R) Xeon(R) Processor")
    assert run["host"]["hostname"] == other["host"]["hostname"]
    first, second = host_of(run), host_of(other)
    assert first["fingerprint"] != second["fingerprint"]
    assert first["name"] != second["name"]
    assert len(hosts_of([run, other, run])) == 2


def test_one_machine_under_two_labels_is_two_hosts(run):
    fingerprint = contract.host_fingerprint(run["host"], "0" * 64)
    first = with_host(run, fingerprint=fingerprint, label="bench-1")
    second = with_host(run, fingerprint=fingerprint, label="bench-2")
    hosts = hosts_of([first, second, first])
    assert [host["name"] for host in hosts] == [
        f"bench-1 · {fingerprint[:6]}",
        f"bench-2 · {fingerprint[:6]}",
    ]


def test_the_same_machine_twice_is_one_host_despite_ram_wobble_and_a_new_kernel(run):
    # MemTotal moved by 1.2 MiB between two boots of the project's VMs; a kernel upgrade
    # leaves the machine as it was (the drift banner reports the kernel).
    later = with_host(run, ram_bytes=run["host"]["ram_bytes"] - 1_269_760, kernel="6.19.1")
    assert host_of(later) == host_of(run)
    assert host_of(with_host(run, ram_bytes=run["host"]["ram_bytes"] + 300 * MIB)) == host_of(run)
    assert host_of(with_host(run, ram_bytes=run["host"]["ram_bytes"] * 2)) != host_of(run)


def test_a_run_without_a_recorded_fingerprint_gets_a_derived_one(run):
    assert "fingerprint" not in run["host"]
    host = host_of(run)
    assert host["derived"] is True
    assert host["fingerprint"] == contract.host_fingerprint(run["host"], None)
    facts = run["host"]
    cores, ram = facts["cpu_cores"], contract.ram_gib(facts["ram_bytes"])
    assert host["name"] == (
        f"{facts['hostname']} · {cpu_name(facts['cpu_model'])} · {cores} cores · {ram} GiB"
        f" · {host['fingerprint'][:6]}"
    )


def test_a_recorded_fingerprint_and_label_win(run):
    fingerprint = contract.host_fingerprint(run["host"], "0" * 64)
    labelled = with_host(run, fingerprint=fingerprint, label="rack 3 box")
    assert host_of(labelled) == {
        "fingerprint": fingerprint,
        "name": f"rack 3 box · {fingerprint[:6]}",
        "derived": False,
    }
    # the machine id tells apart two machines of the same hardware and hostname
    assert fingerprint != contract.host_fingerprint(run["host"], "1" * 64)
    assert fingerprint != host_of(run)["fingerprint"]


def test_one_label_on_two_machines_still_names_two_hosts(run):
    first = with_host(run, label="lab")
    second = with_host(run, label="lab", cpu_model="AMD EPYC 7763 64-Core Processor")
    assert host_of(first)["name"] != host_of(second)["name"]


@pytest.mark.parametrize(
    ("model", "name"),
    [
        ("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", "Intel Xeon Gold 6248"),
        ("AMD EPYC 7763 64-Core Processor", "AMD EPYC 7763"),
        ("Intel(R) Xeon(R) Processor", "Intel Xeon"),
        ("AMD EPYC", "AMD EPYC"),
    ],
)
def test_cpu_names_drop_trademarks_and_clocks(model, name):
    assert cpu_name(model) == name


@pytest.mark.parametrize(
    "model",
    [
        "AMD Ryzen 5 PRO 4650G w/ Radeon Graphics",
        "../../posts/x",
        "vm\\..\\..\\x",
        "Xeon #1 100% busy",
    ],
)
def test_a_host_named_from_its_cpu_model_has_a_page_under_hosts(run, model):
    """A recorded CPU model is a fact, not a name someone chose: its path characters become
    spaces, so the machine keeps a page and it stays under /hosts/."""
    smt = with_host(run, cpu_model=model, cpu_cores=8, cpu_threads=16)
    segment = contract.page_segment(host_of(smt)["name"])
    assert not set("/\\%#") & set(segment), segment
    assert "8-cores-16-threads" in segment


def _fleet_run(run, label: str, variant: str) -> dict:
    copied = copy.deepcopy(run)
    copied["host"]["label"] = label
    copied["variant"] = contract.host_variant_prefix(label) + variant
    return copied


@pytest.fixture
def fleet(run) -> list[dict]:
    """Two hosts of a fleet, each running the variants base and tuned."""
    return [
        _fleet_run(run, label, variant)
        for label in ("Rack 3 (2)", "bench-1")
        for variant in ("base", "tuned")
    ]


def test_a_fleet_s_variants_are_compared_host_against_host(fleet):
    runs = fleet
    variants = [doc["variant"] for doc in runs]
    assert same_variant_across_hosts(variants, runs) == {
        "base": ["rack-3-2.base", "bench-1.base"],
        "tuned": ["rack-3-2.tuned", "bench-1.tuned"],
    }


def test_one_host_or_one_variant_gives_no_host_against_host_tables(run):
    one_host = [_fleet_run(run, "bench-1", variant) for variant in ("base", "tuned")]
    one_variant = [_fleet_run(run, label, "base") for label in ("bench-1", "bench-2")]
    unlabelled = [copy.deepcopy(run)]
    for runs in (one_host, one_variant, unlabelled):
        assert same_variant_across_hosts([doc["variant"] for doc in runs], runs) == {}


def test_each_fleet_host_is_the_base_of_its_own_variants(fleet):
    runs = fleet
    variants = [doc["variant"] for doc in runs]
    assert host_bases(variants, runs) == {
        "rack-3-2.base": "rack-3-2.base",
        "rack-3-2.tuned": "rack-3-2.base",
        "bench-1.base": "bench-1.base",
        "bench-1.tuned": "bench-1.base",
    }
    one_host = runs[:2]
    assert host_bases(variants[:2], one_host) == {}
    one_variant_each = [runs[0], runs[2]]  # each host is the other's comparison
    assert host_bases([doc["variant"] for doc in one_variant_each], one_variant_each) == {}
