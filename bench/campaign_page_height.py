"""Campaign page length: how tall each campaign page is and how much HTML it sends.

    .venv/bin/python bench/campaign_page_height.py [--public DIR]

Builds the committed data (HEAD's data/runs) unless --public names a site already built, then
opens every campaign page in headless Debian Chromium at 1280x900 as a reader first sees it
(collapsible sections as the page leaves them: the first workload open, the others closed) and
prints the page's scroll height in px and its index.html size in bytes. Nothing is asserted;
the heights depend on this machine's fonts.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from committed_data import committed_data
from playwright.sync_api import sync_playwright

import generator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.helpers.headless import launch, served  # the tests' browser and server

VIEWPORT = {"width": 1280, "height": 900}


def measure(public: Path) -> None:
    pages = sorted(public.glob("campaigns/*/index.html"))
    with served(public) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        print(f"{'campaign page':60} {'height px':>10} {'HTML bytes':>11}")
        for html in pages:
            path = "/" + html.parent.relative_to(public).as_posix() + "/"
            page.goto(base + path, wait_until="load")
            height = page.evaluate("document.documentElement.scrollHeight")
            print(f"{html.parent.name:60} {height:>10} {html.stat().st_size:>11}")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--public", type=Path, help="a built site (default: build HEAD's data)")
    args = parser.parse_args()
    if args.public:
        measure(args.public)
        return
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        data = committed_data(root / "committed")
        generator.build_site([data], root / "build", root / "public")
        measure(root / "public")


if __name__ == "__main__":
    main()
