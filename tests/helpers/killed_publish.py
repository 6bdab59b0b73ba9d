"""A child process for the publishing tests: publish a tree with generator/hugo/swap.py, and
SIGKILL the publish just before one of its file-system calls, so a test can kill it at every point.

    python killed_publish.py SWAP_PY TREE_JSON MODES PUBLISHED...

It publishes TREE_JSON ({relative file name: text}) at each PUBLISHED path, printing `N call`
before each watched call of the Nth path's publish. MODES, comma-separated (or `-`):
- `kill-each`: the Nth path's publish runs in a forked process that is SIGKILLed before its Nth
  call; the child prints `N killed` when it was (one fork per path keeps this to one start of
  Python, and this process has no threads that a fork could break);
- `renames`: the swap takes its fallback, as on a C library without renameat2;
- `hold`: once the tree is written, print `holding` and wait for a line on stdin before the swap.

It loads swap.py by its path (stdlib only): importing the generator package takes a second.
"""

from __future__ import annotations

import fcntl
import importlib.util
import io
import json
import os
import signal
import sys
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

# Every call through which a publish changes the file system (os.open and io.open also open for
# reading: a few extra points, harmless).
WATCHED = {
    id(function): name
    for function, name in [
        (os.open, "open"),
        (io.open, "open-file"),
        (os.mkdir, "mkdir"),
        (os.chmod, "chmod"),
        (os.rename, "rename"),
        (os.replace, "replace"),
        (os.rmdir, "rmdir"),
        (os.unlink, "unlink"),
        (fcntl.flock, "flock"),
    ]
}
EXCHANGE = "_exchange"  # swap.py's own function around the renameat2 call (made through ctypes)


def write_tree(root: Path, tree: dict[str, str]) -> None:
    for name, text in tree.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def publish(
    swap: ModuleType,
    number: int,
    published: Path,
    tree: dict[str, str],
    kill_before: int = 0,
    hold: bool = False,
) -> None:
    """Publish `tree`, printing each watched call; SIGKILL this process before call `kill_before`
    (0: none)."""
    calls = 0

    def before_each_call(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "c_call" and id(arg) in WATCHED:
            name = WATCHED[id(arg)]
        elif (
            event == "call" and frame.f_code.co_name == EXCHANGE and frame.f_globals is vars(swap)
        ):
            name = "renameat2"
        else:
            return
        calls += 1
        print(number, name, flush=True)
        if calls == kill_before:
            os.kill(os.getpid(), signal.SIGKILL)

    sys.setprofile(before_each_call)
    with swap.staged(published) as fresh:
        write_tree(fresh, tree)
        if hold:
            print("holding", flush=True)
            sys.stdin.readline()
    sys.setprofile(None)


def main(swap_py: str, tree_json: str, modes: str, *published: str) -> None:
    spec = importlib.util.spec_from_file_location("swap", swap_py)
    assert spec is not None and spec.loader is not None
    swap = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(swap)
    if "renames" in modes.split(","):
        swap._RENAMEAT2 = None
    tree = json.loads(tree_json)
    for number, path in enumerate(published, 1):
        if "kill-each" not in modes.split(","):
            publish(swap, number, Path(path), tree, hold="hold" in modes.split(","))
            continue
        child = os.fork()
        if child == 0:
            publish(swap, number, Path(path), tree, kill_before=number)  # a raise ends it too
            os._exit(1)  # not killed: it had fewer calls than that
        _, status = os.waitpid(child, 0)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            print(number, "killed", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
