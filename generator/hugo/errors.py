"""Why a site build stopped: bad run data, an article the data cannot carry, or Hugo refused
the site."""

from __future__ import annotations

from contract import Problem


class BuildError(Exception):
    """Base for everything the CLI should print as one line instead of a traceback."""


class InvalidData(BuildError):
    """One or more run documents are unusable; nothing was published."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(f"{len(problems)} data {noun}: " + "; ".join(map(str, problems)))

    def __reduce__(self) -> tuple[type[InvalidData], tuple[list[Problem]]]:
        return InvalidData, (self.problems,)  # raised in a pool worker, re-raised here whole


class HugoError(BuildError):
    """Hugo is missing or failed; the message is Hugo's own first error line."""


class ArticleProblems(BuildError):
    """Articles the build refuses, a line each naming the file; nothing was published."""

    def __init__(self, summary: str, lines: list[str]) -> None:
        self.summary = summary
        self.lines = lines
        super().__init__(f"{summary}: " + "; ".join(lines))


class ArticlesLeftOut(ArticleProblems):
    """Articles need campaigns or runs the data dirs lack, and the build was told to require
    every article (`mybench build --require-articles`)."""

    def __init__(self, lines: list[str]) -> None:
        # per article: its file, the first id it lacks, how many more
        noun = "article needs" if len(lines) == 1 else "articles need"
        super().__init__(
            f"{len(lines)} {noun} campaigns or runs the data lacks (--require-articles)", lines
        )


class TypedFigures(ArticleProblems):
    """Article prose holds result figures typed by hand (generator/typed_figures.py)."""

    def __init__(self, lines: list[str]) -> None:
        noun = "figure is" if len(lines) == 1 else "figures are"
        super().__init__(f"{len(lines)} result {noun} typed into article prose", lines)
