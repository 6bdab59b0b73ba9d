"""The write-debt flag on the built site from the committed data: the first 10.11 vs 11.4
campaign's Update-NoKey runs start from checkpoint ages about 170 MB of a 256 MB log apart, its
read-only workloads are never flagged. (How an article marks such values:
test_article_drafts.py, on that campaign's draft.)"""

from __future__ import annotations

import re
from html import unescape

CAMPAIGN = "dimitri-10-11-vs-11-4-20261123-135924"
RUN = f"{CAMPAIGN}.mariadb-11-4.base.update-nokey.p1"


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_campaign_page_explains_the_flag_by_update_nokey_only(built_site):
    _, public = built_site
    html = (public / "campaigns" / CAMPAIGN / "index.html").read_text()
    assert re.findall(r'id="write-debt-([a-z-]+)"', html) == ["update-nokey"]
    note = _text(html.split('id="write-debt-update-nokey"', 1)[1].split("</div>", 1)[0])
    assert "starts from checkpoint ages 67 % of the redo log's capacity apart" in note
    assert "mariadb-11-4.base, pass 1 : 181 MB of 256 MB" in note
    assert "mariadb-10-11.base, pass 1 : 9 MB of 256 MB" in note


def test_the_run_page_shows_write_debt_with_its_figures(built_site):
    _, public = built_site
    text = _text((public / "runs" / RUN / "index.html").read_text())
    assert "⚠ not steady (write debt) checkpoint age 181 → 10 MB of 256 MB" in text
    assert "checkpoint age near the async flush point" in text
    read_only = _text(
        (public / "runs" / RUN.replace("update-nokey", "point-selects") / "index.html").read_text()
    )
    assert "(write debt)" not in read_only.split("Kept TPS:", 1)[0]
