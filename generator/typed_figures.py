"""Result figures typed into an article's prose instead of taken from the data.

An article states every result through a shortcode (`value`, `fact`, `ratios` ...), which
reads the run or campaign it names, so a number on the page is the number in data/. A figure
typed into the prose (a percentage, a ratio with two decimals, a thousands-separated count, a
multiplier) goes stale the day the campaign is measured again and checks nothing. `mybench build`
refuses an article that has one, naming the file and line; the committed articles' tests read
the same rule.

Only the writer's own prose is read: front matter, fenced and inline code and shortcodes are
blanked (kept as spaces, so a finding keeps its line), and the trust rules' own constants
(RULE_CONSTANTS) may be named. Configuration values (sync_binlog=1000, 4 tables, MariaDB 10.11)
do not look like result figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from generator.articles import SHORTCODE
from generator.hugo.errors import TypedFigures
from generator.hugo.left_out import shown

TYPED_FIGURE = re.compile(
    r"(?<![\w.=/-])(\d+(\.\d+)?\s?%|\d\.\d\d(?!\.)\b|\d{1,3}(,\d{3})+\b|\d+(\.\d+)?\s?\u00d7)"
)
RULE_CONSTANTS = ("±5 %", "95 %")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_FENCED = re.compile(r"```.*?```", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")


@dataclass(frozen=True)
class TypedFigure:
    file: str
    line: int
    figure: str

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.line}: {self.figure!r} is typed into the prose: take it from the"
            " data with a shortcode ({{< value >}}, {{< fact >}})"
        )


def _blanked(text: str, pattern: re.Pattern[str]) -> str:
    """text with each match of pattern turned to spaces, its line breaks kept."""
    return pattern.sub(lambda found: re.sub(r"[^\n]", " ", found.group(0)), text)


def own_prose(text: str) -> str:
    """The article with everything but the writer's prose blanked, lines where they were."""
    for pattern in (_FRONT_MATTER, _FENCED, SHORTCODE, _INLINE_CODE):
        text = _blanked(text, pattern)
    for constant in RULE_CONSTANTS:
        text = text.replace(constant, " " * len(constant))
    return text


def typed_figures(text: str, file: str) -> list[TypedFigure]:
    """Every typed result figure in an article's prose, in order."""
    prose = own_prose(text)
    return [
        TypedFigure(file, prose.count("\n", 0, found.start()) + 1, found.group(0))
        for found in TYPED_FIGURE.finditer(prose)
    ]


def refuse_typed_figures(pages: list[Path]) -> None:
    """Raise TypedFigures naming each typed figure of the article pages, file and line."""
    found = [
        figure
        for page in pages
        for figure in typed_figures(page.read_text(encoding="utf-8"), shown(page))
    ]
    if found:
        raise TypedFigures([str(figure) for figure in found])
