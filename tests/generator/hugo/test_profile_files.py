"""A run's profile file is checked with its run when the site is built (generator/hugo/load.py):
missing, altered or malformed, it refuses the build with a problem naming the file and the
field, on the first build and on a cached one alike; a profile file changed after a build that
remembered its run is checked again."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

import contract
from generator.hugo import site_contract as site
from generator.hugo.build import generate
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import code_version
from generator.hugo.errors import InvalidData
from generator.hugo.load import plan_runs
from tests.helpers.profiled_runs import CAMPAIGN, VARIANT, profiled_data, run_path

RUN = f"{CAMPAIGN}.{VARIANT}.oltp-rw.p1"


@pytest.fixture(scope="module")
def good_data(tmp_path_factory):
    return profiled_data(tmp_path_factory.mktemp("profiled") / "data")


@pytest.fixture
def data(tmp_path, good_data):
    return shutil.copytree(good_data, tmp_path / "data")


def _profile_file(data):
    return data / "profiles" / f"{RUN}.json"


def _refusal(data) -> str:
    with pytest.raises(InvalidData) as raised:
        plan_runs([data])
    return str(raised.value)


def test_the_profiled_runs_plan(data):
    planned = {run.id: run.outline["profile"] for run in plan_runs([data])}
    assert planned[RUN] == f"profiles/{RUN}.json"


def test_a_missing_profile_file_is_named(data):
    _profile_file(data).unlink()
    assert f"{_profile_file(data)}: $: cannot read the run's profile" in _refusal(data)


def test_a_profile_file_that_is_not_the_one_recorded_is_refused(data):
    path = _profile_file(data)
    path.write_text(path.read_text().replace('"frequency_hz":99', '"frequency_hz":98'))
    assert f"{path}: $: SHA-256 differs from the one run {RUN} recorded" in _refusal(data)


def test_a_profile_file_failing_its_schema_names_the_field(data):
    """Rewritten with a hash the run agrees with: only the schema is left to refuse it."""
    path = _profile_file(data)
    profile = json.loads(path.read_text())
    profile["steps"]["4"]["stacks"][0][1] = 0  # samples are at least 1
    path.write_text(json.dumps(profile))
    run = json.loads(run_path(data, RUN).read_text())
    run["profile"]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    run_path(data, RUN).write_text(json.dumps(run))
    assert f"{path}: $.steps.4.stacks[0][1]:" in _refusal(data)


def test_a_profile_file_altered_after_a_cached_build_is_checked_again(tmp_path, data):
    generate([data], tmp_path / "build")
    path = _profile_file(data)
    path.write_text(path.read_text().replace("fdatasync", "fsync"))
    with pytest.raises(InvalidData) as raised:
        generate([data], tmp_path / "build")
    assert f"{path}: $: SHA-256 differs" in str(raised.value)


def test_flame_graphs_are_cached_with_their_run_and_redrawn_when_it_changes(tmp_path, data):
    """A rebuild of unchanged runs draws nothing; a run whose profile (and so its recorded
    hash) changed has its own and its campaign's graphs drawn again, no other run's."""
    build = tmp_path / "build"
    generate([data], build)
    again = Cache(build / site.CACHE_DIR, code_version())
    generate([data], build, again)
    # (a profile file written within the memo's racy window is validated again, not redrawn)
    assert [entry for entry in again.derived if not entry.startswith("valid/")] == []
    svg = build / site.static_file(site.flame_graph_url(RUN, "4"))
    assert b"fdatasync" in svg.read_bytes()
    run = json.loads(run_path(data, RUN).read_text())
    profile = json.loads(_profile_file(data).read_text())
    profile["frames"] = [name.replace("fdatasync", "fsync") for name in profile["frames"]]
    _profile_file(data).unlink()
    _, digest = contract.write_profile(profile, data)
    run["profile"]["sha256"] = digest
    run_path(data, RUN).write_text(json.dumps(run))
    changed = Cache(build / site.CACHE_DIR, code_version())
    generate([data], build, changed)
    redrawn = {entry for entry in changed.derived if not entry.startswith("valid/")}
    assert f"run/{RUN}" in redrawn and f"campaign/{CAMPAIGN}" in redrawn
    assert not {entry for entry in redrawn if entry.startswith("run/")} - {
        f"run/{other}" for other in _cell_mates(data)
    }
    assert b"fsync" in svg.read_bytes() and b"fdatasync" not in svg.read_bytes()


def _cell_mates(data) -> set[str]:
    """The runs whose files show RUN's cell (its passes): they are derived again with it."""
    return {path.stem for path in (data / "runs").glob(f"{CAMPAIGN}.{VARIANT}.*.json")}
