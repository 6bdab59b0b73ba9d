"""What run and campaign pages say of server profiles (generator/pages/profiles.py): the
hottest functions, the notes on stacks that cannot be trusted far, a skipped profile's reason,
and a campaign cell's largest share moves, the variant's passes merged against the base's."""

from __future__ import annotations

import json

import contract
from generator.pages.profiles import (
    FEW_SAMPLES,
    SHALLOW_MEDIAN_DEPTH,
    UNRESOLVED_FRAMES_PCT,
    campaign_profiles,
    run_profiles,
    step_notes,
    top_functions,
)
from tests.helpers.profiled_runs import (
    BASE,
    BINLOG_FSYNC_FRAME,
    CAMPAIGN,
    COMMITTED,
    VARIANT,
    profiled,
    stacks_of,
)


def _runs(tmp_path, skipped: str | None = None) -> list[dict]:
    runs = []
    for path in sorted(COMMITTED.glob(f"{CAMPAIGN}.*.json")):
        run = json.loads(path.read_text())
        if run["id"] == skipped:
            run["profile"] = {"skipped": "perf is not installed on this host"}
        else:
            run = profiled(run, tmp_path)
        runs.append(run)
    return runs


def _profiles(tmp_path, runs) -> dict:
    loaded = {}
    for run in runs:
        profile, problems = contract.load_profile(tmp_path, run)
        assert not problems
        if profile:
            loaded[run["id"]] = profile
    return loaded


def test_the_hottest_functions_are_ranked_by_self_share_then_total():
    rows = top_functions(stacks_of(VARIANT, 1), limit=4)
    assert rows == [
        ["row_search_mvcc", "42.0", "42.0"],
        ["fdatasync", "40.0", "40.0"],
        ["pwrite64", "18.0", "18.0"],
        ["dispatch_command", "0.0", "100.0"],
    ]


def test_shallow_unnamed_and_trimmed_stacks_are_said_in_plain_words():
    enough = FEW_SAMPLES
    fine = {
        "samples": enough,
        "kept_samples": enough,
        "unresolved_frames_pct": 1,
        "median_depth": 12,
    }
    assert step_notes(fine) == []
    poor = {
        "samples": 12,
        "kept_samples": 10,
        "lost": 3,
        "unresolved_frames_pct": UNRESOLVED_FRAMES_PCT + 1,
        "median_depth": SHALLOW_MEDIAN_DEPTH - 1,
    }
    notes = " ".join(step_notes(poor))
    assert "Stacks are shallow (median 7 frames)" in notes
    assert "21 % of the frames have no symbol" in notes
    assert "(2 samples) are counted but not kept" in notes
    assert "perf reported 3 samples lost" in notes
    assert "Only 10 samples: a share here can be off by several points" in notes


def test_a_run_page_shows_each_step_or_why_there_is_no_profile(tmp_path):
    runs = _runs(tmp_path, skipped=f"{CAMPAIGN}.{BASE}.oltp-rw.p1")
    profiles = _profiles(tmp_path, runs)
    skipped, profiled_run = runs[0], runs[-1]
    # sync-1 at 1 thread: 100 samples, 2 threads: 200
    assert run_profiles(skipped, None) == {"skipped": "perf is not installed on this host"}
    page = run_profiles(profiled_run, profiles[profiled_run["id"]])
    assert page is not None
    assert page["symbols"].startswith("The Debian build exports only its dynamic symbols")
    assert [step["label"] for step in page["steps"]][:3] == ["1 thread", "2 threads", "4 threads"]
    assert page["steps"][2]["svg"] == f"runs/{profiled_run['id']}/flame-4.svg"
    assert [len(step["notes"]) for step in page["steps"][:2]] == [1, 0]
    older = {key: value for key, value in profiled_run.items() if key != "profile"}
    assert run_profiles(older, None) is None  # recorded before profiles: nothing shown


def test_a_campaign_cell_merges_its_passes_and_lists_the_function_that_grew_first(tmp_path):
    runs = _runs(tmp_path, skipped=f"{CAMPAIGN}.{BASE}.oltp-rw.p3")
    cells = campaign_profiles(CAMPAIGN, BASE, runs, _profiles(tmp_path, runs))
    assert [cell["threads"] for cell in cells] == [1, 2, 4, 8, 16, 32]
    cell = cells[2]
    assert cell["path"] == f"{CAMPAIGN}/profiles/oltp-rw/{VARIANT}/4"
    assert cell["svg"] == f"campaigns/{CAMPAIGN}/profiles/oltp-rw/{VARIANT}/4.svg"
    # three passes of sync-1, two of binlog-off (the third was not profiled), 400 samples each
    assert (cell["variant_samples"], cell["base_samples"]) == ("1,200", "800")
    assert cell["changes"][0] == [BINLOG_FSYNC_FRAME, "0.0", "40.0", "+40.0", "0.0", "0.0"]
    assert ["row_search_mvcc", "70.0", "42.0", "-28.0", "70.0", "42.0"] in cell["changes"]
    assert "mariadbd" not in {row[0] for row in cell["changes"]}  # on every sample of both


def test_a_cell_whose_base_was_not_profiled_has_no_differential(tmp_path):
    runs = _runs(tmp_path)
    base_unprofiled = [run for run in runs if run["variant"] != BASE] + [
        {**run, "profile": {"skipped": "no perf"}} for run in runs if run["variant"] == BASE
    ]
    profiles = {
        run_id: profile
        for run_id, profile in _profiles(tmp_path, runs).items()
        if f".{BASE}." not in run_id
    }
    assert campaign_profiles(CAMPAIGN, BASE, base_unprofiled, profiles) == []
