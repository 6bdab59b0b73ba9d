"""Read every data directory through the contract; fail as a whole if any document is unusable
or two would share a page. With a cache, a file validated before (same name, bytes and code
version: generator/hugo/cache_keys.py) is only parsed."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import contract
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import document_digest, key
from generator.hugo.errors import InvalidData
from generator.hugo.term_pages import shared_term_pages


class RunFile(NamedTuple):
    path: Path
    doc: contract.RunDocument


class ValidatedBefore:
    """The cache's "valid" entries as the contract's validation memo (an entry holds no file).
    Documents found valid are stored by `store`, once the whole load succeeded: a refused build
    writes nothing."""

    KIND = "valid"

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        self._found: list[str] = []

    def _key(self, document: tuple[str, bytes]) -> str:
        name, raw = document
        return key(self.cache.code, name, document_digest(raw))

    def __contains__(self, document: tuple[str, bytes]) -> bool:
        return self.cache.get(self.KIND, document[0], self._key(document)) is not None

    def add(self, document: tuple[str, bytes]) -> None:
        self._found.append(self._key(document))

    def store(self) -> None:
        for found in self._found:
            self.cache.put(self.KIND, found, {})
        self._found.clear()


def load_runs(data_dirs: list[Path], memo: contract.ValidationMemo | None = None) -> list[RunFile]:
    """Every run of every data dir, sorted by id; raises InvalidData listing every problem."""
    loaded: dict[str, RunFile] = {}
    problems: list[contract.Problem] = []
    for data_dir in data_dirs:
        docs, dir_problems = contract.validate_dir(Path(data_dir), memo)
        problems += dir_problems
        for doc in docs:
            path = Path(data_dir) / "runs" / f"{doc['id']}.json"
            if doc["id"] in loaded:
                other = loaded[doc["id"]].path
                problems.append(contract.Problem(str(path), "$.id", f"id also used by {other}"))
                continue
            loaded[doc["id"]] = RunFile(path, doc)
    runs = [loaded[run_id] for run_id in sorted(loaded)]
    problems += shared_term_pages(runs)
    if problems:
        raise InvalidData(problems)
    return runs
