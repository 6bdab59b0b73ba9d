"""Reading the site in headless Debian Chromium: the /browse/ filters, dark mode reaching the
charts, figure downloads checked against the run document, keyboard reach and the no-JS drawing.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from urllib.parse import urlparse

import pytest

from generator.pages.browse import browse_index
from generator.pages.browse_split import file_of
from tests.helpers.headless import CHART_TIMEOUT_MS, show_every_row

pytestmark = pytest.mark.browser
# The Chromium and the localhost server of the site smoke test, one of each for this module.

LIGHT_FG, DARK_FG = "rgb(26, 26, 26)", "rgb(221, 221, 221)"  # --fg in site.css
# Tab presses allowed to reach the theme toggle: the skip link, title, the nav links, the toggle.
TABS_TO_TOGGLE = 10


@pytest.fixture(scope="module")
def index(committed_runs) -> dict:
    return browse_index([doc for _, doc in committed_runs])


def _assert_listed(page, expected: list[str]) -> None:
    """The list shows exactly the expected run ids, in order, from their links, once "Show more"
    has drawn as many rows."""
    show_every_row(page, len(expected))
    listed = page.eval_on_selector_all(
        "#browse-results tbody a[href^='/runs/']",
        "links => links.map(a => a.getAttribute('href').split('/')[2])",
    )
    assert listed == expected


def _filtered_view(page) -> None:
    """Waits for js/browse.js: the page arrives listing every run, with the filters hidden until
    the script has the index and has drawn the list the URL asks for."""
    page.locator("#browse-filters").wait_for()


def _watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_filters_change_the_list_and_live_in_the_url(site_url, browser, index):
    page = browser.new_page()
    errors = _watch_errors(page)
    page.goto(site_url + "/browse/")
    _filtered_view(page)
    _assert_listed(page, [run["id"] for run in index["runs"]])

    page.select_option("select[name=workload]", "point-select")
    expected = [r["id"] for r in index["runs"] if r["workload"] == "point-select"]
    assert 0 < len(expected) < len(index["runs"])
    _assert_listed(page, expected)
    assert page.text_content("#browse-count").startswith(f"{len(expected)} of ")

    page.select_option("select[name=option]", "sync_binlog=1")
    both = [r for r in index["runs"] if r["workload"] == "point-select"]
    expected = [r["id"] for r in both if "sync_binlog=1" in r["options"]]
    assert expected
    _assert_listed(page, expected)
    assert "workload=point-select" in page.url and "option=sync_binlog%3D1" in page.url

    # The URL alone restores the view.
    linked = browser.new_page()
    linked.goto(page.url)
    _filtered_view(linked)
    _assert_listed(linked, expected)
    assert linked.input_value("select[name=workload]") == "point-select"
    linked.close()

    page.click("button[type=reset]")
    every = len(index["runs"])
    page.wait_for_function(
        f"document.getElementById('browse-count').textContent.startsWith('{every} of {every} ')"
    )
    _assert_listed(page, [run["id"] for run in index["runs"]])
    assert "?" not in page.url
    assert not errors
    page.close()


def test_a_filtered_view_fetches_the_filter_index_and_the_pages_of_its_rows(
    site_url, browser, index
):
    """A campaign whose runs are all past the first page: its rows come from the pages that
    hold them, and the first page is not fetched."""
    position = {record["id"]: at for at, record in enumerate(index["runs"])}
    pages = {}
    for record in index["runs"]:
        number, _ = file_of(len(index["runs"]), position[record["id"]])
        pages.setdefault(record["campaign"], set()).add(number)
    newest = file_of(len(index["runs"]), 0)[0]
    campaign = next(one for one, held in pages.items() if newest not in held)
    page = browser.new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(urlparse(request.url).path))
    page.goto(f"{site_url}/browse/?campaign={campaign}")
    _filtered_view(page)
    _assert_listed(page, [r["id"] for r in index["runs"] if r["campaign"] == campaign])
    json_files = sorted(p for p in fetched if p.startswith("/browse/") and p.endswith(".json"))
    assert [path.split(".")[0] for path in json_files] == [
        "/browse/filters",
        *(f"/browse/pages/{n}" for n in sorted(pages[campaign])),
    ]
    page.close()


def test_the_host_filter_names_each_machine_and_matches_its_fingerprint(site_url, browser, index):
    """The committed runs come from two VMs both called "vm": two hosts, not one."""
    page = browser.new_page()
    page.goto(site_url + "/browse/")
    _filtered_view(page)
    offered = page.eval_on_selector_all(
        "select[name=host] option[value]:not([value=''])",
        "options => options.map(o => [o.value, o.textContent])",
    )
    counts = Counter(run["host"] for run in index["runs"])
    names = index["hosts"]
    assert len(counts) >= 2
    assert offered == [
        [host, f"{names[host]} ({counts[host]})"] for host in sorted(counts, key=names.get)
    ]
    chosen = offered[-1][0]
    page.select_option("select[name=host]", chosen)
    _assert_listed(page, [run["id"] for run in index["runs"] if run["host"] == chosen])
    shown = page.eval_on_selector_all(
        "#browse-results tbody tr td:nth-child(4)", "cells => cells.map(c => c.textContent)"
    )
    assert set(shown) == {names[chosen]}
    page.close()


def _first_chart(page, path: str):
    page.goto(path)
    chart = page.locator("[data-plotly-src]").first
    chart.scroll_into_view_if_needed()
    chart.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
    return chart


def _chart_fg(chart) -> str:
    return chart.evaluate("el => el._fullLayout.font.color")


def test_dark_mode_follows_the_system_and_the_toggle(site_url, browser, committed_runs):
    run_id = committed_runs[0].doc["id"]
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    errors = _watch_errors(page)
    chart = _first_chart(page, f"{site_url}/runs/{run_id}/")
    assert _chart_fg(chart) == LIGHT_FG

    page.emulate_media(color_scheme="dark")
    page.wait_for_function(
        f"document.querySelector('.js-plotly-plot')._fullLayout.font.color === '{DARK_FG}'"
    )
    assert page.evaluate("getComputedStyle(document.body).color") == DARK_FG

    toggle = page.locator("#theme-toggle")
    assert toggle.is_visible() and toggle.text_content() == "Theme: system"
    toggle.click()  # system -> dark: no change on a dark system
    toggle.click()  # dark -> light
    assert toggle.text_content() == "Theme: light"
    assert _chart_fg(chart) == LIGHT_FG
    assert page.evaluate("getComputedStyle(document.body).color") == LIGHT_FG

    # The choice outlives the page.
    chart = _first_chart(page, f"{site_url}/runs/{run_id}/")
    assert _chart_fg(chart) == LIGHT_FG and toggle.text_content() == "Theme: light"
    assert not errors
    context.close()


def _fetch(page, href: str) -> str:
    return page.evaluate(
        """async (href) => {
            const response = await fetch(href);
            if (!response.ok) throw new Error(`${href}: ${response.status}`);
            return response.text();
        }""",
        href,
    )


def test_download_links_return_the_run_s_numbers(site_url, browser, committed_runs):
    run = next(d for _, d in committed_runs if len(d["steps"]) > 1 and "tps" in d["steps"][0])
    page = browser.new_page()
    page.goto(f"{site_url}/runs/{run['id']}/")
    figure = page.locator(f"figure#fig-runs-{run['id'].replace('.', '-')}-tps")
    csv_href = figure.locator("a", has_text="CSV").get_attribute("href")
    json_href = figure.locator("a", has_text="JSON").first.get_attribute("href")
    rows = list(csv.DictReader(io.StringIO(_fetch(page, csv_href))))
    assert [(int(r["threads"]), float(r["transactions per second"])) for r in rows] == [
        (step["threads"], step["tps"]) for step in run["steps"]
    ]
    data = json.loads(_fetch(page, json_href))["tps"]  # every chart of the run, by name
    assert data["traces"][0]["y"] == [step["tps"] for step in run["steps"]]
    for name in ("run.json", "my.cnf"):
        page.locator(f"a[href='/runs/{run['id']}/{name}']").first.wait_for()
    assert json.loads(_fetch(page, f"/runs/{run['id']}/run.json")) == run
    assert _fetch(page, f"/runs/{run['id']}/my.cnf") == run["server"]["my_cnf"]
    permalink = figure.locator("a.permalink")
    permalink.click()
    assert page.url.endswith("#" + figure.get_attribute("id"))
    page.close()


def test_the_theme_toggle_and_filters_are_reached_by_keyboard(site_url, browser):
    page = browser.new_page()
    page.goto(site_url + "/browse/")
    _filtered_view(page)
    for _ in range(TABS_TO_TOGGLE):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "theme-toggle":
            break
    assert page.evaluate("document.activeElement.id") == "theme-toggle"
    page.keyboard.press("Enter")
    assert page.text_content("#theme-toggle") == "Theme: dark"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "product"
    page.close()


def test_without_javascript_each_chart_is_its_drawing(site_url, browser, committed_runs):
    run_id = committed_runs[0].doc["id"]
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/runs/{run_id}/")
    drawing = page.locator(".chart-plot img").first
    drawing.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('.chart-plot img').complete")
    assert drawing.evaluate("img => img.naturalWidth") > 0
    assert drawing.get_attribute("alt")
    assert page.locator(".chart-plot img").count() == page.locator("[data-plotly-src]").count()
    context.close()
