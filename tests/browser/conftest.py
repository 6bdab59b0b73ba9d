"""The committed site served on localhost, one headless Chromium per test module, and one URL
path per page kind of the committed site."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.helpers.headless import launch, served


@pytest.fixture(scope="module")
def site_url(built_site):
    _, public = built_site
    with served(public) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


def _smallest(public: Path, pattern: str, holding: str = "") -> str:
    """The URL path of the smallest built page matching pattern whose HTML holds the text
    holding: the page kind at the least cost to the suite's time."""
    pages = [page for page in public.glob(pattern) if holding in page.read_text()]
    assert pages, f"no built page {pattern} holding {holding!r}"
    page = min(pages, key=lambda page: (page.stat().st_size, page))
    return "/" + page.parent.relative_to(public).as_posix() + "/"


def _paginated(public: Path, section: str) -> str:
    """The URL path of a list's second page (the committed runs fill more than one)."""
    second = public / section / "page" / "2" / "index.html"
    assert second.is_file(), f"/{section}/ fits on one page: no pager to check"
    return f"/{section}/page/2/"


@pytest.fixture(scope="module")
def page_kinds(built_site, committed_runs) -> dict[str, str]:
    """One URL path per page kind of the committed site."""
    _, public = built_site
    # The buffer pool campaign differs beyond the noise, so its heatmap has coloured cells.
    campaign = next(
        run["campaign"]["id"]
        for _, run in committed_runs
        if run["campaign"]["id"].startswith("buffer-pool-fit-")
    )
    return {
        "home": "/",
        "article": _smallest(public, "posts/*/index.html", "data-plotly-src"),
        "section list": "/posts/",
        "guide": _smallest(public, "guide/*/index.html", "Keys of the schema"),
        "run": _smallest(public, "runs/*/index.html", "data-plotly-src"),
        "campaign": f"/campaigns/{campaign}/",
        "browse": "/browse/",
        # The second page of the run list: its pager marks the current page between two links.
        "paginated list": _paginated(public, "runs"),
        "browse page": "/browse/2/",
        "history": _smallest(public, "history/*/index.html", "data-plotly-src"),
        "history list": "/history/",
        "changes": "/changes/",
        "taxonomy": "/hosts/",
        "term": _smallest(public, "hosts/*/index.html"),
        "404": "/404.html",
        # Last: test_every_page_kind_passes_axe goes on with its heatmap and theme toggle.
        "compare": f"/compare/?campaign={campaign}",
    }
