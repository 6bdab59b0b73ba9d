"""The browser's number format (site/assets/js/format.js, which the compare view and the
browse list print with) against the generator's (generator/pages/numbers.py, which every table
the generator writes and layouts/_partials/helpers/num.html follow): the same text for every
value, rounding ties and the em dash included, run in Debian's Chromium."""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import sync_playwright

from generator.pages.numbers import format_number
from tests.helpers.headless import launch, served
from tests.helpers.paths import REPO

pytestmark = pytest.mark.browser

# Every magnitude rule, ties at each number of decimals (480.5, 3.885, 1.005, 0.0345, 99.95),
# whole numbers, negatives, the smallest figure, and an absent value.
VALUES = [
    None, 0, 1, 7, 99, 100, 999.5, 1234567, 2089594, 480.5, 480.49, 45.3, 45.25, 10,
    9.995, 3.885, 3.14159, 1.005, 1.5, 0.5, 0.995, 0.0345, 0.034, 0.001234, 0.000001,
    99.95, 12.05, -2.5, -0.0345, -1234.5, 1e12,
]  # fmt: skip
PAGE = """<!doctype html><title>format</title>
<script type="module">
import { formatNumber } from './format.js';
window.formatNumber = formatNumber;
</script>"""


def test_the_browser_formats_every_number_as_the_generator_does(tmp_path):
    shutil.copy(REPO / "site" / "assets" / "js" / "format.js", tmp_path / "format.js")
    (tmp_path / "index.html").write_text(PAGE)
    with sync_playwright() as playwright, served(tmp_path) as url:
        browser = launch(playwright)
        page = browser.new_page()
        page.goto(f"{url}/index.html")
        page.wait_for_function("typeof window.formatNumber === 'function'")
        shown = page.evaluate("values => values.map((v) => window.formatNumber(v))", VALUES)
        browser.close()
    assert dict(zip(map(str, VALUES), shown, strict=True)) == {
        str(value): format_number(value) for value in VALUES
    }
