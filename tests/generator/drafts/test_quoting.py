"""The draft's quoting of data (generator/drafts/quoting.py and the shortcode builder): each
value reads back as itself, whatever it holds; the built draft is tested in
tests/site/test_article_drafts.py."""

from __future__ import annotations

import pytest
import yaml

from generator.drafts.article import DraftError, shortcode
from generator.drafts.quoting import markdown_code, markdown_text, yaml_string

# Front matter breaks: a quote and a newline, a carriage return, YAML's other line breaks,
# characters YAML cannot hold raw (DEL, a C1 control, a byte-order mark), a document marker.
VALUES = [
    'x"\nhosts: [evil]',
    "x'\r\nhosts:\r\n  - evil",
    "a\u2028b\u0085c\u2029",
    "del\x7f c1\x9b bom\ufeff nul\x00 tab\t",
    "---\n...\n# comment",
    "😀 {{< fact >}}",
]


@pytest.mark.parametrize("value", VALUES)
def test_a_yaml_value_reads_back_as_itself_on_one_line(value):
    quoted = yaml_string(value)
    assert "\n" not in quoted and "\r" not in quoted
    assert yaml.safe_load(f"title: {quoted}\nhosts: [ok]\n") == {"title": value, "hosts": ["ok"]}


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("oltp-rw, 1 and 4 threads", "`oltp-rw, 1 and 4 threads`"),
        ("a `tick` and ``two``", "``` a `tick` and ``two`` ```"),
        ("x {{< fact >}}", "x \\{\\{\\< fact \\>\\}\\}"),
        ("x {{% fact %}}", "x \\{\\{\\% fact \\%\\}\\}"),
        ("a <!--more--> b", "a \\<\\!\\-\\-more\\-\\-\\> b"),
    ],
)
def test_inline_code_is_verbatim_or_else_escaped(value, written):
    assert markdown_code(value) == written


def test_text_keeps_words_and_numbers_readable_and_escapes_the_rest():
    assert markdown_text("MariaDB 10.11.6, oltp-rw") == "MariaDB 10.11.6, oltp-rw"
    assert markdown_text("- a\n\n# b *c* [d](e) 1) 'f'") == (
        "\\- a \\# b \\*c\\* \\[d\\]\\(e\\) 1\\) \\'f\\'"
    )


@pytest.mark.parametrize("value", ['a" key="b', "a >}}{{< b", "a b", ""])
def test_a_shortcode_value_beyond_ids_and_names_is_refused(value):
    with pytest.raises(DraftError, match="shortcode fact: run"):
        shortcode("fact", run=value)
