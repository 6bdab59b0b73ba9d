"""The provenance snapshot: one per campaign, taken from a copy of the project in its own git
repository (the real worktree is never dirtied), with real sandboxed servers for the campaigns."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

import contract
from harness.errors import UserError
from harness.run import provenance
from tests.helpers.cli_runs import servers_under, wait_for_line, write_campaign
from tests.helpers.project_copy import MYBENCH, git, project_copy, run_in
from tests.helpers.site_build import build_with_article

CHANGED = "harness/run/publish.py"


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean copy whose campaigns/tiny.toml is committed; in-process snapshots read it."""
    copy = project_copy(tmp_path)
    write_campaign(copy / "campaigns", threads="[1, 2]", seconds=1)
    git(copy, "add", "-A")
    git(copy, "commit", "-q", "-m", "tiny campaign")
    monkeypatch.setattr(provenance, "PROJECT_ROOT", copy)
    return copy


def _dirty(copy: Path) -> None:
    """A tracked change, a new file among the inputs, and a change outside them."""
    with (copy / CHANGED).open("a") as handle:
        handle.write("# a local experiment\n")
    (copy / "campaigns" / "new.toml").write_text('name = "new"\n')
    (copy / "generator" / "README.md").write_text("not an input of a campaign\n")


def test_clean_copy_has_no_changes_and_no_diff(copy):
    harness, diff = provenance.take_snapshot(copy / "campaigns" / "tiny.toml", "1.0.20")
    snapshot = harness["snapshot"]
    assert harness["git_commit"] == git(copy, "rev-parse", "HEAD").strip()
    assert harness["git_dirty"] is False and snapshot["changed_files"] == [] and diff == ""
    assert "diff" not in snapshot
    text = (copy / "campaigns" / "tiny.toml").read_text()
    assert snapshot["campaign_file"] == {
        "path": "campaigns/tiny.toml",
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "text": text,
    }
    assert snapshot["tools"]["sysbench"] == "1.0.20"
    lua = copy / "harness/workloads/tpcc/lua/tpcc.lua"
    expected = hashlib.sha256(lua.read_bytes()).hexdigest()
    assert snapshot["files"]["harness/workloads/tpcc/lua/tpcc.lua"] == expected
    assert "harness/workloads/ibench/workers.py" in snapshot["files"]


def test_the_stored_diff_restores_the_changed_inputs(copy, tmp_path):
    _dirty(copy)
    harness, diff = provenance.take_snapshot(copy / "campaigns" / "tiny.toml", "1.0.20")
    assert harness["git_dirty"] is True
    assert harness["snapshot"]["changed_files"] == ["campaigns/new.toml", CHANGED]
    data = tmp_path / "results"
    provenance.store_diff(harness, diff, data)
    stored = data / harness["snapshot"]["diff"]["path"]
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == harness["snapshot"]["diff"]["sha256"]
    provenance.store_diff(harness, "", data)  # same name, kept as it is
    assert stored.read_text() == diff

    changed, new = (copy / CHANGED).read_text(), (copy / "campaigns/new.toml").read_text()
    git(copy, "checkout", "--", ".")
    git(copy, "clean", "-fdq")
    git(copy, "apply", str(stored))
    assert (copy / CHANGED).read_text() == changed
    assert (copy / "campaigns/new.toml").read_text() == new


def test_credentials_in_the_campaign_file_and_diff_are_recorded_redacted(copy, tmp_path):
    campaign = copy / "campaigns" / "tiny.toml"
    secrets = (
        '\n[variants.reporting]\noptions = { report_password = "Planted-in-variant" }\n'
        '# restart_command = "sshpass -p Planted-on-command-line ssh db restart"\n'
    )
    with campaign.open("a") as handle:
        handle.write(secrets)
    harness, diff = provenance.take_snapshot(campaign, "1.0.20")
    recorded = harness["snapshot"]["campaign_file"]
    assert "Planted" not in recorded["text"] and "Planted" not in diff
    assert 'report_password = "<redacted>"' in recorded["text"]
    assert "sshpass -p <redacted> ssh" in recorded["text"]
    # the hash is the recorded text's: a hash of the file would let a password be guessed
    assert recorded["sha256"] == hashlib.sha256(recorded["text"].encode()).hexdigest()
    data = tmp_path / "results"
    provenance.store_diff(harness, diff, data)
    stored = data / harness["snapshot"]["diff"]["path"]
    assert b"Planted" not in stored.read_bytes()
    git(copy, "checkout", "--", ".")
    git(copy, "apply", str(stored))  # still a diff that applies, the credentials left out
    assert campaign.read_text() == recorded["text"]


# Credentials in spellings a plain `name = value` rule misses: a client's -p in $(…), curl's
# user:password, a quoted TOML key, SET PASSWORD in init_connect, a Go DSN, a *_PASS variable,
# --password with a space. A new campaign file carries one set, a tracked one a variation.
NEW_CAMPAIGN_SECRETS = """\
[servers.prod]
kind = "existing"
restart_command = "sh -c 'echo $(mysqladmin -pPlanted-a shutdown)'; curl -u ops:Planted-b ctl"
[variants.quoted]
options = { "report_password" = "Planted-c", 'wsrep-sst-auth' = "root:Planted-d" }
[variants.sql]
options = { init_connect = "SET PASSWORD FOR 'bench'@'%' = 'Planted-e'" }
# dsn = "bench:Planted-f@tcp(db:3306)/sbtest"
# DB_PASS=Planted-g mydumper --password Planted-h -B sbtest
"""
TRACKED_CAMPAIGN_SECRETS = """\
[variants.variation]
options.'report-password' = 'Planted-i'
description = "(mariadb-admin -p'Planted-j' ping) || curl --user 'ops:Planted-k' ctl"
# init_connect = "SET PASSWORD = PASSWORD('Planted-l')"; root:Planted-m@unix(/run/s)/db
# export REPL_PASSWD=Planted-n; gh-ost -password Planted-o -execute
"""


def test_every_spelling_is_redacted_in_the_campaign_file_and_diff(copy, tmp_path):
    new = copy / "campaigns" / "leaky.toml"
    new.write_text('name = "leaky"\n' + NEW_CAMPAIGN_SECRETS)
    tracked = copy / "campaigns" / "tiny.toml"
    with tracked.open("a") as handle:
        handle.write(TRACKED_CAMPAIGN_SECRETS)
    for campaign in (new, tracked):
        harness, diff = provenance.take_snapshot(campaign, "1.0.20")
        text = harness["snapshot"]["campaign_file"]["text"]
        assert "Planted" not in text and "Planted" not in diff
        assert text.count("<redacted>") == campaign.read_text().count("Planted")
    assert diff.count("<redacted>") == 15  # every planted value, in both files
    data = tmp_path / "results"
    provenance.store_diff(harness, diff, data)
    stored = data / harness["snapshot"]["diff"]["path"]
    assert b"Planted" not in stored.read_bytes()
    assert contract.credential_leaks(harness) == []


def test_dirty_tree_refused_only_for_the_projects_data(copy, tmp_path):
    _dirty(copy)
    harness, _ = provenance.take_snapshot(copy / "campaigns" / "tiny.toml", "1.0.20")
    provenance.refuse_dirty(harness, tmp_path / "elsewhere")
    with pytest.raises(UserError) as refused:
        provenance.refuse_dirty(harness, copy / "data")
    assert str(refused.value) == (
        f"{copy}: uncommitted changes in campaigns/new.toml, {CHANGED}; commit them before"
        f" writing into {copy / 'data'}, or pass --allow-dirty to record them as a stored diff"
    )


def test_a_moved_head_is_a_different_code(copy):
    campaign = copy / "campaigns" / "tiny.toml"
    before, _ = provenance.take_snapshot(campaign, "1.0.20")
    assert provenance.same_code(before, provenance.take_snapshot(campaign, "1.0.20")[0]) == []
    lua = copy / "harness/workloads/sysbench/lua/scan.lua"
    lua.write_text(lua.read_text() + "-- tuned\n")
    git(copy, "commit", "-qam", "tune scan.lua")
    after, _ = provenance.take_snapshot(campaign, "1.0.20")
    old, new = before["git_commit"], after["git_commit"]
    assert provenance.same_code(before, after) == [
        f"commit {old} is now {new}",
        "harness/workloads/sysbench/lua/scan.lua changed",
    ]


@pytest.mark.server
def test_dirty_tree_into_the_projects_data_is_refused_before_any_server(copy):
    _dirty(copy)
    result = run_in(copy, "run", "campaigns/tiny.toml")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"error: {copy}: uncommitted changes in campaigns/new.toml, {CHANGED}; commit them"
        f" before writing into {copy / 'data'}, or pass --allow-dirty to record them as a"
        " stored diff"
    )
    assert not (copy / "data" / "runs").exists() and not (copy / ".scratch").exists()


@pytest.mark.server
def test_allow_dirty_stores_the_diff_and_the_run_page_links_it(copy, tmp_path):
    _dirty(copy)
    result = run_in(copy, "run", "campaigns/tiny.toml", "--allow-dirty")
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(copy / "data")
    assert problems == [] and len(runs) == 2
    (harness,) = {repr(run["harness"]): run["harness"] for run in runs}.values()
    assert harness["git_dirty"] is True
    diff = harness["snapshot"]["diff"]
    stored = copy / "data" / diff["path"]
    assert "+# a local experiment" in stored.read_text()
    assert servers_under(copy) == []

    public = build_with_article(tmp_path / "site", "", [copy / "data"])
    served = public / diff["path"]
    assert served.read_bytes() == stored.read_bytes()
    page = (public / "runs" / runs[0]["id"] / "index.html").read_text()
    assert f'<a href="/{diff["path"]}">the diff</a>: campaigns/new.toml, {CHANGED}' in page
    assert "uncommitted changes to 2 files" in page
    assert "may not be the code that ran" not in page


@pytest.mark.server
def test_one_snapshot_while_the_tree_moves_and_resume_refuses_other_code(copy, tmp_path):
    head = git(copy, "rev-parse", "HEAD").strip()
    data, work = tmp_path / "data", tmp_path / "work"
    argv = [*MYBENCH, "run", "campaigns/tiny.toml", "--data", str(data), "--workdir", str(work)]
    process = subprocess.Popen(
        argv, cwd=copy, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    wait_for_line(process, "binlog / rw / 1 thr:")
    # While the campaign runs: a commit moves HEAD and an uncommitted change follows.
    lua = copy / "harness/workloads/sysbench/lua/scan.lua"
    lua.write_text(lua.read_text() + "-- tuned\n")
    git(copy, "commit", "-qam", "tune scan.lua")
    _dirty(copy)
    _, rest = process.communicate(timeout=300)
    assert process.returncode == 0, rest
    runs, problems = contract.validate_dir(data)
    assert problems == [] and len(runs) == 2
    first, second = sorted(runs, key=lambda run: run["started_at"])
    assert first["harness"] == second["harness"]
    assert first["harness"]["git_commit"] == head
    assert first["harness"]["snapshot"]["changed_files"] == []
    assert not (data / "provenance").exists()  # a clean tree stores no diff

    campaign_id = first["campaign"]["id"]
    resumed = run_in(
        copy, "run", "campaigns/tiny.toml", "--data", str(data), "--workdir", str(work),
        "--resume", campaign_id,
    )  # fmt: skip
    assert resumed.returncode == 2
    now = git(copy, "rev-parse", "HEAD").strip()
    assert resumed.stderr.startswith(
        f"error: --resume {campaign_id}: the code is not the code the campaign started with"
        f" (commit {head} is now {now}; the uncommitted changes differ;"
        " harness/workloads/sysbench/lua/scan.lua changed)"
    )
    assert len(contract.validate_dir(data)[0]) == 2
