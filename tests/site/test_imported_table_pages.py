"""A post's table for two machines (tests/helpers/imported_runs.py TWO_HOSTS), imported by the
real `mybench import table` and built by Hugo with a probe article: each host's variants are
ratios to that host's own first variant, the two hosts sit side by side in one table without
JavaScript, the options and the note the table gives are on the page, and the ratio the source
printed wrong is named with the figures that contradict it, on the campaign page and in the
article."""

from __future__ import annotations

import html
import re

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.helpers.imported_runs import TWO_HOST_OPTIONS, TWO_HOSTS, TWO_HOSTS_CAMPAIGN
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

CAMPAIGN = TWO_HOSTS_CAMPAIGN
NARROW = "read-write-range-size-100"
ARTICLE = f"""
Box B at v2, to its own v1: {{{{< value campaign="{CAMPAIGN}" workload="{NARROW}" variant="box-b.v2" threads="1" metric="qps" >}}}}.

{{{{< ratios campaign="{CAMPAIGN}" workload="{NARROW}" across="hosts" >}}}}

{{{{< printed campaign="{CAMPAIGN}" >}}}}
"""
# Tags that break a line or a cell read as a space; inline ones (links, code, strong) as nothing.
BREAKS = re.compile(
    r"</?(?:p|div|h[1-6]|li|ul|tr|td|th|table|thead|tbody|section|summary|br|dl|dt|dd)\b[^>]*>"
)
TAGS = re.compile(r"<[^>]+>")


def _text(page: str) -> str:
    return " ".join(html.unescape(TAGS.sub("", BREAKS.sub(" ", page))).split())


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    root = tmp_path_factory.mktemp("two-hosts")
    table = root / "post.csv"
    table.write_text(TWO_HOSTS)
    result = CliRunner().invoke(
        main, ["import", "table", str(table), *TWO_HOST_OPTIONS, "--data", str(root / "data")]
    )
    assert result.exit_code == 0, result.output
    return build_with_article(root, ARTICLE, [root / "data"])


def test_each_host_is_the_base_of_its_own_variants(public):
    page = _text((public / "campaigns" / CAMPAIGN / "index.html").read_text())
    assert "Base variants, one per host: box-a.v1, box-b.v1." in page
    assert "Relative to the first variant of each host (box-a.v1, box-b.v1)" in page
    assert "Queries per second relative to box-b.v1 threads box-b.v1 (base)" in page
    # read-write at range-size 100: box-a v2 900 / 1000, box-b v2 770 / 1100 (not / 1000).
    narrow = page.split(f"{NARROW} Options:")[1]
    ratios = narrow.split("Relative to the first variant of each host")[1].split("Ratio =")[0]
    assert re.findall(r"\b[01]\.\d\d(?!\d)", ratios) == ["1.00", "0.90", "1.00", "0.70"]


def test_the_hosts_stand_side_by_side_in_one_table(public):
    page = (public / "campaigns" / CAMPAIGN / "index.html").read_text()
    table = page.split('<table class="num ratios across-hosts">')[1].split("</table>")[0]
    rows = [_text(row).split(" ", 1) for row in table.split("<tr>")[2:]]
    # v1: 1,000 on A, 1,100 on B (1.10); v2: 900 and 770 (0.86).
    assert [(variant, re.findall(r"[0-9][0-9,.]*", cells)[:4]) for variant, cells in rows] == [
        ("v1", ["1", "1,000", "1,100", "1.10"]),
        ("v2", ["1", "900", "770", "0.86"]),
    ]
    assert "Box A · " in _text(table.split("</thead>")[0])


def test_the_tables_options_and_note_are_on_the_page(public):
    page = _text((public / "campaigns" / CAMPAIGN / "index.html").read_text())
    assert f"{NARROW} Options: --range-size=100 " in page
    assert "read-write-range-size-10000 Options: --range-size=10000 " in page
    assert "point-query.pre Run before the writes." in page


def test_a_printed_ratio_its_figures_contradict_is_named_on_page_and_in_the_article(public):
    finding = (
        f"{NARROW}, box-b.v2 (1 thread): the source prints 0.80; its own figures give 0.70"
        " (QPS 770 ÷ 1,100 for box-b.v1)."
    )
    campaign = _text((public / "campaigns" / CAMPAIGN / "index.html").read_text())
    assert (
        "7 of them follow from its own figures at the precision printed, 1 does not." in campaign
    )
    assert finding in campaign
    article = (public / "posts" / "probe" / "index.html").read_text()
    assert finding in _text(article)
    assert '<table class="num ratios across-hosts">' in article
    assert "Box B at v2, to its own v1: 0.70" in _text(article)


def test_a_run_page_shows_the_printed_ratio_the_assumed_threads_and_the_note(public):
    run = _text((public / "runs" / f"{CAMPAIGN}.box-b.v2.{NARROW}" / "index.html").read_text())
    assert "Given for every row threads 1 (the post: 1 client)" in run
    assert "threads QPS QPS ratio as printed 1 770 0.80 (to box-b.v1)" in run
    pre = _text(
        (public / "runs" / f"{CAMPAIGN}.box-a.v1.point-query.pre" / "index.html").read_text()
    )
    assert "point-query.pre: Run before the writes." in pre
