"""Publish a directory all at once: build beside it, then swap it in by rename.

Hugo writes its output file by file, so building straight into the published directory leaves a
half-written (or, with --cleanDestinationDir, a half-emptied) site when it fails. Here the new
tree is built in a fresh sibling directory (same file system, so rename is atomic) and takes
the published name only once it is complete; on failure the published tree is not touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _swap_in(fresh: Path, published: Path) -> None:
    """Rename fresh to published; the previous tree goes aside first and is removed after."""
    if not published.exists():
        fresh.rename(published)
        return
    previous = Path(tempfile.mkdtemp(prefix=f".{published.name}.old-", dir=published.parent))
    previous.rmdir()  # only its unique name is wanted
    published.rename(previous)
    try:
        fresh.rename(published)
    except OSError:
        previous.rename(published)
        raise
    shutil.rmtree(previous)


@contextmanager
def staged(published: Path) -> Iterator[Path]:
    """Yield an empty directory beside `published`; it replaces `published` when the block
    succeeds and is deleted when it raises."""
    published.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{published.name}.new-", dir=published.parent))
    umask = os.umask(0)
    os.umask(umask)
    fresh.chmod(0o777 & ~umask)  # mkdtemp's 0700 would make the published site private
    try:
        yield fresh
        _swap_in(fresh, published)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
