"""Chart paint benchmark: how soon a reader sees charts, in headless Debian Chromium.

    .venv/bin/python bench/chart_paint.py [--repeat 5] [--charts 20]

Builds the committed data (HEAD's data/runs) plus one extra article of --charts run charts (in a copy of content/),
serves the site from localhost and, in a fresh browser context per visit (cold cache), at
1280x900, records:
- per committed article, opened at its first chart's permalink (charts sit 1,500 px and more
  down the page, below the first screen): when that chart is *visible*, its static drawing
  loaded and a frame painted after it (_partials/chart.html), and when it is *interactive*, Plotly's SVG drawn in its
  box (plotly.js is fetched by that first chart); also where the chart sits on the page;
- the compare page with one campaign selected: when its first chart is drawn (it has no
  static drawing: the page draws the selection in JavaScript);
- all charts: until every chart of the extra article has drawn, in a viewport tall enough to
  show them all at once (the lazy loader then draws every one).
Medians of --repeat visits are printed, in ms since navigation start; nothing is asserted.
Figures describe this machine and whatever else runs on it.
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

READER_VIEWPORT = {"width": 1280, "height": 900}
CHART_HEIGHT_PX = 700  # a chart, its caption and its folded table, to size the tall viewport
# Records, per chart, when Plotly first put its SVG in the page, and when the first static
# drawing had loaded and the frame after it was painted (ms since navigation start).
DRAWN_AT = """
window.__drawn = [];
window.__visible = null;
new MutationObserver(() => {
  const done = document.querySelectorAll('[data-plotly-src] .main-svg, #compare-throughput .main-svg').length;
  while (window.__drawn.length < done) window.__drawn.push(performance.now());
}).observe(document, { childList: true, subtree: true });
document.addEventListener('load', (event) => {
  if (window.__visible !== null || !event.target.matches?.('img.chart-static')) return;
  requestAnimationFrame(() => setTimeout(() => { window.__visible ??= performance.now(); }));
}, true);
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
        for mount in overlay_mounts(root / "build")
    ]
    overlay = root / "overlay.json"
    overlay.write_text(json.dumps({"module": {"mounts": mounts}}))
    run_build(overlay, root / "public", "/")
    return root / "public", "/posts/many-charts/"


def paint_times(
    browser, url: str, viewport: dict, wanted: int
) -> tuple[float | None, list[float]]:
    """(when the first static drawing was visible, when each chart was drawn) of one cold visit."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.add_init_script(DRAWN_AT)
    page.goto(url)
    page.wait_for_function(f"window.__drawn.length >= {wanted}", timeout=60_000)
    visible, drawn = page.evaluate("[window.__visible, window.__drawn]")
    context.close()
    return visible, drawn


def first_chart(public: Path, page: Path) -> str:
    """An article's URL opened at its first chart's permalink."""
    anchor = re.search(r'<figure class="chart" id="([^"]+)"', page.read_text())
    return "/" + page.parent.relative_to(public).as_posix() + "/#" + anchor[1]


def chart_top(browser, url: str) -> float:
    """How far down the page (px) the first chart's box starts, at the reader's viewport."""
    page = browser.new_page(viewport=READER_VIEWPORT)
    page.goto(url.split("#")[0])
    top = page.locator("[data-plotly-src]").first.evaluate(
        "el => el.getBoundingClientRect().top + window.scrollY"
    )
    page.close()
    return top


def median_line(name: str, times: list[float]) -> str:
    return f"{name} median {statistics.median(times):.0f} ({', '.join(f'{t:.0f}' for t in times)})"


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
        campaign = json.loads(next((public / "runs").glob("*/run.json")).read_text())["campaign"]
        compare = f"/compare/?campaign={campaign['id']}"
        tall = {"width": READER_VIEWPORT["width"], "height": CHART_HEIGHT_PX * args.charts}
        with served(public) as base, sync_playwright() as playwright:
            browser = launch(playwright)
            for article in articles:
                url = first_chart(public, article)
                visits = [
                    paint_times(browser, base + url, READER_VIEWPORT, 1)
                    for _ in range(args.repeat)
                ]
                print(f"{url} (first chart {chart_top(browser, base + url):.0f} px down):")
                print("  " + median_line("visible", [v for v, _ in visits if v is not None]))
                print("  " + median_line("interactive", [d[0] for _, d in visits]))
            drawn = [
                paint_times(browser, base + compare, READER_VIEWPORT, 1)[1][0]
                for _ in range(args.repeat)
            ]
            print(f"{compare}:\n  " + median_line("first chart drawn", drawn))
            every = [
                paint_times(browser, base + many, tall, args.charts)[1][-1]
                for _ in range(args.repeat)
            ]
            print(f"{many}:\n  " + median_line(f"all {args.charts} charts drawn", every))
            browser.close()


if __name__ == "__main__":
    main()
