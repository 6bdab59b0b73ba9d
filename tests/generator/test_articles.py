"""generator/articles.py: the campaign and run ids an article names, read as Hugo would run its
shortcodes, front matter and links."""

from __future__ import annotations

import pytest

from generator import articles
from generator.articles import Ids

ARTICLE = """---
title: Probe
campaign: front-campaign
runs: [front-run-1, front-run-2]
---
{{< value campaign="c1" workload="w" variant="v" threads="1,16" >}}
{{< trust campaign="c2, c1,c3" >}} {{% fact run="r1" key="server.version" %}}
{{< compare runs="r2,r1" >}} {{< chart run=r3 fig="tps" >}} {{< mycnf run=`r4` >}}
{{< /details >}}
The guide's example: {{</* repro run="escaped-run" */>}} and {{%/* trust campaign="esc" */%}}.
[the disclosure](/campaigns/linked-c/#disclosure), [a run](/runs/linked-r) and
[its replay](/runs/linked-file-run/replay.sh "replay.sh"), [runs](/runs/), [page 2](/runs/page/2/),
[a term](/hosts/vm/), [elsewhere](https://example.org/runs/x/), [ref][r].
`[in code](/runs/code-run/)`

```
[in a fence](/campaigns/fenced-c/)
{{< fact run="fenced-run" key="id" >}}
```

[r]: /campaigns/reference-c/
"""


def test_embedded_reads_shortcodes_and_front_matter_in_page_order():
    assert articles.embedded(ARTICLE) == Ids(
        ("front-campaign", "c1", "c2", "c3"),
        # Hugo runs a shortcode inside code too.
        ("front-run-1", "front-run-2", "r1", "r2", "r3", "r4", "fenced-run"),
    )


def test_linked_reads_links_to_campaign_and_run_pages_outside_code():
    assert articles.linked(ARTICLE) == Ids(
        ("linked-c", "reference-c"), ("linked-r", "linked-file-run")
    )


def test_needed_is_both_each_id_once():
    needed = articles.needed(ARTICLE)
    assert needed.campaigns[:4] == ("front-campaign", "c1", "c2", "c3")
    assert needed.campaigns[4:] == ("linked-c", "reference-c")
    assert "escaped-run" not in needed.runs and "esc" not in needed.campaigns
    assert len(set(needed.runs)) == len(needed.runs)


def test_shortcodes_take_quoted_raw_and_bare_parameters():
    assert articles.shortcodes('{{< chart run="a b" fig=tps id=`x"y` >}}') == [
        ("chart", {"run": "a b", "fig": "tps", "id": 'x"y'})
    ]


def test_toml_front_matter_and_none():
    assert articles.embedded('+++\ncampaign = "t"\n+++\ntext') == Ids(("t",), ())
    assert articles.split("no front matter") == ({}, "no front matter")


@pytest.mark.parametrize(
    "text", ["---\ntitle: [unclosed\n---\n", "---\ntitle: never closed\n", "---\n- a list\n---\n"]
)
def test_unreadable_front_matter_is_said_to_be(text):
    with pytest.raises(articles.Unreadable):
        articles.split(text)
