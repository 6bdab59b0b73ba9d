"""Publishing is one step: a publish SIGKILLed before any of its file-system calls leaves the
published path a whole tree, old or new; the next build removes what it left, and only that."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.hugo.swap import staged
from tests.helpers import killed_publish
from tests.helpers.killed_publish import write_tree
from tests.helpers.paths import REPO

SWAP_PY = REPO / "generator" / "hugo" / "swap.py"
NAME = "pub"
OLD = {"index.html": "old home", "css/site.css": "old style"}
NEW = {"index.html": "new home", "css/site.css": "new style", "runs/r1/index.html": "a run"}
NEXT = {"index.html": "next home"}
# What killed builds of this path left: a partial new tree, a previous tree, a lock file.
OURS = {
    f".{NAME}.new-k1ll3d_a": {"index.html": "half"},
    f".{NAME}.old-k1ll3d_b": {"index.html": "old"},
    f".{NAME}.lock": "",
}
# Beside it, never touched: another published path and its leftovers, the leftovers of names
# that start like this one, names like ours in another case, without the dot, or with a suffix
# tempfile never makes.
NEIGHBOURS = {
    "pub2": {"index.html": "another site"},
    ".pub2.new-abcd1234": {"index.html": "its build"},
    ".pub2.old-abcd1234": {"index.html": "its previous"},
    ".pub2.lock": "",
    ".pub.x.new-abcd1234": {"a": "leftover of pub.x"},
    ".pub.new-ab.new-cd123456": {"a": "leftover of pub.new-ab"},
    ".pub.old-x.old-y": {"a": "leftover of pub.old-x"},
    ".PUB.new-abcd1234": {"a": "another case"},
    ".Pub.old-abcd1234": {"a": "another case"},
    "pub.new-abcd1234": {"a": "no dot"},
    ".pub.new-": {"a": "no suffix"},
    ".pub.new-ABCD": {"a": "upper-case suffix"},
    ".pub.lock.d": {"a": "longer lock name"},
    ".pub.old-notes.txt": "a file with a dot",
}


# The few of them laid out again for each point a publish is killed at.
BESIDE = {name: NEIGHBOURS[name] for name in ("pub2", ".pub2.new-abcd1234", ".pub.x.new-abcd1234")}


def lay_out(root: Path, published: dict[str, str] | None, beside: dict[str, object]) -> Path:
    """`root` holding the published tree (unless None), this path's leftovers, `beside`.
    Without a published tree there is no previous tree aside either (it would be put back)."""
    ours = {name: content for name, content in OURS.items() if published or ".old-" not in name}
    root.mkdir(parents=True, exist_ok=True)
    for name, content in {**ours, **beside, **({NAME: published} if published else {})}.items():
        if isinstance(content, dict):
            write_tree(root / name, content)
        else:
            (root / name).write_text(str(content))
    return root / NAME


def tree_of(path: Path) -> dict[str, str] | str | None:
    """A directory's files by relative name, a file's text, or None where nothing is."""
    if path.is_dir():
        return {str(f.relative_to(path)): f.read_text() for f in path.rglob("*") if f.is_file()}
    return path.read_text() if path.exists() else None


def others(published: Path) -> dict[str, object]:
    return {p.name: tree_of(p) for p in published.parent.iterdir() if p.name != NAME}


def _child(tree: dict[str, str], modes: list[str], published: list[Path]) -> list[str]:
    command = [killed_publish.__file__, SWAP_PY, json.dumps(tree), ",".join(modes) or "-"]
    return [sys.executable, *map(str, command + published)]


def calls_of_publish(published: Path, tree: dict[str, str], modes: list[str]) -> list[str]:
    """The watched calls of one publish, in order."""
    child = subprocess.run(
        _child(tree, modes, [published]), check=False, capture_output=True, text=True
    )
    assert child.returncode == 0, child.stderr
    return [line.split()[1] for line in child.stdout.splitlines()]


def kill_at_each_call(paths: list[Path], tree: dict[str, str], modes: list[str]) -> list[str]:
    """Publish at paths[n - 1] killed before its nth call, for every n: the calls killed before."""
    child = subprocess.run(
        _child(tree, [*modes, "kill-each"], paths), check=False, capture_output=True, text=True
    )
    assert child.returncode == 0, child.stderr
    lines = [line.split() for line in child.stdout.splitlines()]
    killed = {int(number) for number, call in lines if call == "killed"}
    assert killed == set(range(1, len(paths) + 1)), child.stdout
    last = {int(number): call for number, call in lines if call != "killed"}
    return [last[number] for number in range(1, len(paths) + 1)]


class Refused(Exception):
    pass


# (swap, the published tree before, what a kill may leave at the published path)
CASES = {
    "exchange": ([], OLD, [OLD, NEW]),
    "fallback renames": (["renames"], OLD, [OLD, NEW, None]),
    "first publish": ([], None, [None, NEW]),
}


@pytest.mark.parametrize("case", CASES)
def test_a_publish_killed_before_any_of_its_calls_leaves_a_whole_tree(tmp_path, case):
    modes, before, may_leave = CASES[case]
    calls = calls_of_publish(lay_out(tmp_path / "whole", before, BESIDE), NEW, modes)
    paths = [lay_out(tmp_path / str(n), before, BESIDE) for n in range(1, len(calls) + 1)]
    assert kill_at_each_call(paths, NEW, modes) == calls
    points = [f"killed before call {n} ({call})" for n, call in enumerate(calls, 1)]
    left = [tree_of(published) for published in paths]
    assert {
        point: state for point, state in zip(points, left, strict=True) if state not in may_leave
    } == {}
    for point, state, published in zip(points, left, paths, strict=True):
        # The next build, even one that fails, publishes the last whole tree (putting back the
        # one the fallback had set aside) and removes what the killed build left, nothing else.
        with pytest.raises(Refused), staged(published):
            raise Refused
        assert tree_of(published) == (before if state is None else state), point
        assert others(published) == BESIDE, point
        with staged(published) as fresh:
            write_tree(fresh, NEXT)
        assert tree_of(published) == NEXT, point
        assert others(published) == BESIDE, point
    assert [state for state in may_leave if state not in left] == []  # every state was reached
    # The swap was the exchange where the file system allows it, plain renames where not.
    assert ("rename" in calls) == (before is None or "renames" in modes), calls


def test_the_next_build_removes_only_this_path_s_leftovers(tmp_path):
    published = lay_out(tmp_path, OLD, NEIGHBOURS)
    with staged(published) as fresh:
        assert others(published) == {**NEIGHBOURS, f".{NAME}.lock": "", fresh.name: {}}
        write_tree(fresh, NEW)
    assert tree_of(published) == NEW
    assert others(published) == NEIGHBOURS


def _blocked_on(lock: Path) -> bool:
    """Whether /proc/locks shows a process waiting for an flock on `lock`."""
    if not lock.exists():
        return False
    inode = os.stat(lock).st_ino
    return any(
        "->" in line and "FLOCK" in line and f":{inode} " in line
        for line in Path("/proc/locks").read_text().splitlines()
    )


def _read_until_holding(child: subprocess.Popen[str]) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        if line.strip() == "holding":
            return
    pytest.fail(f"the child ended before holding: {child.wait()}")


def test_a_concurrent_build_waits_for_the_lock_and_leaves_the_running_one_alone(tmp_path):
    published = tmp_path / NAME
    write_tree(published, OLD)
    lock = tmp_path / f".{NAME}.lock"

    def holding_child(tree: dict[str, str]) -> subprocess.Popen[str]:
        return subprocess.Popen(
            _child(tree, ["hold"], [published]),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    first, second = holding_child(NEW), None
    try:
        _read_until_holding(first)
        building = [p for p in tmp_path.iterdir() if p.name.startswith(f".{NAME}.new-")]
        second = holding_child(NEXT)
        for _ in range(2000):  # a deadline for a broken lock, not a timing
            if _blocked_on(lock):
                break
            time.sleep(0.01)
        else:
            pytest.fail("the second build did not wait for the lock")
        # The waiting build cleaned nothing: the running build's tree is there, whole.
        assert [tree_of(p) for p in building] == [NEW]
        assert tree_of(published) == OLD
        first.communicate("go\n")
        assert first.returncode == 0
        _read_until_holding(second)  # it starts only now, after the first one's publish
        assert tree_of(published) == NEW
        second.communicate("go\n")
        assert second.returncode == 0
        assert tree_of(published) == NEXT
        assert others(published) == {}
    finally:
        for child in (first, second):
            if child is not None and child.poll() is None:
                child.kill()
                child.wait()
