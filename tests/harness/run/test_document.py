"""The run document built in one place: every run starts from new_document, with the workload
section its driver gives, and is valid once server, host and steps are filled in."""

from harness.campaign.load import load_campaign
from harness.run.document import CampaignFacts, StartingData, mark, new_document, record_start
from harness.run.provenance import take_snapshot
from harness.workloads.drivers import driver_for
from tests.helpers.paths import REPO


class _Server:
    def client_command(self, sql: str) -> str:
        return f"mariadb -e {sql!r}"


def _document(campaign_file: str) -> dict:
    campaign = load_campaign(REPO / "campaigns" / campaign_file)
    workload = campaign.workloads[0]
    harness, _ = take_snapshot(campaign.path, "1.0.20")
    facts = CampaignFacts(
        campaign, f"{campaign.name}-x", ["a", "b"], "mybench run x.toml", harness
    )
    section = driver_for(workload).section("1.0.20", ())
    return new_document(facts, "run-1", "a", workload, 1, section)


def test_a_new_run_is_failed_until_it_says_otherwise():
    document = _document("demo.toml")
    assert document["status"] == "failed" and document["steps"] == []
    assert document["campaign"]["variant_order"] == ["a", "b"]
    assert document["campaign"]["file"] == "campaigns/demo.toml"
    workload = document["workload"]
    assert list(workload)[:8] == [
        "tool", "tool_version", "name", "script", "options", "client_cpu_affinity",
        "data_bytes", "rows_after_prepare",
    ]  # fmt: skip
    mark(document, "the load failed")
    assert document["status"] == "failed" and document["status_reason"] == "the load failed"


def test_starting_data_and_metrics_come_before_the_runs_commands():
    document = _document("tpcc-sets-vs-warehouses.toml")
    check = {"passed": True}
    data = StartingData(
        {"method": "prepared"}, 10, 2048, [{"purpose": "load", "command": "x"}], check
    )
    record_start(document, _Server(), ("buffer_pool_%",), data, [])
    assert document["workload"]["rows_after_prepare"] == 10
    assert document["workload"]["tpcc"]["check_after_load"] == check
    purposes = [c["purpose"] for c in document["reproduce"]["commands"]]
    assert purposes == ["load", "enable a sampled InnoDB metric"]


def test_a_run_with_steps_is_partial_when_marked():
    document = _document("demo.toml")
    document["steps"].append({"threads": 1})
    mark(document, "server exited")
    assert document["status"] == "partial"
