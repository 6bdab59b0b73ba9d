"""The trust shortcode on the committed articles (the session's built site): each names every
campaign the article's shortcodes embed, and says for each what the generator decided
(generator/pages/trust_summary.py), flag counts, shared server starts and builds."""

from __future__ import annotations

import re

import pytest

from generator.analysis.trust import run_trust
from generator.articles import shortcodes
from generator.pages.campaign import runs_by_campaign
from generator.pages.trust_summary import trust_summary
from tests.helpers.page_text import page_words
from tests.published.test_articles import ARTICLES

pytestmark = pytest.mark.site

WITH_TRUST = [article for article in ARTICLES if "{{< trust" in article.read_text()]


def test_the_articles_show_the_trust_shortcode():
    assert len(WITH_TRUST) == len(ARTICLES)


@pytest.mark.parametrize("article", WITH_TRUST, ids=lambda p: p.parent.name)
def test_trust_says_what_the_generator_decided(article, built_site, committed_runs):
    _, public = built_site
    page = (public / "posts" / article.parent.name / "index.html").read_text()
    block = re.search(r'<div class="trust-summary">(.*?)</div>', page, re.DOTALL)
    assert block, "the trust shortcode rendered"
    sections = [page_words(part) for part in block.group(1).split("<h4>")[1:]]
    named = []
    for _, params in shortcodes(article.read_text()):
        if "campaign" in params and params["campaign"] not in named:
            named.append(params["campaign"])
    assert len(sections) == len(named)
    by_campaign = runs_by_campaign([run_file.doc for run_file in committed_runs])
    for section, campaign in zip(sections, named, strict=True):
        runs = by_campaign[campaign]
        summary = trust_summary(runs, {run["id"]: run_trust(run) for run in runs})
        assert f"{summary['runs']} run" in section
        for flag in summary["flags"]:
            assert f"{flag['label']} ({flag['legend']}): {flag['steps']} step" in section
        for shared in summary["starts"]["shared"]:
            assert f"{', then '.join(shared['workloads'])} ran one after another" in section
        for build in summary["builds"]:
            assert " ".join(build["description"].split()) in section  # as the page spaces it
