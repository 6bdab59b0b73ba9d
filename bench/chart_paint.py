"""Chart paint benchmark: how soon a reader sees charts, in headless Debian Chromium.

    .venv/bin/python bench/chart_paint.py [--repeat 5] [--charts 20]

Builds the committed data (HEAD's data/runs) plus one extra article of --charts run charts (in a copy of content/),
serves the site from localhost and, in a fresh browser context per visit (cold cache), records:
- first chart: from navigation start until the shipped article's first chart has drawn, in a
  reader-sized viewport, opened at that chart's permalink (charts draw lazily, so one further
  down waits for the reader's scroll; plotly.js is fetched by that first chart);
- all charts: until every chart of the extra article has drawn, in a viewport tall enough to
  show them all at once (the lazy loader then draws every one).
Medians of --repeat visits are printed; nothing is asserted. Figures describe this machine.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from committed_data import committed_data
from playwright.sync_api import sync_playwright

import generator
from generator.hugo.command import overlay_mounts, run_build
from generator.hugo.load import load_runs

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.helpers.headless import launch, served  # the tests' browser and server

READER_VIEWPORT = {"width": 1100, "height": 900}
CHART_HEIGHT_PX = 700  # a chart, its caption and its folded table, to size the tall viewport
# Records, per chart, when Plotly first put its SVG in the page (ms since navigation start).
DRAWN_AT = """
window.__drawn = [];
new MutationObserver(() => {
  const done = document.querySelectorAll('[data-plotly-src] .main-svg').length;
  while (window.__drawn.length < done) window.__drawn.push(performance.now());
}).observe(document, { childList: true, subtree: true });
"""


def build(root: Path, charts: int) -> tuple[Path, str]:
    """The site with an extra article of `charts` run charts: (public dir, its URL path)."""
    data = committed_data(root / "committed")
    run_ids = [run["id"] for _, run in load_runs([data]) if run["steps"]][:charts]
    content = root / "content"
    shutil.copytree(REPO / "content", content)
    article = content / "posts" / "many-charts" / "index.md"
    article.parent.mkdir(parents=True)
    body = "\n\n".join(f'{{{{< chart run="{run_id}" fig="tps" >}}}}' for run_id in run_ids)
    article.write_text(f"---\ntitle: {len(run_ids)} charts\ndate: 2026-01-01\n---\n{body}\n")
    generator.build_site([data], root / "build", root / "unused")
    mounts = [
        {**mount, "source": str(content)} if mount["target"] == "content" else mount
        for mount in overlay_mounts([data], root / "build")
    ]
    overlay = root / "overlay.json"
    overlay.write_text(json.dumps({"module": {"mounts": mounts}}))
    run_build(overlay, root / "public", "/")
    return root / "public", "/posts/many-charts/"


def drawn_times(browser, url: str, viewport: dict, wanted: int) -> list[float]:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.add_init_script(DRAWN_AT)
    page.goto(url)
    page.wait_for_function(f"window.__drawn.length >= {wanted}", timeout=60_000)
    times = page.evaluate("window.__drawn")
    context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--charts", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        public, many = build(Path(scratch), args.charts)
        articles = sorted(
            p for p in public.glob("posts/*/index.html") if "many-charts" not in str(p)
        )
        first_figure = re.search(r'<figure class="chart" id="([^"]+)"', articles[0].read_text())
        article = "/" + articles[0].parent.relative_to(public).as_posix() + "/#" + first_figure[1]
        tall = {"width": 1100, "height": CHART_HEIGHT_PX * args.charts}
        first, every = [], []
        with served(public) as base, sync_playwright() as playwright:
            browser = launch(playwright)
            for _ in range(args.repeat):
                first.append(drawn_times(browser, base + article, READER_VIEWPORT, 1)[0])
                every.append(drawn_times(browser, base + many, tall, args.charts)[-1])
            browser.close()
        print(f"first chart drawn on {article}: median {statistics.median(first):.0f} ms "
              f"(all {', '.join(f'{t:.0f}' for t in first)})")  # fmt: skip
        print(f"all {args.charts} charts drawn on one page: median {statistics.median(every):.0f} ms "
              f"(all {', '.join(f'{t:.0f}' for t in every)})")  # fmt: skip


if __name__ == "__main__":
    main()
