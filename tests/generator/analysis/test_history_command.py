"""`mybench history` on results made of a real fixture run (tests/helpers/history_runs.py): every
recurring campaign or the one named, the change points newest first with the known ones after
theirs, --new keeping those of the runs just added, and a known-changes file that names no
campaign refused with its file and field."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

import contract
from cli.main import main
from tests.helpers.history_runs import recurring, template_run, write_data

DROP = [1.0] * 3 + [0.6] * 3


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    template = template_run()
    template["steps"] = template["steps"][:1]
    runs = recurring(template, DROP) + recurring(template, [1.0] * 2, first_day=10, name="flat")
    return write_data(runs, tmp_path_factory.mktemp("history") / "data"), runs


def _history(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["history", *args])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_every_recurring_campaign_and_its_changes_newest_first(results):
    data, runs = results
    lines = _history("--data", str(data))
    fourth = runs[3]["campaign"]["id"]
    assert lines[0] == "flat: 2 series from 2 runs of 2 campaigns on 1 host"
    assert lines[1] == "no change point"
    assert lines[2] == "recurring: 2 series from 6 runs of 6 campaigns on 1 host"
    assert lines[3] == "2 change points, newest first:"
    assert all(line.endswith(f"first campaign after: {fourth}") for line in lines[4:6])
    assert len(lines) == 6


def test_a_known_change_is_listed_after_the_unexplained_with_its_reason(results, tmp_path):
    data, runs = results
    copy = shutil.copytree(data, tmp_path / "data")
    fourth = runs[3]["campaign"]["id"]
    (copy / contract.KNOWN_CHANGES_FILE).write_text(
        f'[[known]]\ncampaign = "recurring"\nsince = "{fourth}"\nmetric = "tps"\n'
        'reason = "sync_binlog = 1"\n'
    )
    lines = _history("recurring", "--data", str(copy))
    assert lines[1] == "1 change point, newest first:" and " · p95 on " in lines[2]
    assert lines[3] == "1 known change, newest first:"
    assert " · tps on " in lines[4] and lines[4].endswith("; known: sync_binlog = 1")


def test_new_keeps_the_changes_the_runs_just_added_introduce(results, tmp_path):
    data, runs = results
    added = write_data(runs[3:4], tmp_path / "artifacts" / "runs-bench-1")
    lines = _history("--data", str(data), "--new", str(tmp_path / "artifacts"))
    assert lines[0].startswith("recurring: ") and lines[1] == "2 change points, newest first:"
    later = write_data(runs[4:5], tmp_path / "later")
    assert _history("--data", str(data), "--new", str(later))[1:] == ["no change point"]
    assert added.is_dir()


def test_a_known_change_naming_no_campaign_is_refused_with_its_field(results, tmp_path):
    data, _ = results
    copy = shutil.copytree(data, tmp_path / "data")
    (copy / contract.KNOWN_CHANGES_FILE).write_text(
        '[[known]]\ncampaign = "recurring"\nsince = "recurring-2099"\nreason = "typo"\n'
    )
    result = CliRunner().invoke(main, ["history", "--data", str(copy)])
    assert result.exit_code == 2
    assert f"{copy / contract.KNOWN_CHANGES_FILE}: $.known[0].since: no campaign" in result.output
