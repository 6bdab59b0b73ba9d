"""Debian's Chromium driven headless, and a built site served on a free localhost port: shared
by the browser tests, bench/chart_paint.py and tools/screenshot.py."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# How long a test waits for a chart to draw on this 2-core VM.
CHART_TIMEOUT_MS = 20_000
CHROMIUM = os.environ.get("MYBENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # Without these, Chromium keeps dialling Google services on a closed network.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def served(public: Path) -> Iterator[str]:
    """Serve the directory public on 127.0.0.1 and a free port; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(public))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def launch(playwright):
    """Headless Debian Chromium; never a browser a tool downloads for itself."""
    assert Path(CHROMIUM).is_file(), f"{CHROMIUM} missing: install Debian's chromium"
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def show_every_row(page, expected: int) -> None:
    """Click /browse/'s "Show more" until the list holds the expected number of rows. The list
    draws asynchronously (after a filter changes, after each click, once it has fetched the pages
    of its rows), so the check and the click happen together in the page, polled until the list
    is complete: a click from outside could race the script hiding the button, and a row count
    read just after a filter change could still be the old list's."""
    page.wait_for_function(
        """n => {
            const more = document.getElementById('browse-more');
            if (!more.hidden) more.click();
            const rows = document.querySelectorAll('#browse-results tbody tr').length;
            return more.hidden && rows === n;
        }""",
        arg=expected,
        polling=100,
    )


def draw_charts(page, kind: str) -> None:
    """Waits until every chart of the page has drawn (each is drawn when scrolled near)."""
    if kind == "compare":
        page.locator("#compare-heatmap-table").wait_for(timeout=CHART_TIMEOUT_MS)
    charts = page.locator("[data-plotly-src], #compare-throughput")
    for index in range(charts.count()):
        chart = charts.nth(index)
        chart.scroll_into_view_if_needed()
        chart.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
