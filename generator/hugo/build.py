"""build_site: validate, generate Hugo inputs, run Hugo, report."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from generator.hugo import site_contract as site
from generator.hugo.build_tree import derivations
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import code_version
from generator.hugo.command import SITE_DIR, run_build, write_overlay
from generator.hugo.known_runs import KnownRuns
from generator.hugo.load import ValidatedBefore, load_runs
from generator.hugo.tree_sync import sync_tree


@dataclass(frozen=True)
class BuildReport:
    pages: int
    runs: int
    campaigns: int
    seconds: float
    destination: Path

    def __str__(self) -> str:
        return (
            f"built {_count(self.pages, 'page')} from {_count(self.runs, 'run')} in "
            f"{_count(self.campaigns, 'campaign')} in {self.seconds:.1f}s -> {self.destination}"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def generate(
    data_dirs: list[Path],
    build_dir: Path,
    cache: Cache | None = None,
    known: KnownRuns | None = None,
) -> tuple[int, int, Path]:
    """Validate and write the Hugo inputs, validating and deriving only what the build dir's
    cache (generator/hugo/cache.py) lacks; returns (runs, campaigns, overlay config path).
    cache: a caller's own Cache of build_dir, to see what was derived; known: the documents a
    long-lived caller (serve) kept from its previous build, so only changed files are read."""
    build_dir = Path(build_dir)
    cache = cache or Cache(build_dir / site.CACHE_DIR, code_version())
    validated = ValidatedBefore(cache)
    run_files = known.load(data_dirs, validated) if known else load_runs(data_dirs, validated)
    validated.store()
    found = derivations(run_files, cache.code)
    sync_tree(build_dir, found, cache)
    cache.prune()
    campaigns = sum(1 for derivation in found if derivation.kind == "campaign")
    return len(run_files), campaigns, write_overlay(data_dirs, build_dir)


def build_site(
    data_dirs: list[Path],
    build_dir: Path,
    destination: Path | None = None,
    base_url: str | None = None,
) -> BuildReport:
    """Publish the site for data_dirs; raises InvalidData or HugoError and then publishes nothing."""
    started = time.monotonic()
    runs, campaigns, overlay = generate(data_dirs, build_dir)
    pages = run_build(overlay, destination, base_url)
    return BuildReport(
        pages=pages,
        runs=runs,
        campaigns=campaigns,
        seconds=time.monotonic() - started,
        destination=Path(destination).resolve() if destination else SITE_DIR / "public",
    )
