"""Keep the build dir's generated folders (site_contract.OWNED_SUBDIRS) equal to this build's
derivations (build_tree.derivations), doing work only for what changed.

The cache (cache.py) holds a manifest of what the last build wrote: per derivation, its key and
its files' sizes. A derivation with the manifest's key whose files are all in place at those
sizes is skipped without reading anything. The others' files come from the cache or are derived
(on every core: parallel.py), then written only where their bytes differ, so a watching
`hugo server` sees only what moved. Files no derivation produced (a removed run's) are deleted.
One walk over the generated folders (names and sizes) is what every build pays.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TypedDict, cast

from generator.hugo import site_contract as site
from generator.hugo.build_tree import Derivation, Pieces, split_pieces
from generator.hugo.cache import Cache
from generator.hugo.parallel import in_order

MANIFEST_KIND, MANIFEST_NAME = "tree", "manifest"  # one entry, keyed by its name
MANIFEST_FILE = "manifest.json"
PIECES_KIND = "pieces"  # the pieces of a unit (build_tree.PIECE), under the unit's key


class Written(TypedDict):
    """What the build dir holds of one derivation."""

    key: str
    files: dict[str, int]  # relative path -> size


Manifest = dict[str, Written]  # derivation label -> what it wrote


def _tree_sizes(build_dir: Path) -> dict[str, int]:
    """Relative path -> size of every file under the generated folders."""
    sizes: dict[str, int] = {}
    stack = [(str(build_dir / sub), sub) for sub in site.OWNED_SUBDIRS]
    while stack:
        folder, rel = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, f"{rel}/{entry.name}"))
            else:
                sizes[f"{rel}/{entry.name}"] = entry.stat(follow_symlinks=False).st_size
    return sizes


def _in_place(recorded: Written | None, key: str, sizes: dict[str, int]) -> bool:
    if recorded is None or recorded["key"] != key:
        return False
    return all(sizes.get(rel) == size for rel, size in recorded["files"].items())


def _files(
    stale: list[Derivation], cache: Cache, pieces: Pieces, joined: set[str]
) -> Iterator[tuple[Derivation, dict[str, bytes]]]:
    """Each stale derivation with its files, in order, one at a time: from the cache, else
    derived (on every core) and stored; the pieces of a derived unit of a joined kind go to
    their own entry, and into pieces. An entry found damaged is derived here."""
    missing = [d for d in stale if not (d.kind and cache.holds(d.kind, d.name, d.key))]
    derived = zip(missing, in_order([d.derive for d in missing]), strict=True)
    upcoming = next(derived, None)
    for derivation in stale:
        if upcoming and upcoming[0] is derivation:
            files = upcoming[1]
            upcoming = next(derived, None)
        else:
            stored = (
                cache.get(derivation.kind, derivation.name, derivation.key)
                if derivation.kind
                else None
            )
            if stored is not None:
                yield derivation, stored
                continue
            files = derivation.derive()
        published, own = split_pieces(files)
        if derivation.kind:
            cache.put(derivation.kind, derivation.key, published)
        if derivation.kind in joined:
            cache.put(PIECES_KIND, derivation.key, own)
            pieces[derivation.label] = own
        yield derivation, published


def _joined_pieces(
    found: list[Derivation], kinds: set[str], cache: Cache, pieces: Pieces
) -> Pieces:
    """The pieces of every unit of kinds, in the derivations' order: derived this build, else
    their entries, else (an entry lost) the unit derived again for them."""
    units = [d for d in found if d.kind in kinds]
    for d in units:
        if d.label not in pieces and (own := cache.get(PIECES_KIND, d.name, d.key)) is not None:
            pieces[d.label] = own
    lost = [d for d in units if d.label not in pieces]
    for derivation, files in zip(lost, in_order([d.derive for d in lost]), strict=True):
        pieces[derivation.label] = split_pieces(files)[1]
        cache.put(PIECES_KIND, derivation.key, pieces[derivation.label])
    return {d.label: pieces[d.label] for d in units}


def _all_files(
    stale: list[Derivation], found: list[Derivation], cache: Cache, joined_kinds: set[str]
) -> Iterator[tuple[Derivation, dict[str, bytes]]]:
    """_files of the stale derivations: the joining ones after all others, from their pieces."""
    pieces: Pieces = {}
    yield from _files([d for d in stale if not d.joins], cache, pieces, joined_kinds)
    if joining := [d for d in stale if d.joins]:
        joined = _joined_pieces(found, joined_kinds, cache, pieces)
        with_pieces = [d._replace(derive=partial(d.derive, joined)) for d in joining]
        yield from _files(with_pieces, cache, pieces, joined_kinds)


class _Landing:
    """The files of one build, staged as they are derived and landed together at its end.

    Every file is written in the staging folder, which Hugo does not watch, and lands by one
    rename: a reader (a watching `hugo server`, an interrupted build's next run) never sees half
    a file, and a new folder (a new run's figures and downloads) lands whole, as one event. The
    renames wait for the last unit, so a watching `hugo server` sees one burst and rebuilds once
    (it rebuilds for each burst it sees, and each rebuild first checks every page it holds), and
    an interrupted build lands nothing. It takes a burst of more than 50 events for a mass edit and
    then rebuilds every page; one new run moves about 30 files and folders in all."""

    def __init__(self, build_dir: Path) -> None:
        self.root = str(build_dir)
        self.staging = build_dir / site.STAGING_DIR
        shutil.rmtree(self.staging, ignore_errors=True)  # what an interrupted build left there
        self.staging.mkdir(parents=True)
        self._names = itertools.count()  # a staged name no other staged file or folder has
        self._present: dict[str, bool] = {}  # folder (relative) -> it exists in the build dir
        self._new_folders: dict[str, str] = {}  # folder (relative) -> where it is staged
        self._made: set[str] = set()  # staged folders made so far
        self._replacing: dict[str, str] = {}  # staged file -> the file it replaces

    def _new_folder(self, rel: str) -> str | None:
        """The outermost folder of rel's path that does not exist yet (relative), or None."""
        folder = ""
        for part in rel.split("/")[:-1]:
            folder = f"{folder}/{part}" if folder else part
            if folder not in self._present:
                self._present[folder] = os.path.isdir(os.path.join(self.root, folder))
            if not self._present[folder]:
                return folder
        return None

    def stage(self, files: dict[str, bytes], sizes: dict[str, int]) -> int:
        """Stage the files whose bytes differ from the build dir's (unchanged ones keep their
        mtime); returns how many. The same path staged again (a variables table many runs
        share) lands once, with the last bytes."""
        changed = 0
        for rel, content in files.items():
            target = os.path.join(self.root, rel)
            if sizes.get(rel) == len(content) and Path(target).read_bytes() == content:
                continue
            changed += 1
            folder = self._new_folder(rel)
            if folder is None:
                staged = os.path.join(self.staging, f"{next(self._names)}.{os.path.basename(rel)}")
                self._replacing[staged] = target
            else:
                if folder not in self._new_folders:
                    self._new_folders[folder] = os.path.join(self.staging, str(next(self._names)))
                staged = os.path.join(self._new_folders[folder], rel[len(folder) + 1 :])
                if (parent := os.path.dirname(staged)) not in self._made:
                    os.makedirs(parent, exist_ok=True)
                    self._made.add(parent)
            Path(staged).write_bytes(content)
        return changed

    def land(self) -> None:
        """Rename everything staged into place; the staging folder is gone after."""
        for staged, target in self._replacing.items():
            os.replace(staged, target)
        for folder, staged in sorted(self._new_folders.items()):
            os.rename(staged, os.path.join(self.root, folder))
        self.staging.rmdir()


def _remove(build_dir: Path, strays: list[str]) -> None:
    """Delete the files and the folders they leave empty (never a generated folder itself)."""
    emptied: set[Path] = set()
    for rel in strays:
        (build_dir / rel).unlink()
        emptied.update((build_dir / rel).parents)
    roots = {build_dir / sub for sub in site.OWNED_SUBDIRS}
    for folder in sorted(emptied, key=lambda path: len(path.parts), reverse=True):
        inside = folder.is_relative_to(build_dir) and folder not in roots and folder != build_dir
        if inside and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


def _manifest(cache: Cache) -> Manifest:
    entry = cache.get(MANIFEST_KIND, MANIFEST_NAME, MANIFEST_NAME) or {}
    return cast(Manifest, json.loads(entry[MANIFEST_FILE])) if MANIFEST_FILE in entry else {}


def sync_tree(build_dir: Path, found: list[Derivation], cache: Cache) -> int:
    """Make build_dir's generated folders hold exactly the derivations' files; returns how many
    files were written or deleted."""
    previous = _manifest(cache)
    landing = _Landing(build_dir)
    sizes = _tree_sizes(build_dir)
    stale = [d for d in found if not _in_place(previous.get(d.label), d.key, sizes)]
    stale_labels = {d.label for d in stale}
    changed = 0
    manifest: Manifest = {}
    joined_kinds = {kind for d in found for kind in d.joins}
    for derivation, files in _all_files(stale, found, cache, joined_kinds):
        changed += landing.stage(files, sizes)
        manifest[derivation.label] = {
            "key": derivation.key,
            "files": {rel: len(content) for rel, content in files.items()},
        }
    for derivation in found:
        if derivation.label not in stale_labels:
            manifest[derivation.label] = previous[derivation.label]
            if derivation.kind:
                cache.keep(derivation.kind, derivation.key)  # in place: its entry stays
        if derivation.kind in joined_kinds:
            cache.keep(PIECES_KIND, derivation.key)  # read when a joining unit is derived
    expected = {rel for recorded in manifest.values() for rel in recorded["files"]}
    strays = sorted(rel for rel in sizes if rel not in expected)
    landing.land()
    _remove(build_dir, strays)
    ordered = {d.label: manifest[d.label] for d in found}
    cache.put(MANIFEST_KIND, MANIFEST_NAME, {MANIFEST_FILE: json.dumps(ordered).encode()})
    return changed + len(strays)
