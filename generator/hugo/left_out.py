"""The articles a build leaves out: those that need a campaign or run its data dirs lack.

A build from a data dir that holds only some runs (imported ones, a scratch campaign) would stop
at the first shortcode or link of an article naming a run it lacks. Instead such an article is
left out of Hugo's content mount (the mount's `files` filter, in the overlay config that
command.write_overlay writes), its page bundle's other files with it, so that no page, list,
term page or feed knows it; each one left out is one warning line, naming the article and the
first id it lacks. With `require_articles` (`mybench build --require-articles`, what `make build`
and the Pages workflow run) one left out is an error instead: the committed site never loses an
article without a word.

What an article needs is read by generator/articles.py. A campaign counts as present when one of
its runs is loaded. Drafts are not checked: Hugo does not render them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from generator import articles
from generator.hugo.errors import ArticlesLeftOut
from generator.hugo.load import PlannedRun

# The content section whose pages are articles (content/posts/).
SECTION = "posts"
BUNDLE_INDEX = "index.md"
SECTION_INDEX = "_index.md"
# Hugo reads a `files` entry starting with "! " as an exclusion; without the space it is a
# pattern to include, and the mount would hold nothing else.
EXCLUDE = "! "
_GLOB_SPECIAL = "\\*?[]{}"


@dataclass(frozen=True)
class LeftOut:
    """An article the build leaves out, and why."""

    page: Path  # relative to the content dir: posts/<slug>/index.md
    file: str  # the article's file as messages name it
    missing: articles.Ids  # what it needs that no loaded run provides
    where: str  # the run dirs read, as messages name them

    @property
    def reason(self) -> str:
        """The first missing id (campaigns first, in the article's order), and how many more."""
        ids = [("campaign", i) for i in self.missing.campaigns]
        ids += [("run", i) for i in self.missing.runs]
        (kind, first), more = ids[0], len(ids) - 1
        tail = f" (and {more} more id{'s' if more > 1 else ''})" if more else ""
        return f"its {kind} {first} is {self.where}{tail}"

    def __str__(self) -> str:
        return f"{self.file}: left out: {self.reason}"

    @property
    def excluded(self) -> str:
        """The `files` entry that takes it out of the content mount: a page bundle's whole
        folder (its images and other resources go with it), else the page's file."""
        target = self.page.parent if self.page.name == BUNDLE_INDEX else self.page
        pattern = _glob_escaped(target.as_posix())
        return EXCLUDE + (f"{pattern}/**" if self.page.name == BUNDLE_INDEX else pattern)


def article_pages(content: Path) -> list[Path]:
    """The articles' files under content/posts/: each page bundle's index.md and each page
    file outside a bundle (a bundle's other .md files are its resources, not pages)."""
    section = content / SECTION
    bundles = {index.parent for index in section.rglob(BUNDLE_INDEX)}
    pages = [folder / BUNDLE_INDEX for folder in bundles]
    pages += [
        page
        for page in section.rglob("*.md")
        if page.name not in (BUNDLE_INDEX, SECTION_INDEX) and not bundles & set(page.parents)
    ]
    return sorted(pages)


def left_out(content: Path, runs: Iterable[PlannedRun], data_dirs: list[Path]) -> list[LeftOut]:
    """The articles under content/ that need a campaign or run that none of runs provides."""
    planned = list(runs)
    run_ids = {run.id for run in planned}
    campaign_ids = {run.campaign for run in planned}
    where = _where(data_dirs)
    found = []
    for page in article_pages(content):
        text = page.read_text(encoding="utf-8")
        if not _published(text):
            continue
        needed = articles.needed(text)
        missing = articles.Ids(
            tuple(i for i in needed.campaigns if i not in campaign_ids),
            tuple(i for i in needed.runs if i not in run_ids),
        )
        if missing.campaigns or missing.runs:
            found.append(LeftOut(page.relative_to(content), shown(page), missing, where))
    return found


def _published(text: str) -> bool:
    """Whether Hugo publishes the article: not a draft, and front matter it can read (Hugo
    refuses the rest with its own message)."""
    try:
        return not articles.front_matter(text).get("draft")
    except articles.Unreadable:
        return False


def published_pages(content: Path, found: list[LeftOut]) -> list[Path]:
    """The article pages a build publishes: neither drafts nor left out (found)."""
    leaving = {content / article.page for article in found}
    return [
        page
        for page in article_pages(content)
        if page not in leaving and _published(page.read_text(encoding="utf-8"))
    ]


def require_none(found: list[LeftOut]) -> None:
    """Raise ArticlesLeftOut naming each article and the first id it lacks, if any."""
    if found:
        raise ArticlesLeftOut([f"{article.file}: {article.reason}" for article in found])


def _where(data_dirs: list[Path]) -> str:
    dirs = [shown(Path(data_dir) / "runs") for data_dir in data_dirs]
    return f"not in {dirs[0]}" if len(dirs) == 1 else f"in none of {', '.join(dirs)}"


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return os.fspath(path)


def _glob_escaped(path: str) -> str:
    """A path as a literal in Hugo's glob (a slug may hold `{`, `[`, `*` ...)."""
    return "".join(f"\\{char}" if char in _GLOB_SPECIAL else char for char in path)
