"""The repository explains itself: no tracked file outside data/ cites a document the
repository does not hold, or an issue by its number. A reader of a clone has neither the
project's shared notes nor its issue tracker, so knowledge a reader needs is written down here:
in a module docstring, a README beside the code, or the guide (content/guide/).

data/ is left out: run documents record what was true when they were written.
"""

from __future__ import annotations

import re
import subprocess

from tests.helpers.paths import REPO

THIS_FILE = "tests/project/test_self_contained.py"
# Documents that live outside the repository. The guide's own workloads page
# (content/guide/workloads.md, linked by path or by Hugo's relref) is in it.
OUTSIDE_DOCUMENTS = re.compile(
    r"\.\./shared"
    r"|(?<!content/guide/)(?<!relref \")\bworkloads\.md"
    r"|\b(?:hugo_plotly|publishing_anchors|ARCHITECTURE|STYLE|DEVELOPERS)\.md"
)
# "issue 8", "issues 3 and 4", "PR #12", "fixes #7", or a bare "(#12)". A "#333" colour or a
# "tuned #1" label is not an issue reference.
ISSUE_REFERENCE = re.compile(
    r"\b(?:issues?|PRs?|pull requests?|fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s+#?\d+\b"
    r"|\(#\d+\)",
    re.IGNORECASE,
)


def citations(text: str) -> list[str]:
    """Each line of text that cites something outside the repository."""
    return [
        line.strip()
        for line in text.splitlines()
        if OUTSIDE_DOCUMENTS.search(line) or ISSUE_REFERENCE.search(line)
    ]


def tracked_text_files() -> list[str]:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    return [name for name in names if name and not name.startswith("data/") and name != THIS_FILE]


def test_no_file_cites_what_the_repository_does_not_hold() -> None:
    found = {}
    for name in tracked_text_files():
        path = REPO / name
        if path.is_symlink() or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if lines := citations(text):
            found[name] = lines

    assert not found, "citations of documents or issues outside the repository:\n" + "\n".join(
        f"  {name}: {line}" for name, lines in found.items() for line in lines
    )


def test_citation_patterns() -> None:
    # Samples are spliced so that this file itself cites nothing a reader could try to follow.
    cited = [
        "see workloads" + ".md W3",
        "# Issue 9's first article",
        "(issue 5's check)",
        "fixed in PR #12",
        "as agreed (#12)",
        "from ../" + "shared/notes.txt",
        "read ARCHITECTURE.md first",
        "the hugo_plotly.md recipe",
    ]
    not_cited = [
        "[Workloads](content/guide/workloads.md)",
        '[Workloads]({{< relref "workloads.md#how-results-are-judged" >}})',
        "color: #333;",
        "--bg: light-dark(#ffffff, #161616);",
        '{"tuned #1", "tuned #2"}',
        "the issue of 8 threads",
    ]

    assert [line for line in cited if not citations(line)] == []
    assert [line for line in not_cited if citations(line)] == []
