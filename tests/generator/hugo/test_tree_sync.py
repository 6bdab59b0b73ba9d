"""How a build's files land in the build dir, as a watching `hugo server` sees them: each by one
rename from a staging folder it does not watch, a new run's folders whole. Hugo takes a burst of
more than 50 events for a mass edit and then rebuilds every page instead of what moved."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

from watchfiles import watch

from generator.hugo import site_contract as site
from generator.hugo.build import generate
from tests.generator.hugo.test_cache import CAMPAIGN, NEW_RUN
from tests.helpers.site_build import data_of

HUGO_MASS_EDIT = 50  # more events at once and hugo server rebuilds every page
SETTLE_S = 1.0  # watchfiles reports a burst once nothing moved for its debounce


def _events_of(build: Path, change) -> set[tuple[str, str]]:
    """(change, path relative to build) of every event the build dir's watched folders saw while
    change() ran."""
    folders = [build / sub for sub in site.OWNED_SUBDIRS]
    stop, seen = threading.Event(), set()
    ready = threading.Event()

    def collect() -> None:
        for changes in watch(*folders, stop_event=stop, step=50, yield_on_timeout=True):
            ready.set()
            seen.update((kind.name, str(Path(path).relative_to(build))) for kind, path in changes)

    watcher = threading.Thread(target=collect)
    watcher.start()
    ready.wait(timeout=10)  # the first timeout: the watches are in place
    change()
    time.sleep(SETTLE_S)
    stop.set()
    watcher.join()
    return seen


def test_a_new_run_lands_as_a_few_events_each_new_folder_as_one(tmp_path, fixture_runs):
    data = data_of(tmp_path, fixture_runs, lambda run: run["id"] != NEW_RUN)
    build = tmp_path / "build"
    generate([data], build)
    source = next(path for path, run in fixture_runs if run["id"] == NEW_RUN)

    def add_run() -> None:
        shutil.copy(source, data / "runs")
        generate([data], build)

    seen = _events_of(build, add_run)
    new_folders = {f"{site.FIGURES_DIR}/runs/{NEW_RUN}", f"{site.RUNS_STATIC}/{NEW_RUN}"}
    assert {("added", folder) for folder in new_folders} <= seen
    inside = [path for _, path in seen if any(path.startswith(f + "/") for f in new_folders)]
    assert inside == [], "a new run's folder must land whole, not file by file"
    assert not [path for _, path in seen if Path(path).name.startswith(".")]
    assert any(path.startswith(f"{site.FIGURES_DIR}/campaigns/{CAMPAIGN}/") for _, path in seen)
    assert len(seen) <= HUGO_MASS_EDIT
    assert not (build / site.STAGING_DIR).exists()
