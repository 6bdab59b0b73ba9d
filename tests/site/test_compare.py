"""The compare shortcode in a real Hugo build: a link to the view, or the build fails with the
shortcode's file and line."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

import generator
from tests.helpers.site_build import build_with_article, data_of, one_run_data

pytestmark = pytest.mark.site


def test_the_compare_shortcode_links_to_a_view_of_runs(tmp_path, committed_runs):
    first, second = (run for _, run in committed_runs[:2])
    data = data_of(tmp_path, committed_runs, lambda run: run["id"] in (first["id"], second["id"]))
    public = build_with_article(
        tmp_path,
        f'{{{{< compare runs="{first["id"]}, {second["id"]}" base="{first["variant"]}" '
        f'metric="p95" scale="log" text="Both runs" >}}}}',
        [data],
    )
    html = (public / "posts" / "probe" / "index.html").read_text()
    href = html.split('<p class="compare-link"><a href="', 1)[1].split('"', 1)[0]
    url = urlparse(href.replace("&amp;", "&"))
    assert url.path == "/compare/"
    assert {key: values[0] for key, values in parse_qs(url.query).items()} == {
        "runs": f"{first['id']},{second['id']}",
        "base": first["variant"],
        "metric": "p95",
        "scale": "log",
    }
    assert ">Both runs</a>" in html


@pytest.mark.parametrize(
    ("shortcode", "message"),
    [
        ('runs="no-such-run"', 'no run "no-such-run"'),
        ("", "compare: give campaign="),
    ],
)
def test_a_bad_compare_shortcode_fails_the_build(tmp_path, shortcode, message, committed_runs):
    data = one_run_data(tmp_path, committed_runs)
    with pytest.raises(generator.HugoError) as raised:
        build_with_article(tmp_path, f"{{{{< compare {shortcode} >}}}}", [data])
    assert message in str(raised.value)
    assert "probe/index.md:5" in str(raised.value)
