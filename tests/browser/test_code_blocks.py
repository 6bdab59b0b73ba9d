"""Code blocks on a run page: each has a copy button that copies it (by mouse and keyboard),
none without JavaScript, and no shell command block scrolls sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

RUN = "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p1"  # restored: the longest list
SHELL_BLOCKS = 'pre:has(> code[data-lang="sh"])'


@pytest.fixture
def run_page(site_url, browser):
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    page.goto(f"{site_url}/runs/{RUN}/")
    yield page
    context.close()


def _clipboard(page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def test_every_code_block_has_a_copy_button_that_copies_it(run_page):
    blocks = run_page.locator("pre")
    assert blocks.count() >= 12  # harness command, variables, every replay command, my.cnf
    for index in range(blocks.count()):
        block = blocks.nth(index)
        button = block.locator("xpath=preceding-sibling::div[1][@class='code-copy']/button")
        button.click()
        expect(button).to_have_text("Copied")
        assert _clipboard(run_page) == block.inner_text().rstrip("\n")


def test_the_copy_button_works_from_the_keyboard(run_page):
    replay_block = run_page.locator(".repro ol.commands pre").first
    button = replay_block.locator("xpath=preceding-sibling::div[1]/button")
    button.focus()
    run_page.keyboard.press("Enter")
    expect(button).to_have_text("Copied")
    assert '--datadir="$PRISTINE"' in _clipboard(run_page)


def test_without_javascript_no_button_shows(site_url, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/runs/{RUN}/")
    assert page.locator("pre").count() >= 12 and page.locator("button.copy").count() == 0
    context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_no_shell_command_block_scrolls_sideways(site_url, browser, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{site_url}/runs/{RUN}/")
    widths = page.locator(SHELL_BLOCKS).evaluate_all(
        "blocks => blocks.map(b => [b.scrollWidth, b.clientWidth])"
    )
    assert len(widths) >= 12
    assert [w for w in widths if w[0] > w[1]] == []
    if width == 1280:  # on a phone the step tables are wider than the screen, by design
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


def test_the_replay_script_is_offered_for_download(site_url, browser):
    page = browser.new_page()
    page.goto(f"{site_url}/runs/{RUN}/")
    link = page.get_by_role("link", name="Download replay.sh")
    with page.expect_download() as download:
        link.click()
    text = download.value.path().read_text()
    assert text.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in text
    page.close()
