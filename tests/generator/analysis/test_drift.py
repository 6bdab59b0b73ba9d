"""Environment drift between compared runs (generator/analysis/drift.py)."""

from generator.analysis.drift import HOST_FIELD, NOT_RECORDED, environment_drift
from generator.analysis.hosts import host_of


def run(run_id: str, **host: str) -> dict:
    base = {
        "hostname": "vm",
        "cpu_model": "AMD EPYC",
        "cpu_threads": 2,
        "ram_bytes": 25276063744,
        "kernel": "6.1",
        "cpu_governor": None,
    }
    return {
        "id": run_id,
        "host": {**base, **host},
        "server": {"version_string": "10.11.19-MariaDB"},
        "workload": {"tool_version": "1.0.20"},
    }


def test_same_environment_has_no_drift():
    binlog_on = run("b")
    binlog_on["server"]["version_string"] += "-log"  # how the server says log_bin is on
    assert environment_drift([run("a"), binlog_on]) == []


def test_each_differing_field_names_its_values_and_runs():
    runs = [run("a"), run("b", kernel="6.18"), run("c", cpu_model="Intel Xeon", kernel="6.18")]
    del runs[2]["workload"]["tool_version"]
    drift = {entry["what"]: entry["values"] for entry in environment_drift(runs)}
    assert list(drift) == [HOST_FIELD, "CPU model", "kernel", "sysbench version"]
    assert drift["kernel"] == [
        {"value": "6.1", "runs": ["a"]},
        {"value": "6.18", "runs": ["b", "c"]},
    ]
    assert drift["sysbench version"][1] == {"value": NOT_RECORDED, "runs": ["c"]}


def test_runs_of_two_machines_with_one_hostname_are_two_hosts():
    runs = [run("a"), run("b", cpu_model="Intel(R) Xeon(R) Processor")]
    (host, _) = environment_drift(runs)
    assert host == {
        "what": HOST_FIELD,
        "values": [{"value": host_of(r)["name"], "runs": [r["id"]]} for r in runs],
    }


def test_a_kernel_upgrade_is_drift_on_one_host():
    drift = environment_drift([run("a"), run("b", kernel="6.18")])
    assert [entry["what"] for entry in drift] == ["kernel"]
