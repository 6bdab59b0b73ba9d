"""What an article refers to: the campaign and run ids its page needs from the data.

An article (content/posts/<slug>/index.md) takes every figure from the run documents, and names
them in three places, each of which fails the Hugo build when the id is not among the runs
built:

- shortcodes: `{{< value campaign="<id>" ... >}}` (campaign may list several, comma-separated),
  `{{< fact run="<id>" ... >}}`, `{{< compare runs="<id>,<id>" >}}`; `{{< trust >}}` without
  a campaign takes those the other shortcodes name, so it adds none of its own;
- front matter: `campaign:` and `runs:` (a string, comma-separated, or a list), which the page
  template turns into a compare link;
- Markdown links to `/campaigns/<id>/` and `/runs/<id>/` (and below them: `#disclosure`,
  `/runs/<id>/replay.sh`), which the link hook (layouts/_markup/render-link.html) checks.

`embedded` is what the page shows figures of (shortcodes and front matter), `linked` what it
only links, `needed` both. The build leaves out an article that needs an id its data lacks
(generator/hugo/left_out.py); tests/published/test_articles.py checks the committed articles
against data/ with the same reading.

Escaped shortcodes (`{{</* value ... */>}}`, how the guide shows examples) are text, not
shortcodes, and are not read. Shortcodes inside code are read (Hugo runs them there too);
links inside code are not (Markdown makes no link there).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from typing import Any, NamedTuple
from urllib.parse import unquote

import yaml

# `{{< name params >}}` or `{{% name params %}}`. A closing tag (`{{< /name >}}`) and an
# escaped one (`{{</* name */>}}`) have no word right after the delimiter, so neither matches.
SHORTCODE = re.compile(r"\{\{([<%])\s*(\w[\w-]*)(.*?)[>%]\}\}", re.DOTALL)
# Named parameters as Hugo reads them: "quoted", `raw` or bare.
_PARAM = re.compile(r'(\w+)=(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`|([^\s"`]+))')
# The shortcode parameters that name ids; campaign and runs may list several, comma-separated.
_CAMPAIGN_PARAMS = ("campaign",)
_RUN_PARAMS = ("run", "runs")

# Where a link's destination names a campaign or a run: the first segment below the section.
_SECTIONS = {"campaigns": "campaign", "runs": "run"}
_INLINE_LINK = re.compile(r"\]\(\s*<?(/[^)\s>]*)")
_REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(/\S*?)>?(?:\s|$)", re.MULTILINE)
# A list's later pages (Hugo's default pagination path: site/hugo.toml sets none) are no id.
_PAGER_SEGMENT = "page"
# Code, where Markdown makes no link: fenced blocks, then inline spans.
_FENCED = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[ \t]*$", re.DOTALL | re.MULTILINE)
_CODE_SPAN = re.compile(r"(`+).+?(?<!`)\1(?!`)", re.DOTALL)


class Ids(NamedTuple):
    """Campaign and run ids, each once, in the order the article first names them."""

    campaigns: tuple[str, ...]
    runs: tuple[str, ...]

    def __or__(self, other: Ids) -> Ids:
        return Ids(
            _unique([*self.campaigns, *other.campaigns]), _unique([*self.runs, *other.runs])
        )


class Unreadable(ValueError):
    """Front matter that Hugo would refuse too: unclosed, not YAML or TOML, or not a mapping."""


def split(text: str) -> tuple[dict[str, Any], str]:
    """The front matter (YAML between `---` lines, or TOML between `+++` lines, as Hugo reads
    them) and the body after it; no front matter is an empty one."""
    for fence, parse in (("---", yaml.safe_load), ("+++", tomllib.loads)):
        if text.startswith(fence):
            parts = text.split(fence, 2)
            if len(parts) < 3:
                raise Unreadable(f"front matter opened by {fence} is never closed")
            try:
                front = parse(parts[1]) or {}
            except (yaml.YAMLError, tomllib.TOMLDecodeError) as error:
                raise Unreadable(str(error)) from error
            if not isinstance(front, dict):
                raise Unreadable("front matter is not a mapping")
            return front, parts[2]
    return {}, text


def front_matter(text: str) -> dict[str, Any]:
    return split(text)[0]


def shortcodes(text: str) -> list[tuple[str, dict[str, str]]]:
    """Each shortcode's name and named parameters, in page order."""
    return [(call[2], _named(call[3])) for call in SHORTCODE.finditer(text)]


def _named(raw: str) -> dict[str, str]:
    found = {}
    for param in _PARAM.finditer(raw):
        quoted, backticked, bare = param.group(2, 3, 4)
        found[param[1]] = next(v for v in (quoted, backticked, bare) if v is not None)
    return found


def embedded(text: str) -> Ids:
    """The ids whose figures the article shows: its shortcodes' and its front matter's."""
    front, body = split(text)
    calls = [params for _, params in shortcodes(body)]
    campaigns = [*_listed(front.get("campaign")), *_params(calls, _CAMPAIGN_PARAMS)]
    runs = [*_listed(front.get("runs")), *_params(calls, _RUN_PARAMS)]
    return Ids(_unique(campaigns), _unique(runs))


def linked(text: str) -> Ids:
    """The ids of the campaign and run pages the article's Markdown links point at."""
    body = _CODE_SPAN.sub("", _FENCED.sub("", split(text)[1]))
    found: dict[str, list[str]] = {"campaign": [], "run": []}
    destinations = [*_INLINE_LINK.findall(body), *_REFERENCE_LINK.findall(body)]
    for destination in destinations:
        path = unquote(re.split(r"[?#]", destination, maxsplit=1)[0])
        section, _, rest = path.removeprefix("/").partition("/")
        page = rest.split("/", 1)[0]
        if section in _SECTIONS and page and page != _PAGER_SEGMENT:
            found[_SECTIONS[section]].append(page)
    return Ids(_unique(found["campaign"]), _unique(found["run"]))


def needed(text: str) -> Ids:
    """Every id the article's page needs built: embedded, then linked."""
    return embedded(text) | linked(text)


def _params(calls: list[dict[str, str]], names: tuple[str, ...]) -> list[str]:
    return [i for params in calls for name in names for i in _listed(params.get(name))]


def _listed(value: object) -> list[str]:
    """A parameter's ids: one, several comma-separated, or (front matter) a list of them."""
    items = value if isinstance(value, list) else [value] if value is not None else []
    return [part.strip() for item in items for part in str(item).split(",") if part.strip()]


def _unique(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))
