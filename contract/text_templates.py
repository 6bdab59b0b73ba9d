"""The one Jinja2 set-up for the text files the project writes from templates: a run's
replay.sh, an article draft, a campaign file. HTML pages are Hugo's templates, never these."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2


def text_templates(
    folder: Path, filters: dict[str, Callable[..., Any]] | None = None
) -> jinja2.Environment:
    """The templates of folder, rendered so that a value the code forgot to pass stops the
    render with its name (StrictUndefined) instead of leaving an empty string in the file."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        # Shell, Markdown and TOML, where HTML escaping would corrupt a command, a title or a
        # value: each template quotes for its own format through the filters it is given.
        autoescape=False,
    )
    environment.filters.update(filters or {})
    return environment
