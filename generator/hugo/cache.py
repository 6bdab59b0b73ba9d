"""The generator's cache: files a build derived, stored under a key that hashes everything they
were derived from (generator/hugo/cache_keys.py), so the next build redoes only what changed.

It lives in the build dir (`build/.cache/<kind>/<key>`); `make clean` or deleting that folder
clears it. An entry is written atomically and opens with a SHA-256 of its content: an entry that
does not match (a truncated write, a disk error, an edit) is dropped and its files are derived
again, never published. Entries this build did not use are deleted by `prune`, so the cache holds
one build's worth and a removed run leaves nothing behind.

Entry layout: MAGIC, the 32-byte SHA-256 of the payload, then the payload: per file, the
path's length (4 bytes) and the content's (8 bytes), big-endian, then the path and the content.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

MAGIC = b"mybench-cache 1\n"
_LENGTHS = struct.Struct(">IQ")
_DIGEST_SIZE = 32


def _encode(files: dict[str, bytes]) -> bytes:
    parts = []
    for rel, content in files.items():
        path = rel.encode()
        parts += [_LENGTHS.pack(len(path), len(content)), path, content]
    payload = b"".join(parts)
    return MAGIC + hashlib.sha256(payload).digest() + payload


def _decode(entry: bytes) -> dict[str, bytes] | None:
    """The files of an entry, or None when it is not a whole, intact entry."""
    start = len(MAGIC) + _DIGEST_SIZE
    payload = memoryview(entry)[start:]
    if (
        not entry.startswith(MAGIC)
        or hashlib.sha256(payload).digest() != entry[len(MAGIC) : start]
    ):
        return None
    files: dict[str, bytes] = {}
    offset = 0
    while offset < len(payload):
        if offset + _LENGTHS.size > len(payload):
            return None
        path_size, content_size = _LENGTHS.unpack_from(payload, offset)
        offset += _LENGTHS.size
        end = offset + path_size + content_size
        if end > len(payload):
            return None
        files[bytes(payload[offset : offset + path_size]).decode()] = bytes(
            payload[offset + path_size : end]
        )
        offset = end
    return files


class Cache:
    """Entries of one build dir for one code version (cache_keys.code_version, the start of
    every key); records which were missing or dropped (`derived`) and which this build used
    (for `prune`)."""

    def __init__(self, root: Path, code: str) -> None:
        self.root = root
        self.code = code
        self.derived: list[str] = []  # "<kind>/<name>" of every entry this build had to make
        self.dropped: list[str] = []  # "<kind>/<name>" of every damaged entry found
        self._used: dict[str, set[str]] = {}

    def _path(self, kind: str, key: str) -> Path:
        return self.root / kind / key

    def get(self, kind: str, name: str, key: str) -> dict[str, bytes] | None:
        """The stored files of (kind, key), or None (noted as to derive) when there are none
        or the entry is damaged; name says what the entry is for, in `derived`."""
        self.keep(kind, key)
        path = self._path(kind, key)
        try:
            entry = path.read_bytes()
        except FileNotFoundError:
            self.derived.append(f"{kind}/{name}")
            return None
        files = _decode(entry)
        if files is None:
            path.unlink(missing_ok=True)
            self.dropped.append(f"{kind}/{name}")
            self.derived.append(f"{kind}/{name}")
        return files

    def holds(self, kind: str, name: str, key: str) -> bool:
        """Whether (kind, key) has an entry, without reading it (noted as to derive when not)."""
        self.keep(kind, key)
        if self._path(kind, key).is_file():
            return True
        self.derived.append(f"{kind}/{name}")
        return False

    def keep(self, kind: str, key: str) -> None:
        """Keep (kind, key) through `prune` without reading it: its files are in place."""
        self._used.setdefault(kind, set()).add(key)

    def put(self, kind: str, key: str, files: dict[str, bytes]) -> None:
        self.keep(kind, key)
        path = self._path(kind, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{key}.partial")
        partial.write_bytes(_encode(files))
        partial.replace(path)

    def prune(self) -> int:
        """Delete the entries (and partial writes) this build did not use; returns how many."""
        removed = 0
        for folder in sorted(self.root.glob("*")) if self.root.is_dir() else []:
            used = self._used.get(folder.name, set())
            for entry in folder.iterdir():
                if entry.name not in used:
                    entry.unlink()
                    removed += 1
        return removed
