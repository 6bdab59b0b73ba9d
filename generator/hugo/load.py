"""Read every data directory through the contract; fail as a whole if any document is unusable
or two would share a page.

A build plans from outlines, not documents: per run its file, the SHA-256 of its bytes and the
few fields the plan needs (id, campaign cell, pass order, taxonomy terms), so an archive of
100,000 runs is planned in a few megabytes; each document is parsed inside the unit that
derives from it (build_tree.py). The documents not found valid before are validated on every
core (parallel.py), each with its profile file if it names one (contract.load_profile: a
missing, altered or malformed profile refuses the build like a bad run file). With a cache, a file validated before (same name, bytes and code version:
generator/hugo/cache_keys.py) is not parsed at all: its outline is the memo's; and one whose
size, modification time and inode (and its profile file's) are those the memo recorded is not
even read. A profile file whose stat moved has its run checked again.
"""

from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, TypedDict, cast

import contract
from generator.analysis.repeats import cell_key, repeat_index
from generator.analysis.server_starts import start_key
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import document_digest, key
from generator.hugo.errors import InvalidData
from generator.hugo.parallel import in_order
from generator.hugo.provenance_files import snapshot_diff
from generator.hugo.term_pages import term_problems
from generator.pages.pfs_waits import is_waits_pass
from generator.pages.run_terms import run_terms


class RunOutline(TypedDict):
    """What planning a build needs of a run document."""

    id: str
    cell: tuple[str, str, str]  # analysis.repeats.cell_key: campaign, variant, workload
    name: str  # its campaign file's name: the runs of one name form a history
    order: tuple[int, str, str]  # a cell's pass order: repeat index, started_at, id
    terms: dict[str, str]  # pages/run_terms.run_terms
    diff: dict[str, str] | None  # provenance_files.snapshot_diff
    reproduces: str | None  # the id of the run it reproduces, if any
    start: str  # analysis.server_starts.start_key, as JSON: the runs of its server start
    profile: str | None  # its profile file, relative to its data dir (contract.load_profile)
    waits_pass: bool  # a waits pass (pages/pfs_waits.py): never one of its cell's passes


class PlannedRun(NamedTuple):
    path: Path
    digest: str  # of the bytes validated (cache_keys.document_digest)
    outline: RunOutline

    @property
    def id(self) -> str:
        return self.outline["id"]

    @property
    def campaign(self) -> str:
        return self.outline["cell"][0]


class RunFile(NamedTuple):
    """A run document with its file, for callers that want every document at once."""

    path: Path
    doc: contract.RunDocument


def outline_of(run: contract.RunDocument) -> RunOutline:
    return {
        "id": run["id"],
        "cell": cell_key(run),
        "name": run["campaign"]["name"],
        "order": (repeat_index(run), run["started_at"], run["id"]),
        "terms": run_terms(run),
        "diff": snapshot_diff(run),
        "reproduces": run["reproduces"]["run_id"] if "reproduces" in run else None,
        "start": json.dumps(start_key(run)),
        "profile": run.get("profile", {}).get("file"),
        "waits_pass": is_waits_pass(run),
    }


def _outline(stored: dict[str, object]) -> RunOutline:
    """An outline as read back from JSON (its tuples were stored as lists)."""
    cell, order = cast(list[str], stored["cell"]), cast(list[object], stored["order"])
    return cast(RunOutline, {**stored, "cell": tuple(cell), "order": tuple(order)})


# size, modification time (ns), inode: of the run file, then of its profile file if it has one
Stat = tuple[int, ...]
NO_STAT: Stat = (0, 0, 0)


def _stat(path: Path) -> Stat:
    found = path.stat()
    return found.st_size, found.st_mtime_ns, found.st_ino


def data_dir_of(run_file: Path) -> Path:
    """The results directory of a run file (<data dir>/runs/<id>.json), which its profile file
    is named relative to."""
    return run_file.parent.parent


def _files_stat(path: Path, profile: str | None) -> Stat:
    """The run file's stat, then its profile file's; OSError when either is gone."""
    return _stat(path) + (_stat(data_dir_of(path) / profile) if profile else ())


class _Remembered(TypedDict):
    stat: Stat
    digest: str
    outline: RunOutline


# A file modified this close to the memo being taken may be rewritten again within the clock's
# granularity, keeping its size and time: it is read and hashed anyway (git's "racy" entries).
RACY_NS = 2_000_000_000


class ValidatedBefore:
    """What the last successful build found valid, one cache entry for the code version: per run
    file name, its stat, the digest of its bytes and its outline. A file with the stat recorded
    (and not racy) is not read; one whose bytes have the recorded digest is not parsed. The
    memo is stored by `store`, once the whole load succeeded: a refused build writes nothing.
    Every document validated is noted in the cache's `derived` as valid/<file name>."""

    KIND = "valid"
    MEMO = "memo.json"

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        self._key = key(cache.code, "memo")
        entry = cache.get(self.KIND, "memo", self._key) or {}
        memo: dict[str, Any] = json.loads(entry.get(self.MEMO, b'{"taken": 0, "runs": {}}'))
        self._trusted_before: int = memo["taken"] - RACY_NS
        self._runs: dict[str, _Remembered] = {
            name: {
                "stat": tuple(run["stat"]),
                "digest": run["digest"],
                "outline": _outline(run["outline"]),
            }
            for name, run in memo["runs"].items()
        }
        self._found: dict[str, _Remembered] = {}

    def known(self, path: Path) -> tuple[str, RunOutline] | None:
        """The digest and outline of the file as it is now, if found valid before."""
        remembered = self._runs.get(path.name)
        if remembered is None:
            return None
        stat = _files_stat(path, remembered["outline"]["profile"])
        if stat == remembered["stat"] and all(t < self._trusted_before for t in stat[1::3]):
            digest = remembered["digest"]
        elif stat[3:] != remembered["stat"][3:] or any(
            t >= self._trusted_before for t in stat[4::3]
        ):
            return None  # the profile file moved, or may have: checked again with its run
        elif (digest := document_digest(path.read_bytes())) != remembered["digest"]:
            return None
        self._found[path.name] = {**remembered, "stat": stat}
        return digest, remembered["outline"]

    def add(self, path: Path, stat: Stat, digest: str, outline: RunOutline) -> None:
        """A file found valid now, with its stat taken before it was read."""
        self.cache.derived.append(f"{self.KIND}/{path.name}")
        self._found[path.name] = {"stat": stat, "digest": digest, "outline": outline}

    def store(self) -> None:
        memo = {"taken": time.time_ns(), "runs": dict(sorted(self._found.items()))}
        self.cache.put(self.KIND, self._key, {self.MEMO: json.dumps(memo).encode()})
        self._found.clear()


class _Checked(NamedTuple):
    stat: Stat
    digest: str
    outline: RunOutline | None  # None: not usable
    problems: list[contract.Problem]


def _check(path: Path) -> _Checked:
    """Validate one run file and its profile file (in a pool worker): what a plan keeps of it,
    or its problems."""
    try:
        stat = _stat(path)  # before reading: a later change then shows as a new stat
        raw = path.read_bytes()
    except OSError as exc:
        return _Checked(NO_STAT, "", None, [contract.unreadable(path, exc)])
    run, problems = contract.check_run(str(path), raw)
    outline = run and outline_of(run)
    if run is not None and outline is not None and outline["profile"]:
        try:
            stat += _stat(data_dir_of(path) / outline["profile"])
        except OSError:
            pass  # load_profile names the file it cannot read
        problems += contract.load_profile(data_dir_of(path), run)[1]
    return _Checked(stat, document_digest(raw), outline, problems)


def _known(path: Path, memo: ValidatedBefore | None) -> _Checked | None:
    """The memo's outline of the file as it is now, or None when it must be validated."""
    if memo is None:
        return None
    try:
        found = memo.known(path)
    except OSError:
        return None  # _check reports it
    return _Checked(NO_STAT, *found, []) if found else None


def plan_runs(data_dirs: list[Path], memo: ValidatedBefore | None = None) -> list[PlannedRun]:
    """Every run of every data dir, sorted by id; raises InvalidData listing every problem
    (per data dir, its files' in name order, then stray files; then ids used twice and terms
    that cannot name a page or would share one)."""
    listed = [contract.run_files(Path(data_dir)) for data_dir in data_dirs]
    checked = {path: _known(path, memo) for paths, _ in listed for path in paths}
    pending = [path for path, found in checked.items() if found is None]
    results = in_order([partial(_check, path) for path in pending])
    for path, found in zip(pending, results, strict=True):
        checked[path] = found
        if memo is not None and found.outline is not None and not found.problems:
            memo.add(path, found.stat, found.digest, found.outline)
    loaded: dict[str, PlannedRun] = {}
    problems: list[contract.Problem] = []
    for paths, strays in listed:
        dir_runs = []
        for path in paths:
            _, digest, outline, found_problems = cast(_Checked, checked[path])
            problems += found_problems
            if outline is not None:
                dir_runs.append(PlannedRun(path, digest, outline))
        problems += strays
        for run in dir_runs:
            if run.id in loaded:
                why = f"id also used by {loaded[run.id].path}"
                problems.append(contract.Problem(str(run.path), "$.id", why))
                continue
            loaded[run.id] = run
    runs = [loaded[run_id] for run_id in sorted(loaded)]
    problems += term_problems([(run.path, run.outline["terms"]) for run in runs])
    if problems:
        raise InvalidData(problems)
    return runs


def read_document(run: PlannedRun) -> tuple[contract.RunDocument, bytes]:
    """The planned run's document and bytes; raises InvalidData when the file changed since it
    was validated."""
    raw = run.path.read_bytes()
    if document_digest(raw) != run.digest:
        why = "changed while the site was being built; build again"
        raise InvalidData([contract.Problem(str(run.path), "$", why)])
    # Strict parsing only refuses what a valid file cannot hold: plain json reads it alike.
    return cast(contract.RunDocument, json.loads(raw)), raw


def read_profile(run: PlannedRun, doc: contract.RunDocument) -> contract.ProfileFile | None:
    """The planned run's profile file, checked again as it is read (its run's hash names its
    bytes); None for a run without one. Raises InvalidData when it fails."""
    if not run.outline["profile"]:
        return None
    profile, problems = contract.load_profile(data_dir_of(run.path), doc)
    if problems:
        raise InvalidData(problems)
    return profile


def planned(path: Path) -> PlannedRun:
    """The plan of one run file known to be valid (a test's, a tool's)."""
    raw = path.read_bytes()
    return PlannedRun(path, document_digest(raw), outline_of(json.loads(raw)))


def load_runs(data_dirs: list[Path], memo: ValidatedBefore | None = None) -> list[RunFile]:
    """Every run document of every data dir, sorted by id (plan_runs, then each parsed)."""
    return [RunFile(run.path, read_document(run)[0]) for run in plan_runs(data_dirs, memo)]


def load_known_changes(
    data_dirs: list[Path], campaign_ids: set[str]
) -> list[contract.KnownChange]:
    """The known changes of every data dir (contract.load_known_changes); raises InvalidData
    naming file and field when one cannot be read, or names as `since` no campaign among
    campaign_ids (a typo would silence nothing)."""
    known: list[contract.KnownChange] = []
    problems: list[contract.Problem] = []
    for data_dir in data_dirs:
        found, refused = contract.load_known_changes(Path(data_dir))
        known += found
        problems += refused
    for change in known:
        if change["since"] not in campaign_ids:
            file, where = change["source"]
            why = f"no campaign {change['since']!r} among the runs"
            problems.append(contract.Problem(file, f"{where}.since", why))
    if problems:
        raise InvalidData(problems)
    return known
