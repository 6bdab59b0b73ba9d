"""build_site: validate, generate Hugo inputs (without the articles the data cannot carry,
left_out.py), run Hugo, report."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from generator.hugo import site_contract as site
from generator.hugo.build_tree import derivations
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import code_version
from generator.hugo.command import SITE_DIR, content_dir, run_build, write_overlay
from generator.hugo.left_out import LeftOut, left_out, published_pages, require_none
from generator.hugo.load import ValidatedBefore, load_known_changes, plan_runs
from generator.hugo.tree_sync import sync_tree
from generator.typed_figures import refuse_typed_figures


@dataclass(frozen=True)
class BuildReport:
    pages: int
    runs: int
    campaigns: int
    seconds: float
    destination: Path
    # The articles that need runs the data dirs lack, not built (generator/hugo/left_out.py):
    # str() of each is its warning line.
    left_out: tuple[LeftOut, ...] = ()

    def __str__(self) -> str:
        return (
            f"built {_count(self.pages, 'page')} from {_count(self.runs, 'run')} in "
            f"{_count(self.campaigns, 'campaign')} in {self.seconds:.1f}s -> {self.destination}"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


class Generated(NamedTuple):
    runs: int
    campaigns: int
    overlay: Path  # the config Hugo reads after site/hugo.toml
    left_out: tuple[LeftOut, ...]  # articles the overlay leaves out of the content mount


def generate(
    data_dirs: list[Path],
    build_dir: Path,
    cache: Cache | None = None,
    *,
    content: Path | None = None,
    require_articles: bool = False,
) -> Generated:
    """Validate and write the Hugo inputs, validating and deriving only what the build dir's
    cache (generator/hugo/cache.py) lacks, and the overlay config, which leaves out the articles
    under content (default: site/hugo.toml's content/) that need runs the data lacks.
    cache: a caller's own Cache of build_dir, to see what was derived.
    require_articles: raise ArticlesLeftOut instead of leaving one out (before deriving)."""
    build_dir = Path(build_dir)
    cache = cache or Cache(build_dir / site.CACHE_DIR, code_version())
    validated = ValidatedBefore(cache)
    runs = plan_runs(data_dirs, validated)
    validated.store()
    content = content or content_dir()
    articles = left_out(content, runs, data_dirs)
    if require_articles:
        require_none(articles)
    refuse_typed_figures(published_pages(content, articles))
    known = load_known_changes(data_dirs, {run.campaign for run in runs})
    found = derivations(runs, cache.code, known)
    sync_tree(build_dir, found, cache)
    cache.prune()
    campaigns = sum(1 for derivation in found if derivation.kind == "campaign")
    overlay = write_overlay(data_dirs, build_dir, content, articles)
    return Generated(len(runs), campaigns, overlay, tuple(articles))


def build_site(
    data_dirs: list[Path],
    build_dir: Path,
    destination: Path | None = None,
    base_url: str | None = None,
    *,
    require_articles: bool = False,
    content: Path | None = None,
) -> BuildReport:
    """Publish the site for data_dirs; raises InvalidData, ArticlesLeftOut (with
    require_articles) or HugoError and then publishes nothing. An article that needs runs the
    data lacks is left out otherwise, and named in the report's left_out.
    content: the articles' and guide's folder, instead of site/hugo.toml's content/."""
    started = time.monotonic()
    generated = generate(data_dirs, build_dir, content=content, require_articles=require_articles)
    pages = run_build(generated.overlay, destination, base_url)
    return BuildReport(
        pages=pages,
        runs=generated.runs,
        campaigns=generated.campaigns,
        seconds=time.monotonic() - started,
        destination=Path(destination).resolve() if destination else SITE_DIR / "public",
        left_out=generated.left_out,
    )
