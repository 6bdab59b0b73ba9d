"""Import each project module in a process of its own, forked from one interpreter that has
already imported every module from outside the project that the project names.

    python -m tests.helpers.import_alone <outside modules, comma-separated> <project module>...

prints one JSON object, {module: null | "what the import raised"}. A fresh interpreter per
module would spend most of its time importing numpy, scipy and plotly again; forked from the
preloaded one, each child starts with those and with no project module, which is what "imports
on its own" is about: no project module may need another to have been imported first.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import os
import sys


def preload(names: list[str]) -> None:
    """Import the outside modules; one that does not import here (an optional dependency the
    project guards) is left to the project module that names it."""
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:  # or `from a import b` where b is a name, not a module
            continue


def import_one(module: str) -> str | None:
    try:
        importlib.import_module(module)
    except BaseException as exc:  # noqa: BLE001 - whatever an import raises is its failure
        return f"{type(exc).__name__}: {exc}"
    return None


def main(argv: list[str]) -> None:
    outside, modules = argv[0].split(","), argv[1:]
    preload([name for name in outside if name])
    # one fresh fork per module (maxtasksperchild=1): no child sees another's imports
    with multiprocessing.get_context("fork").Pool(os.cpu_count(), maxtasksperchild=1) as pool:
        errors = pool.map(import_one, modules, chunksize=1)
    print(json.dumps(dict(zip(modules, errors, strict=True))))


if __name__ == "__main__":
    main(sys.argv[1:])
