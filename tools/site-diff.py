#!/usr/bin/env python3
"""Show how the published site differs between two revisions of the repository.

Usage: .venv/bin/python tools/site-diff.py REV_A [REV_B]

Each revision's committed `data/` is built into a site by that revision's own generator, layouts
and site configuration: the revision is exported with `git archive` into a temporary directory
and built there with this interpreter (whose virtualenv supplies the dependencies and Hugo) and
`PYTHONPATH` pointing at the export. Without REV_B the working tree, as it is, stands for B. Every
`HUGO*` variable is removed from the builds' environment, as `make build` does, so neither
build depends on the caller's shell.

Prints the files only in A, the files only in B and the files that differ (text files with the
start of a unified diff). Exits 0 when the two sites are identical, 1 when they differ, 2 when a
revision does not build.
"""

from __future__ import annotations

import difflib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Enough of each text diff to see what changed without burying the other files.
DIFF_LINES_PER_FILE = 20
BUILD = (
    "from pathlib import Path; import generator; "
    "generator.build_site([Path('data')], Path(sys.argv[1]), Path(sys.argv[2]), base_url='/')"
)


def export(revision: str, destination: Path) -> Path:
    """The tracked files of `revision`, extracted under `destination`."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", revision],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(destination, filter="tar")
    return destination


def build(checkout: Path, scratch: Path) -> Path:
    """Build checkout's data/ with checkout's own code; returns the public/ directory."""
    public = scratch / "public"
    env = {name: value for name, value in os.environ.items() if not name.startswith("HUGO")}
    env["PYTHONPATH"] = str(checkout)
    subprocess.run(
        [sys.executable, "-c", f"import sys; {BUILD}", str(scratch / "build"), str(public)],
        cwd=checkout,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return public


def files(tree: Path) -> set[str]:
    return {str(path.relative_to(tree)) for path in tree.rglob("*") if path.is_file()}


def text_diff(a: Path, b: Path, name: str) -> list[str]:
    try:
        a_lines = a.read_text(encoding="utf-8").splitlines()
        b_lines = b.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        return ["    (binary files differ)"]
    diff = list(difflib.unified_diff(a_lines, b_lines, f"a/{name}", f"b/{name}", lineterm=""))
    shown = [f"    {line}" for line in diff[:DIFF_LINES_PER_FILE]]
    if len(diff) > DIFF_LINES_PER_FILE:
        shown.append(f"    ... ({len(diff) - DIFF_LINES_PER_FILE} more diff lines)")
    return shown


def compare(a: Path, b: Path) -> list[str]:
    """The report lines on public trees a and b; empty when they are identical."""
    a_files, b_files = files(a), files(b)
    report = [f"only in A: {name}" for name in sorted(a_files - b_files)]
    report += [f"only in B: {name}" for name in sorted(b_files - a_files)]
    for name in sorted(a_files & b_files):
        if (a / name).read_bytes() != (b / name).read_bytes():
            report += [f"differs: {name}", *text_diff(a / name, b / name, name)]
    return report


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="site-diff-") as temp:
        scratch = Path(temp)
        publics = []
        for side, revision in zip("ab", [*argv, None][:2], strict=True):
            label = revision or "the working tree"
            print(f"building {side.upper()}: {label}", file=sys.stderr)
            try:
                checkout = export(revision, scratch / side / "src") if revision else REPO
                publics.append(build(checkout, scratch / side))
            except subprocess.CalledProcessError as error:
                stderr = error.stderr.decode(errors="replace").strip() if error.stderr else ""
                print(f"{label} does not build {stderr}", file=sys.stderr)
                return 2
        report = compare(*publics)
    print("\n".join(report) if report else "the two sites are identical")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
