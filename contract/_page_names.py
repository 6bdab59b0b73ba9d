"""The one rule for names that become a segment of a page's path: run and campaign ids
(/runs/<id>/, /campaigns/<id>/) and the taxonomy terms a run carries (/engines/, /versions/,
/workloads/, /hosts/<term>/).

The generator gives Hugo a run's or campaign's path, but Hugo derives a term's path itself:
it lowercases the term (Go's simple case mapping: `İ` becomes `i`, capital sigma the small
one), turns each space into a hyphen, and drops every character that is not a letter, a
digit, a mark or one of `. _ - + ~ @ # \\ /` (and `%` before two hex digits). So `DB (1)`,
`db 1` and `db-1` share /hosts/db-1/, while `db_1` and `db-2` keep pages of their own.
`page_segment` computes that path segment for any name, so what the generator writes and
checks is the path Hugo publishes (tests/site/test_page_names.py compares the two on a real
build), and refuses a name whose segment would be:

- another place: `/` or `\\` nest it or climb out of its section (`../x`), `%XX` and `#` are
  read back by a browser as other characters;
- hidden or a list's own file: a leading dot (`.`, `..`, dotfiles), a trailing one (dropped by
  some file systems), or a name Hugo or the site gives a list page in every section and
  taxonomy (`RESERVED`);
- one page under two spellings a reader cannot tell apart: a segment that Unicode's
  compatibility normalisation and case folding (NFKC, then casefold) would change, such as
  the ligature U+FB01 for `fi`, a fullwidth letter, `ß` for `ss` or a final sigma for the
  small one, is refused, so two names on one segment are the same name to a reader too;
- empty (a name of punctuation only), or longer than `MAX_SEGMENT_BYTES`;
- or it holds a control, invisible or unassigned character.

Two different names with one segment are one page: the callers that see several runs refuse
them naming both files (generator/hugo/term_pages.py).
"""

from __future__ import annotations

import reprlib
import string
import unicodedata
from typing import Final

# What Hugo writes in every section and taxonomy directory besides its pages: the list page
# (index.html), its feed (index.xml), its pager pages (page/<n>/), and the names of the
# content files that define a list or a bundle (_index.md, index.md).
RESERVED: Final = frozenset({"index", "index.html", "index.xml", "_index", "page"})
# A segment is a directory name in the published site and, for a run or campaign, a file name
# with ".json" appended in the build dir; file systems allow 255 bytes per name.
MAX_SEGMENT_BYTES: Final = 255 - len(".json")
# Characters Hugo keeps in a path besides letters, digits and marks.
_KEPT = frozenset("._-+~@#\\/")
# Kept by Hugo, but then the segment is not the path: a separator, or what a URL decodes.
_REFUSED = {
    "/": "a path separator",
    "\\": "a path separator",
    "%": "a URL escape",
    "#": "a URL fragment",
}


class PageNameError(ValueError):
    """A name that cannot be a path segment; the message says why."""


def page_segment(name: str) -> str:
    """The path segment Hugo publishes `name` under; raises PageNameError when it is refused."""
    # Unassigned in this Python's Unicode tables, a character may be a letter to Hugo's.
    hidden = next((c for c in name if unicodedata.category(c)[0] == "C"), None)
    if hidden is not None:
        raise PageNameError(
            f"{name!r} holds U+{ord(hidden):04X}, a control, invisible or unassigned character"
        )
    segment = _hugo_segment(name)
    size = len(segment.encode())
    if size > MAX_SEGMENT_BYTES:
        raise PageNameError(
            f"{reprlib.repr(name)} becomes a path segment of {size:,} bytes, over the limit "
            f"of {MAX_SEGMENT_BYTES} (one file name)"
        )
    shown = f"{name!r} becomes the path segment {segment!r}"
    if not segment:
        raise PageNameError(f"{name!r} has no letter or digit to name a page by")
    refused = next((c for c in segment if c in _REFUSED), None)
    if refused is not None:
        raise PageNameError(f"{shown}, whose {refused!r} is {_REFUSED[refused]}")
    if segment.startswith(".") or segment.endswith("."):
        raise PageNameError(f"{shown}, which starts or ends with a dot")
    if segment in RESERVED:
        raise PageNameError(f"{shown}, the name of a list page's own file or folder")
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", segment).casefold())
    if folded != segment:
        raise PageNameError(
            f"{shown}, which Unicode folds to {folded!r}: a reader could not tell them apart"
        )
    return segment


def _hugo_segment(name: str) -> str:
    """Hugo's path for a term: lowercased character by character as Go does (`İ` to `i`, where
    Python's full mapping adds a combining dot), each space a hyphen; then Hugo's
    paths.Sanitize: other white space becomes a hyphen before the next kept character unless
    that is one, and whatever is not kept is dropped."""
    lowered = "".join(c.lower()[0] for c in name).replace(" ", "-")
    kept: list[str] = []
    hyphen_due = was_hyphen = False
    for index, char in enumerate(lowered):
        if _kept(lowered, index, char):
            was_hyphen = char == "-"
            if hyphen_due and not was_hyphen:
                kept.append("-")
            hyphen_due = False
            kept.append(char)
        elif kept and not was_hyphen and unicodedata.category(char)[0] == "Z":
            hyphen_due = True
    return "".join(kept)


def _kept(text: str, index: int, char: str) -> bool:
    if char == "%":  # only as the start of an escape
        escape = text[index + 1 : index + 3]
        return len(escape) == 2 and all(c in string.hexdigits for c in escape)
    category = unicodedata.category(char)
    return char in _KEPT or category[0] in "LM" or category == "Nd"
