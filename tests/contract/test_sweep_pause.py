"""The pause between thread levels a run's campaign file set, read from its provenance snapshot
(contract/sweep_pause.py) for runs recorded before the harness wrote the pause as a command."""

from __future__ import annotations

import pytest

from contract.sweep_pause import pause_command, snapshot_pause


def _run(campaign_file: str | None, suite: bool = False) -> dict:
    harness: dict = {"version": "0.1.0", "git_commit": None}
    if campaign_file is not None:
        harness["snapshot"] = {
            "campaign_file": {"path": "c.toml", "sha256": "", "text": campaign_file}
        }
    workload = {"name": "w", **({"suite": {"name": "dimitri"}} if suite else {})}
    return {"harness": harness, "workload": workload}


@pytest.mark.parametrize(
    ("campaign_file", "suite", "pause"),
    [
        ("[sweep]\nthreads = [1, 4]\nsleep_seconds = 2\n", False, 2.0),
        ("[sweep]\nsleep_seconds = 0.5\n", True, 0.5),
        ("[sweep]\nthreads = [1, 4]\n", False, 0.0),  # the schema's default
        ("[sweep]\nthreads = [1, 4]\n", True, None),  # the preset's, held by the harness
        ("[sweep]\nsleep_seconds = true\n", False, None),
        ("[sweep\n", False, None),
        (None, False, None),  # recorded before the snapshot
    ],
)
def test_the_campaign_files_pause(campaign_file, suite, pause):
    assert snapshot_pause(_run(campaign_file, suite)) == pause


def test_the_pause_as_a_command():
    assert (pause_command(2.0), pause_command(0.5)) == ("sleep 2", "sleep 0.5")
