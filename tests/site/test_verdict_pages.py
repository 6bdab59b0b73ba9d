"""Every page that says whether a step can be trusted agrees with the flags it shows, on the site
built from the committed data: each run page's summary lines (above the step table, in the
disclosure box, in an Insert Benchmark section) count exactly its flagged rows, kind by kind,
and never call a page with a flagged row fit; each campaign page's disclosure counts exactly the
flagged steps its run table marks. The summaries and rows carry their counts and kinds as data
attributes (layouts/_partials/run/flag-summary.html, steady-cell.html,
disclosure/run-table.html), read here as a reader's browser would get them."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

SUMMARY = re.compile(
    r'<span class="flag-summary" data-flagged="(\d+)" data-steps="(\d+)" data-kinds="([a-z:0-9 ]*)"'
)
ROW = re.compile(r'<td class="(?:steady|unstable)" data-flags="([a-z ]*)"')
RUN_MARK = re.compile(
    r'<span class="unstable run-flags" data-flagged="(\d+)" data-kinds="([a-z:0-9 ]*)"'
)
FIT_WORDS = ("every step fit", "the step is fit", "every step steady")


def _pages(public: Path, section: str) -> list[Path]:
    pages = sorted((public / section).glob("*/index.html"))
    assert pages, f"no {section} pages built"
    return pages


def _kinds(attribute: str) -> Counter:
    """data-kinds="transient:3 inherited:2" as a count by kind."""
    return Counter({kind: int(n) for kind, n in (pair.split(":") for pair in attribute.split())})


def _summaries(html: str) -> list[tuple[int, int, Counter]]:
    """Each summary line: (flagged, steps, count by kind)."""
    return [
        (int(flagged), int(steps), _kinds(kinds))
        for flagged, steps, kinds in SUMMARY.findall(html)
    ]


def test_every_run_page_counts_the_flags_its_rows_show(built_site):
    _, public = built_site
    checked = 0
    for page in _pages(public, "runs"):
        html = page.read_text()
        rows = ROW.findall(html)
        summaries = _summaries(html)
        if not rows:
            assert all(steps == 0 for _, steps, _ in summaries), page
            continue
        flagged_rows = [row.split() for row in rows if row]
        by_kind = Counter(kind for row in flagged_rows for kind in set(row))
        assert summaries, f"{page}: flagged rows and no summary line"
        for flagged, steps, kinds in summaries:
            assert (flagged, steps) == (len(flagged_rows), len(rows)), page
            assert kinds == by_kind, page
        if flagged_rows:
            assert not any(words in html for words in FIT_WORDS), page
        checked += 1
    assert checked > 100  # the committed archive's measured runs


def test_every_campaign_disclosure_counts_the_flagged_steps_its_run_table_marks(built_site):
    _, public = built_site
    checked = 0
    for page in _pages(public, "campaigns"):
        html = page.read_text()
        if '<aside class="disclosure"' not in html:
            continue
        box = html[html.index('<aside class="disclosure"') : html.index("</aside>")]
        summaries = _summaries(box)
        marks = RUN_MARK.findall(box)
        if not summaries:  # every run imported without per-second samples
            assert not marks, page
            continue
        ((flagged, steps, kinds),) = summaries
        assert flagged == sum(int(count) for count, _ in marks), page
        marked: Counter = Counter()
        for _, kinds_of_run in marks:
            marked.update(_kinds(kinds_of_run))
        assert kinds == marked, page
        if flagged:
            assert not any(words in box for words in FIT_WORDS), page
        else:
            assert "every step fit" in box or steps == 1
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("words", ["not steady (write debt)", "every step steady"])
def test_no_page_keeps_a_rule_of_its_own(built_site, words):
    """The earlier pages judged write debt and steadiness by rules of their own."""
    _, public = built_site
    for section in ("runs", "campaigns"):
        for page in _pages(public, section):
            assert words not in page.read_text(), page
