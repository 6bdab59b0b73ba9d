"""The stored provenance diffs the site serves: copied as stored, refused when missing or
not the bytes the run names."""

from __future__ import annotations

import copy
import hashlib

import pytest

from generator.hugo.errors import BuildError
from generator.hugo.provenance_files import snapshot_diff, stored_diffs

DIFF = b"diff --git a/harness/cli.py b/harness/cli.py\n"
SHA = hashlib.sha256(DIFF).hexdigest()


def _run_with_diff(fixture_runs) -> dict:
    run = copy.deepcopy(fixture_runs[0].doc)
    run["harness"]["snapshot"] = {"diff": {"path": f"provenance/{SHA}.diff", "sha256": SHA}}
    return run


def test_a_clean_run_serves_nothing(fixture_runs, tmp_path):
    assert stored_diffs(snapshot_diff(fixture_runs[0].doc), tmp_path / "runs" / "x.json") == {}


def test_the_diff_is_served_at_its_stored_path(fixture_runs, tmp_path):
    (tmp_path / "provenance").mkdir()
    (tmp_path / "provenance" / f"{SHA}.diff").write_bytes(DIFF)
    served = stored_diffs(
        snapshot_diff(_run_with_diff(fixture_runs)), tmp_path / "runs" / "x.json"
    )
    assert served == {f"static/provenance/{SHA}.diff": DIFF}


def test_a_missing_or_altered_diff_stops_the_build(fixture_runs, tmp_path):
    run, run_file = _run_with_diff(fixture_runs), tmp_path / "runs" / "x.json"
    stored = tmp_path / "provenance" / f"{SHA}.diff"
    with pytest.raises(BuildError, match=f"{run_file}: harness.snapshot.diff: cannot read"):
        stored_diffs(snapshot_diff(run), run_file)
    stored.parent.mkdir()
    stored.write_bytes(DIFF + b"edited later\n")
    with pytest.raises(BuildError, match=f"{stored}: its SHA-256 is not the {SHA}"):
        stored_diffs(snapshot_diff(run), run_file)
