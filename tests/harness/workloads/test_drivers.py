"""The driver of each workload kind, chosen once per workload, and the workload section each
contributes to the run document (no server needed)."""

from harness.campaign.load import load_campaign
from harness.workloads.drivers import dataset_of, driver_for, group_by_dataset
from harness.workloads.ibench.driver import IbenchDriver
from harness.workloads.sysbench.dataset import SysbenchLoader
from harness.workloads.sysbench.driver import SysbenchDriver
from harness.workloads.tpcc.dataset import TpccLoader
from harness.workloads.tpcc.driver import TpccDriver
from tests.helpers.paths import REPO

CAMPAIGNS = REPO / "campaigns"
SECTION_KEYS = {"tool", "tool_version", "script", "options", "client_cpu_affinity"}


def test_each_kind_gets_its_driver():
    sysbench = load_campaign(CAMPAIGNS / "demo.toml").workloads[0]
    tpcc = load_campaign(CAMPAIGNS / "tpcc-sets-vs-warehouses.toml").workloads[0]
    ibench = load_campaign(CAMPAIGNS / "ibench-performance-schema.toml").workloads[0]
    assert type(driver_for(sysbench)) is SysbenchDriver
    assert type(driver_for(tpcc)) is TpccDriver
    assert type(driver_for(ibench)) is IbenchDriver
    assert driver_for(ibench).loader is None
    assert type(driver_for(sysbench).loader) is SysbenchLoader
    assert type(driver_for(tpcc).loader) is TpccLoader


def test_sections_say_the_tool_up_front():
    sysbench = driver_for(load_campaign(CAMPAIGNS / "demo.toml").workloads[0])
    section = sysbench.section("1.0.20", (2, 3))
    assert set(section) == SECTION_KEYS
    assert section["tool"] == "sysbench" and section["client_cpu_affinity"] == [2, 3]
    tpcc = driver_for(load_campaign(CAMPAIGNS / "tpcc-sets-vs-warehouses.toml").workloads[0])
    assert set(tpcc.section("1.0.20", ())) == SECTION_KEYS | {"tpcc"}
    ibench = driver_for(load_campaign(CAMPAIGNS / "ibench-performance-schema.toml").workloads[0])
    section = ibench.section("1.0.20", (2,))
    assert section["tool"] == "ibench" and section["client_cpu_affinity"] is None
    assert section["options"]["seed"]  # fixed before the run, so the command replays it


def test_workloads_sharing_tables_form_one_group():
    workloads = load_campaign(CAMPAIGNS / "dimitri-oltp-sweep.toml").workloads
    groups = group_by_dataset(workloads)
    assert sorted(w.label for group in groups for w in group) == sorted(w.label for w in workloads)
    for group in groups:
        assert len({dataset_of(w) for w in group}) == 1
    assert len({dataset_of(group[0]) for group in groups}) == len(groups)
