"""Parts of the runner that need no server: product detection, publishing runs."""

import copy
import json
import stat
import tempfile

import pytest

import contract
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
    kept = tmp_path / "data" / "runs" / ".refused" / f"{document['id']}.json"
    assert "$.steps[0].tps" in str(caught.value)
    assert f"kept with credentials redacted in {kept} (mode 0600), a harness bug" in str(
        caught.value
    )
    assert json.loads(kept.read_text()) == document
    assert not (tmp_path / "data" / "runs" / f"{document['id']}.json").exists()


PLANTED = "Planted-after-measuring"


@pytest.mark.parametrize(
    "plant",
    [
        lambda d: d["campaign"].__setitem__("description", f"echo $(mysql -p{PLANTED})"),
        lambda d: d.__setitem__("status_reason", f"curl -u ops:{PLANTED} ctl: refused"),
    ],
)
def test_a_run_refused_for_a_credential_is_kept_private_and_redacted(
    plant, tmp_path, monkeypatch, committed_runs
):
    document = copy.deepcopy(committed_runs[0].doc)
    plant(document)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "t"))
    run = CampaignRun(
        load_campaign(CAMPAIGNS / "demo.toml"), tmp_path, tmp_path / "w", "mybench run"
    )
    with pytest.raises(UserError, match="unredacted credential") as caught:
        run.publish(document)
    runs = tmp_path / "runs"
    kept = runs / ".refused" / f"{document['id']}.json"
    assert str(caught.value).endswith(
        f"kept with credentials redacted in {kept} (mode 0600), it validates as kept: move it"
        f" into {runs} before resuming"
    )
    assert PLANTED not in str(caught.value) and PLANTED not in kept.read_text()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) & 0o077 == 0
    assert sorted(runs.iterdir()) == [kept.parent]  # nothing where a result would be read
    assert not (tmp_path / "t").exists()  # nor in the temp directory
    kept_doc = json.loads(kept.read_text())
    assert kept_doc["steps"] == document["steps"]  # the measurements
    kept.rename(runs / kept.name)
    assert contract.validate_dir(tmp_path) == ([kept_doc], [])


def test_a_refused_run_goes_to_the_temp_directory_when_the_results_cannot_keep_it(
    tmp_path, monkeypatch, committed_runs
):
    document = copy.deepcopy(committed_runs[0].doc)
    document["status_reason"] = f"DB_PASS={PLANTED} restart.sh failed"
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / ".refused").write_text("a file where the folder would be")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    run = CampaignRun(
        load_campaign(CAMPAIGNS / "demo.toml"), tmp_path, tmp_path / "w", "mybench run"
    )
    with pytest.raises(UserError) as caught:
        run.publish(document)
    rescued = tmp_path / f"{document['id']}.json"
    assert f"it could not be kept in {tmp_path / 'runs' / '.refused'} (File exists)" in str(
        caught.value
    )
    assert f"kept with credentials redacted in {rescued} (mode 0600)" in str(caught.value)
    assert stat.S_IMODE(rescued.stat().st_mode) == 0o600
    assert PLANTED not in rescued.read_text()
    assert "DB_PASS=<redacted> restart.sh" in rescued.read_text()


def test_publish_never_replaces_a_run(tmp_path, committed_runs):
    document = committed_runs[0].doc
    campaign = load_campaign(CAMPAIGNS / "demo.toml")
    run = CampaignRun(campaign, tmp_path, tmp_path / "work", "mybench run demo.toml")
    run.publish(document)
    with pytest.raises(UserError, match="already exists"):
        run.publish(document)
    assert run.written == [tmp_path / "runs" / f"{document['id']}.json"]
