"""How a draft writes text that comes from run documents: one function per place it lands.

Hugo reads a draft twice: the front matter as YAML, then the body, where it runs every `{{<`
or `{{%` as a shortcode before Goldmark turns the rest into HTML. A CPU model, a campaign
title or a file name is data, so each must stay one YAML scalar or show as the text it is:

- `yaml_string`: a double-quoted YAML scalar written by a YAML emitter, every line break and
  control character escaped, so a value cannot end itself and start another front matter key;
- `markdown_text`: the text on one line with its ASCII punctuation backslash-escaped
  (CommonMark allows that for every such character), so no `*`, `[`, `<`, `&` or `#` becomes
  markup and no shortcode delimiter is left whole (`{{<` is written `\\{\\{\\<`). Left as
  they are, for a draft the author can read: commas, slashes, a hyphen inside a word
  (`oltp-rw`) and a dot inside a number (`10.11`), which no Markdown rule, Goldmark extension
  or Hugo marker reads once the characters around them are escaped (an apostrophe is escaped:
  the typographer would curl it);
- `markdown_code`: the text as inline code when a code span can show it verbatim, else as
  `markdown_text` (a code span shows everything literally, so it cannot neutralise a shortcode
  delimiter, which Hugo finds before Markdown is read).
"""

from __future__ import annotations

import re

import yaml

# ASCII punctuation (the characters CommonMark lets a backslash escape), less the inert ones.
_PUNCTUATION = re.compile(
    r"(?![,/]|(?<=[0-9A-Za-z])-(?=[0-9A-Za-z])|(?<=[0-9])\.(?=[0-9]))([!-/:-@\[-`{-~])"
)
# What Hugo acts on in a page body before Markdown: shortcode delimiters, the summary divider.
_HUGO_MARKERS = re.compile(r"\{\{[<%]|[>%]\}\}|<!--more-->")


def yaml_string(text: str) -> str:
    """A front matter value: one double-quoted line that YAML reads back as exactly text."""
    emitted: str = yaml.safe_dump(text, default_style='"', allow_unicode=True, width=float("inf"))
    return emitted.rstrip("\n")


def _one_line(text: str) -> str:
    """Whitespace runs as one space: a line break in a value could end a list item or start a
    heading, a code block or a table."""
    return " ".join(text.split())


def markdown_text(text: str) -> str:
    """Data in Markdown prose, shown as written (on one line)."""
    return _PUNCTUATION.sub(r"\\\1", _one_line(text))


def markdown_code(text: str) -> str:
    """Data as inline code: a code span fenced by more backticks than the text holds in a row,
    or the escaped text when Hugo would act on something in it."""
    line = _one_line(text)
    if not line or _HUGO_MARKERS.search(line):
        return markdown_text(line)
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", line)), default=0))
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{fence}{pad}{line}{pad}{fence}"
