"""The words a reader sees in built HTML, for tests that check what a page says."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path


def page_words(page: str | Path) -> str:
    """The words of an HTML page (a path) or fragment (a string): each tag a space, entities
    decoded, whitespace collapsed."""
    html = page.read_text() if isinstance(page, Path) else page
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", html)).split())
