"""Checks that read every page of a built site (tens of MB of HTML through a pure-Python
parser) spread the pages over one process per core."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def map_pages(read: Callable[[Path], T], pages: list[Path]) -> dict[Path, T]:
    """{page: read(page)} for every page, read in parallel; read must be a module-level
    function (it is sent to the worker processes by name)."""
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        return dict(zip(pages, pool.map(read, pages, chunksize=8), strict=True))
