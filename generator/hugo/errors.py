"""Why a site build stopped: bad run data, or Hugo refused the site."""

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
