"""Parts of the runner that need no server: product detection, publishing runs."""

import copy
import json
import tempfile

import pytest

from harness.campaign.load import load_campaign
from harness.errors import UserError
from harness.run.campaign_run import CampaignRun
from harness.servers.serverinfo import server_product
from tests.helpers.paths import REPO

CAMPAIGNS = REPO / "campaigns"


def test_product_from_version_and_comment():
    assert server_product("10.11.19-MariaDB-0+deb12u1", "Debian 12") == "mariadb"
    assert server_product("8.0.40", "MySQL Community Server - GPL") == "mysql"
    assert server_product("8.0.39-30", "Percona Server (GPL), Release 30") == "percona"


def test_unwritable_results_dir_saves_the_run_elsewhere(tmp_path, monkeypatch, committed_runs):
    document = committed_runs[0].doc
    not_a_dir = tmp_path / "data"
    not_a_dir.write_text("a file where the results directory should be")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    campaign = load_campaign(CAMPAIGNS / "demo.toml")
    run = CampaignRun(campaign, not_a_dir, tmp_path / "work", "mybench run demo.toml")
    with pytest.raises(UserError, match="cannot write run") as caught:
        run.publish(document)
    rescued = tmp_path / f"{document['id']}.json"
    assert f"saved to {rescued}" in str(caught.value)
    assert json.loads(rescued.read_text()) == document


def test_a_run_the_schema_refuses_is_saved_not_lost(tmp_path, monkeypatch, committed_runs):
    document = copy.deepcopy(committed_runs[0].doc)
    document["steps"][0]["tps"] = -1.0  # what a harness bug would write
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    campaign = load_campaign(CAMPAIGNS / "demo.toml")
    run = CampaignRun(campaign, tmp_path / "data", tmp_path / "work", "mybench run demo.toml")
    with pytest.raises(UserError, match=r"not written: run document fails the schema") as caught:
        run.publish(document)
    assert "$.steps[0].tps" in str(caught.value)
    assert json.loads((tmp_path / f"{document['id']}.json").read_text()) == document
    assert not (tmp_path / "data" / "runs" / f"{document['id']}.json").exists()


def test_publish_never_replaces_a_run(tmp_path, committed_runs):
    document = committed_runs[0].doc
    campaign = load_campaign(CAMPAIGNS / "demo.toml")
    run = CampaignRun(campaign, tmp_path, tmp_path / "work", "mybench run demo.toml")
    run.publish(document)
    with pytest.raises(UserError, match="already exists"):
        run.publish(document)
    assert run.written == [tmp_path / "runs" / f"{document['id']}.json"]
