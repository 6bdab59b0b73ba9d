"""A run page says which run it reproduces: a link to the original and a comparison of the two
when the original is in the site, where it was read from otherwise (real Hugo build)."""

from __future__ import annotations

import copy
import html as html_lib
import json
from urllib.parse import parse_qs, urlparse

import pytest

from harness.reproduce.plan import compare_path
from tests.helpers.paths import REPO
from tests.helpers.repeated_runs import write_runs
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

ORIGINAL = "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p2"  # pass 2 of 3
SOURCE = "https://example.org/runs/gone.run/run.json"
REWRITTEN = [
    {"option": "general_log_file", "value": "/tmp/<b>x/g.log", "placed": "g.log"},
    {"option": "log-bin", "value": "../../bin", "placed": "bin"},
]


def reproduction(original: dict, campaign_id: str, reproduces: dict) -> dict:
    run = copy.deepcopy(original)
    del run["repeat"]
    run["campaign"].update(id=campaign_id, name="repro-binlog-sync-policies")
    run["id"] = f"{campaign_id}.sync-1.oltp-rw"
    run["reproduces"] = reproduces
    return run


def test_a_reproduction_links_its_original_and_the_comparison(tmp_path):
    path = REPO / "tests" / "fixtures" / "runs" / "runs" / f"{ORIGINAL}.json"
    original = json.loads(path.read_text())
    linked = reproduction(
        original,
        "repro-binlog-sync-policies-20270101-000000",
        {"run_id": ORIGINAL, "source": f"runs/{ORIGINAL}.json"},
    )
    orphan = reproduction(
        original,
        "repro-binlog-sync-policies-20270102-000000",
        {"run_id": "gone.run", "source": SOURCE, "confined": True, "rewritten": REWRITTEN},
    )
    write_runs([original, linked, orphan], tmp_path / "data")
    public = build_with_article(tmp_path, "No figures here.", [tmp_path / "data"])

    html = (public / "runs" / linked["id"] / "index.html").read_text()
    paragraph = html.split('<p class="reproduces">', 1)[1].split("</p>", 1)[0]
    assert f'<a href="/runs/{ORIGINAL}/"><code>{ORIGINAL}</code></a>' in paragraph
    href = paragraph.split('(<a href="', 1)[1].split('"', 1)[0]
    url = urlparse(html_lib.unescape(href))
    assert url.path == "/compare/"
    query = {key: values[0] for key, values in parse_qs(url.query).items()}
    assert query == {
        "runs": f"{ORIGINAL},{linked['id']}",
        "workload": "oltp-rw",
        "base": "binlog-sync-policies-20261123-133014 sync-1 #2",
    }
    # The page's link and the one `mybench reproduce` prints are the same view.
    printed = urlparse(compare_path(original, [linked["id"]]))
    assert parse_qs(printed.query) == parse_qs(url.query)

    html = (public / "runs" / orphan["id"] / "index.html").read_text()
    paragraph = html.split('<p class="reproduces">', 1)[1].split("</p>", 1)[0]
    assert "<code>gone.run</code>" in paragraph and SOURCE in paragraph
    assert "<a " not in paragraph
    # What a confined reproduction placed in its sandbox, escaped.
    assert (
        "<code>general_log_file = g.log</code> for <code>/tmp/&lt;b&gt;x/g.log</code>" in paragraph
    )
    assert "<code>log-bin = bin</code> for <code>../../bin</code>" in paragraph

    html = (public / "runs" / ORIGINAL / "index.html").read_text()
    assert 'class="reproduces"' not in html
