"""What a run document says about the code that measured it: one snapshot per campaign.

The snapshot is taken once, when a campaign starts (and reused by `mybench run --resume`), so
every run of the campaign names the same code however the checkout moves while it runs:

- the commit (HEAD) and whether the harness's inputs were clean;
- when they were not, the changes themselves as one `git apply`-able diff (tracked changes
  against HEAD plus new files git does not ignore), stored content-addressed beside the results
  as `<data>/provenance/<sha256>.diff`;
- the campaign file's text and SHA-256;
- the tools and the project's own workload code: sysbench's version, Python and PyMySQL, and the
  SHA-256 of every Lua script and Insert Benchmark module.

The campaign file and the diff are recorded with the secret rule applied (contract/_secrets.py:
a password in a restart_command, a variant's report_password), and their hashes are those of
the recorded text, so neither the text nor a hash of it gives a credential away.

The harness's inputs are the paths in INPUTS: what decides what a campaign runs and how it is
recorded. Changes elsewhere (articles, site, generator, tests) and the results themselves cannot
change a measurement: they are neither counted nor stored.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness import PROJECT_ROOT, __version__
from harness.errors import UserError

# Paths (git pathspecs, relative to the project root) whose changes make a tree dirty.
INPUTS = ("cli", "harness", "contract", "campaigns", "data/schema", "pyproject.toml")
# The project's workload code whose hashes the snapshot lists, by folder and suffix.
WORKLOAD_CODE = (
    ("harness/workloads/sysbench/lua", ".lua"),
    ("harness/workloads/tpcc/lua", ".lua"),
    ("harness/workloads/ibench", ".py"),
)
PROVENANCE_DIR = "provenance"  # under the results directory
SHOWN_CHANGES = 10  # changed files named in a refusal before "and N more"


def _git(*args: str) -> str | None:
    """git's stdout in the project root; None where git or the repository is missing."""
    try:
        result = subprocess.run(
            ["git", *args], check=False, cwd=PROJECT_ROOT, capture_output=True, text=True
        )
    except FileNotFoundError:  # a results machine need not have git; the run then says null
        return None
    # `git diff --no-index` exits 1 when the files differ, which is what it is asked for.
    return result.stdout if result.returncode in (0, 1) else None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class TreeState:
    """The checkout as git sees it: HEAD, the changed input files and their diff."""

    commit: str | None
    changed: list[str] | None  # None: not a git checkout, cleanliness unknown
    diff: str

    @classmethod
    def read(cls) -> TreeState:
        head = _git("rev-parse", "--verify", "HEAD")
        if head is None:
            return cls(None, None, "")
        tracked = _git("diff", "HEAD", "--name-only", "-z", "--", *INPUTS) or ""
        untracked = _git("ls-files", "--others", "--exclude-standard", "-z", "--", *INPUTS) or ""
        new_files = sorted(filter(None, untracked.split("\0")))
        diff = _git("diff", "HEAD", "--binary", "--", *INPUTS) or ""
        for path in new_files:
            diff += _git("diff", "--no-index", "--binary", "--", os.devnull, path) or ""
        diff = contract.redact_text(diff)
        changed = sorted({*filter(None, tracked.split("\0")), *new_files})
        return cls(head.strip(), changed, diff)


def _file_hashes() -> dict[str, str]:
    hashes = {}
    for folder, suffix in WORKLOAD_CODE:
        for path in sorted((PROJECT_ROOT / folder).glob(f"*{suffix}")):
            hashes[f"{folder}/{path.name}"] = _sha256(path.read_bytes())
    return hashes


def take_snapshot(campaign_file: Path, sysbench_version: str) -> tuple[contract.Harness, str]:
    """The harness section every run of a campaign carries, and the diff text it names
    ("" for a clean tree); store_diff writes that diff beside the results."""
    tree = TreeState.read()
    text = contract.redact_text(campaign_file.read_text(encoding="utf-8"))
    snapshot: contract.Snapshot = {
        "taken_at": contract.utc_timestamp(),
        "changed_files": tree.changed,
        "campaign_file": {
            "path": relative_to_project(campaign_file),
            "sha256": _sha256(text.encode()),
            "text": text,
        },
        "tools": {
            "sysbench": sysbench_version,
            "python": platform.python_version(),
            "pymysql": pymysql.__version__,
        },
        "files": _file_hashes(),
    }
    if tree.diff:
        digest = _sha256(tree.diff.encode())
        snapshot["diff"] = {"path": f"{PROVENANCE_DIR}/{digest}.diff", "sha256": digest}
    harness: contract.Harness = {
        "version": __version__,
        "git_commit": tree.commit,
        "snapshot": snapshot,
    }
    if tree.changed is not None:
        harness["git_dirty"] = bool(tree.changed)
    return harness, tree.diff


def store_diff(harness: contract.Harness, diff: str, data_dir: Path) -> None:
    """Write the snapshot's diff as <data>/provenance/<sha256>.diff, atomically; a file of that
    name already holds the same bytes, so it is kept as it is."""
    stored = harness["snapshot"].get("diff")
    if stored is None:
        return
    target = data_dir / stored["path"]
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".diff.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(diff.encode())
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(tmp_name, 0o644)
        try:
            os.link(tmp_name, target)
        except FileExistsError:  # another campaign stored the same diff meanwhile
            pass
    finally:
        os.unlink(tmp_name)


def refuse_dirty(harness: contract.Harness, data_dir: Path) -> None:
    """A campaign writing into the project's own data/ must name code that is in a commit."""
    changed = harness["snapshot"]["changed_files"]
    if not changed or data_dir.resolve() != (PROJECT_ROOT / "data").resolve():
        return
    named = ", ".join(changed[:SHOWN_CHANGES])
    if len(changed) > SHOWN_CHANGES:
        named += f" and {len(changed) - SHOWN_CHANGES} more"
    raise UserError(
        f"{PROJECT_ROOT}: uncommitted changes in {named}; commit them before writing into"
        f" {data_dir}, or pass --allow-dirty to record them as a stored diff"
    )


def same_code(recorded: contract.Harness, current: contract.Harness) -> list[str]:
    """What differs between a campaign's recorded snapshot and the checkout now (empty: the
    same code), so a resumed campaign's runs never claim code that did not run."""
    was, now = recorded["snapshot"], current["snapshot"]
    differences = []
    if recorded["git_commit"] != current["git_commit"]:
        differences.append(f"commit {recorded['git_commit']} is now {current['git_commit']}")
    if was.get("diff") != now.get("diff"):
        differences.append("the uncommitted changes differ")
    if was["campaign_file"]["sha256"] != now["campaign_file"]["sha256"]:
        differences.append(f"{now['campaign_file']['path']} changed")
    changed_files = sorted(
        path
        for path in was["files"].keys() | now["files"].keys()
        if was["files"].get(path) != now["files"].get(path)
    )
    differences += [f"{path} changed" for path in changed_files]
    if was["tools"] != now["tools"]:
        differences.append(f"tools {was['tools']} are now {now['tools']}")
    return differences


def relative_to_project(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)
