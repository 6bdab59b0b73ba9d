"""The README's picture of an article page, regenerated from the committed data:

    make screenshot [ARTICLE=<slug>]    (.venv/bin/python tools/screenshot.py --article <slug>)

Builds the site from data/ and content/ into .scratch/screenshot/, serves it on localhost, opens
the article in headless Debian Chromium, waits until the charts in view have drawn and writes
docs/article.png (the top of the page: title, tl;dr, setup and the first chart).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

import generator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.helpers.headless import launch, served  # the tests' browser and server

VIEWPORT = {"width": 1200, "height": 2150}
CHART_TIMEOUT_MS = 30_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--article", default="mariadb-10-11-vs-11-4-dimitri-set")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "article.png")
    args = parser.parse_args()
    scratch = REPO / ".scratch" / "screenshot"
    public = scratch / "public"
    generator.build_site([REPO / "data"], scratch / "build", public, base_url="/")
    if not (public / "posts" / args.article / "index.html").is_file():
        raise SystemExit(f"--article {args.article}: no content/posts/{args.article}/index.md")
    with served(public) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport=VIEWPORT, color_scheme="light")
        page.goto(f"{base}/posts/{args.article}/", wait_until="load")
        in_view = page.locator("[data-plotly-src]").first
        in_view.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
        page.wait_for_timeout(500)  # Plotly's transitions end
        args.out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=args.out)
        browser.close()
    print(f"wrote {args.out.relative_to(REPO)} from /posts/{args.article}/")


if __name__ == "__main__":
    main()
