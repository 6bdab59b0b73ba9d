"""Small site builds for tests: a data dir of chosen committed runs, and a build whose only
posts are the test's (a probe article of the shortcode under test, generated drafts)."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

from generator.hugo import site_contract as site
from generator.hugo.build import generate
from generator.hugo.command import overlay_mounts, run_build
from tests.helpers.paths import REPO

# Entries a paginated list (runs, campaigns, a term's runs) shows on one page.
PAGER_SIZE = tomllib.loads((REPO / "site" / "hugo.toml").read_text())["pagination"]["pagerSize"]


def seed_cache(build_dir: Path, cache: Path) -> None:
    """Give a new build_dir the generator's cache entries in cache (generator/hugo/cache.py), so
    that its build derives only what they lack. Hard links: an entry is replaced or deleted,
    never written in place, so the build cannot change cache's."""
    shutil.copytree(cache, build_dir / site.CACHE_DIR, copy_function=os.link)


def data_of(tmp_path: Path, run_files: list, keep: Callable[[dict], bool]) -> Path:
    """A data dir holding the committed runs that keep() accepts."""
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    for run_file in run_files:
        if keep(run_file.doc):
            shutil.copy(run_file.path, runs_dir)
    return runs_dir.parent


def one_run_data(tmp_path: Path, run_files: list) -> Path:
    """A data dir with one committed run: enough for a probe whose own shortcode must fail."""
    first = run_files[0].doc["id"]
    return data_of(tmp_path, run_files, lambda run: run["id"] == first)


def build_with_article(
    tmp_path: Path, body: str, data_dirs: list[Path], base_url: str = "/"
) -> Path:
    """Build data_dirs with one probe article as the only post (in a copy of content/, without
    the committed articles, which need all of data/) at base_url (one with a host builds the
    feeds too); returns public/. The probe is built whatever it names, never left out."""

    def probe(posts: Path) -> None:
        article = posts / "probe" / "index.md"
        article.parent.mkdir(parents=True)
        article.write_text(f"---\ntitle: Probe\ndate: 2026-01-01\n---\n{body}\n")

    return build_with_posts(tmp_path, probe, data_dirs, base_url)


def build_with_posts(
    tmp_path: Path,
    write_posts: Callable[[Path], None],
    data_dirs: list[Path],
    base_url: str = "/",
) -> Path:
    """Build data_dirs with a copy of content/ whose posts are only what write_posts(posts dir)
    writes there; returns public/. Every post is built: one that names a run data_dirs lack
    fails the build (this writes its own overlay, which leaves no article out)."""
    content = content_with_posts(tmp_path, write_posts)
    generate(data_dirs, tmp_path / "build")
    overlay = tmp_path / "overlay.json"
    overlay.write_text(
        json.dumps({"module": {"mounts": overlay_mounts(tmp_path / "build", content)}})
    )
    run_build(overlay, tmp_path / "public", base_url)
    return tmp_path / "public"


def content_with_posts(tmp_path: Path, write_posts: Callable[[Path], None]) -> Path:
    """tmp_path/content: a copy of content/ (the guide, the sections' pages) whose posts are
    only what write_posts(posts dir) writes there."""
    content = tmp_path / "content"
    shutil.rmtree(content, ignore_errors=True)  # a test may build several probes in turn
    shutil.copytree(REPO / "content", content)
    for post in (content / "posts").iterdir():
        if post.is_dir():
            shutil.rmtree(post)
    write_posts(content / "posts")
    return content
