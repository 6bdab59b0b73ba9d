"""The committed site served on localhost and one headless Chromium, per test module."""

from __future__ import annotations

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
