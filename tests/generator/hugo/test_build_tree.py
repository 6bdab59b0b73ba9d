"""The build dir and the Hugo config overlay the generator writes."""

from __future__ import annotations

import tomllib

from generator.hugo import site_contract as site
from generator.hugo.build_tree import derivations, hugo_inputs
from generator.hugo.cache import Cache
from generator.hugo.command import SITE_DIR, overlay_mounts
from generator.hugo.load import planned
from generator.hugo.tree_sync import sync_tree
from tests.helpers.paths import REPO


def _plan(run_files):
    return [planned(run_file.path) for run_file in run_files]


def test_overlay_for_the_defaults_equals_hugo_toml():
    # So plain `hugo build -s site` after a generator run builds the same site as build_site.
    config = tomllib.loads((SITE_DIR / "hugo.toml").read_text())
    expected = [
        {**mount, "source": str((SITE_DIR / mount["source"]).resolve())}
        for mount in config["module"]["mounts"]
    ]
    assert overlay_mounts(REPO / "build") == expected


def test_sync_tree_drops_the_files_of_a_removed_run(tmp_path, fixture_runs):
    runs = fixture_runs[:3]  # a few suffice, and keep the three generations short
    cache = Cache(tmp_path / site.CACHE_DIR, "code")
    sync_tree(tmp_path, derivations(_plan(runs), cache.code), cache)
    removed = runs[0].doc["id"]
    assert (tmp_path / "static" / "runs" / removed / "run.json").is_file()
    assert sync_tree(tmp_path, derivations(_plan(runs), cache.code), cache) == 0
    sync_tree(tmp_path, derivations(_plan(runs[1:]), cache.code), cache)
    assert not (tmp_path / "static" / "runs" / removed).exists()
    assert not (tmp_path / "assets" / "figures" / "runs" / removed).exists()


def test_the_synced_tree_holds_exactly_the_generated_files(tmp_path, fixture_runs):
    cache = Cache(tmp_path / site.CACHE_DIR, "code")
    sync_tree(tmp_path, derivations(_plan(fixture_runs), cache.code), cache)
    written = {
        path.relative_to(tmp_path).as_posix(): path.read_bytes()
        for sub in site.OWNED_SUBDIRS
        for path in (tmp_path / sub).rglob("*")
        if path.is_file()
    }
    assert written == hugo_inputs(fixture_runs)
