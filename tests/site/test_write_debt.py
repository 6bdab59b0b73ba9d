"""The write-debt flag on the built site from the committed data: the first 10.11 vs 11.4
campaign's Update-NoKey runs start from checkpoint ages about 170 MB of a 256 MB log apart, its
read-only workloads are never flagged. (How an article marks such values:
test_article_drafts.py, on that campaign's draft.)"""

from __future__ import annotations

import re

from tests.helpers.page_text import page_words

CAMPAIGN = "dimitri-10-11-vs-11-4-20261123-135924"
RUN = f"{CAMPAIGN}.mariadb-11-4.base.update-nokey.p1"


def test_the_campaign_page_explains_the_flag_by_update_nokey_only(built_site):
    _, public = built_site
    html = (public / "campaigns" / CAMPAIGN / "index.html").read_text()
    assert re.findall(r'id="write-debt-([a-z-]+)"', html) == ["update-nokey"]
    note = page_words(html.split('id="write-debt-update-nokey"', 1)[1].split("</div>", 1)[0])
    assert "starts from checkpoint ages 67 % of the redo log's capacity apart" in note
    assert "mariadb-11-4.base, pass 1 : 181 MB of 256 MB" in note
    assert "mariadb-10-11.base, pass 1 : 9 MB of 256 MB" in note


def test_the_run_page_shows_write_debt_flags_with_their_figures(built_site):
    """The first step starts at the async flush point (inherited debt) and falls back; the
    second starts settled and climbs to the end (transient); each row shows the numbers."""
    _, public = built_site
    html = (public / "runs" / RUN / "index.html").read_text()
    rows = re.findall(r'<td class="(?:steady|unstable)" data-flags="([a-z ]*)"', html)
    assert rows[:2] == ["inherited", "transient"]
    text = page_words(html)
    assert (
        "⚠ inherited debt drift" in text
        and "write debt 180 → 10 MB (settled ≤ 13, async 181), ceiling at 0 s of 9" in text
    )
    assert "write debt 12 → 30 MB (settled ≤ 13, async 181), still rising at the end" in text
    read_only = (
        public / "runs" / RUN.replace("update-nokey", "point-selects") / "index.html"
    ).read_text()
    assert "write debt " not in page_words(read_only).split("Kept TPS:", 1)[0]
    assert re.findall(r'data-flags="([a-z ]*)"', read_only).count("inherited") == 0
