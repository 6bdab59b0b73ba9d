"""Publish a directory all at once: build beside it, then exchange the two names in one step.

Hugo writes its output file by file, so building straight into the published directory leaves a
half-written (or, with --cleanDestinationDir, a half-emptied) site when it fails. Here the new
tree is built in a fresh sibling `.<name>.new-*` (same file system) and takes the published name
only once it is complete, by renameat2(2) with RENAME_EXCHANGE: one atomic step after which the
sibling's name holds the previous tree, which is then removed. Killed at any point, the published
path is the old tree or the new one, never missing; a first publish (nothing there yet) is one
plain rename.

Why an exchange rather than a symlink to a versioned directory, swapped by renaming a new link
over it (atomic too): the published path stays a plain directory, which is what its readers
expect. The Pages workflow tars it, users rsync it (without a trailing slash rsync copies a link,
not the site) or serve it with `python -m http.server --directory`, `make clean` removes it with
`rm -rf` (which would remove only the link and leave every version behind).

RENAME_EXCHANGE needs Linux 3.15, glibc 2.28 and a file system that implements it: ext4, xfs,
btrfs and tmpfs do, overlayfs too (it refuses with EXDEV to move a directory of a lower layer, as
it refuses a plain rename); NFS and some FUSE file systems do not. Where it is refused the swap
falls back to three renames (published to `.<name>.old-*`, new tree to published, old tree to the
new one's name). The fallback guarantees less: the published path is missing between its first
two renames. A build killed there leaves the previous tree complete in `.<name>.old-*`, and the
next build puts it back before anything else, so the path stays missing only until then.

Leftovers: a build killed at any point leaves at most `.<name>.new-*` (a partial new tree, or the
old tree being removed), `.<name>.old-*` and the lock file `.<name>.lock`. The next build, holding
the lock, removes them (the lock file when it ends). It matches those names exactly: leftovers of
another published name in the same directory, or any other file there, are never touched. The
lock is an flock held from start to end, so builds into one path run one after another and
cleaning never touches a tree another build is writing.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
# What renameat2 answers when this kernel or file system cannot exchange two names.
_CANNOT_EXCHANGE = {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP}


def _load_renameat2() -> Callable[..., int] | None:
    """The C library's renameat2, or None where it has none (glibc before 2.28, non-Linux)."""
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except AttributeError:
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


_RENAMEAT2 = _load_renameat2()


def _exchange(first: Path, second: Path) -> None:
    """Swap two existing names atomically; OSError(EOPNOTSUPP or renameat2's) when it cannot."""
    if _RENAMEAT2 is None:
        raise OSError(errno.EOPNOTSUPP, "the C library has no renameat2", str(first))
    if _RENAMEAT2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE):
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(first), None, str(second))


def _exchange_by_renames(fresh: Path, published: Path) -> None:
    """The fallback: the same end state by three renames, published missing between the first
    two (the previous tree then waits complete under its `.old-` name)."""
    suffix = fresh.name.removeprefix(f".{published.name}.new-")
    previous = published.parent / f".{published.name}.old-{suffix}"
    published.rename(previous)
    try:
        fresh.rename(published)
    except OSError:
        previous.rename(published)
        raise
    previous.rename(fresh)


def _swap_in(fresh: Path, published: Path) -> None:
    """Give fresh the published name; fresh's name then holds the previous tree, if there was one."""
    if not os.path.lexists(published):
        fresh.rename(published)
        return
    try:
        _exchange(fresh, published)
    except OSError as error:
        if error.errno not in _CANNOT_EXCHANGE:
            raise
        _exchange_by_renames(fresh, published)


def _leftovers(published: Path) -> list[Path]:
    """This published path's build folders in its parent: `.<name>.new-*` and `.<name>.old-*`
    with tempfile's suffix characters, no other name."""
    shape = re.compile(rf"\.{re.escape(published.name)}\.(?:new|old)-[a-z0-9_]+")
    return sorted(path for path in published.parent.iterdir() if shape.fullmatch(path.name))


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _clear_leftovers(published: Path) -> None:
    """Remove what killed builds left; first, if the fallback swap was killed between its
    renames (published missing, the previous tree aside), put the previous tree back."""
    leftovers = _leftovers(published)
    aside = [path for path in leftovers if path.name.startswith(f".{published.name}.old-")]
    if not os.path.lexists(published) and len(aside) == 1:
        aside[0].rename(published)
        leftovers.remove(aside[0])
    for path in leftovers:
        _remove(path)


def _still_at(descriptor: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(descriptor), os.stat(path))
    except FileNotFoundError:
        return False


@contextmanager
def _locked(published: Path) -> Iterator[None]:
    """Hold an exclusive flock on `.<name>.lock` beside `published`, waiting for a build that
    holds it. The file is removed on the way out, so a waiter that locked the removed file
    (it opened it before) sees that and locks the file now at that path instead."""
    path = published.parent / f".{published.name}.lock"
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        except BaseException:
            os.close(descriptor)
            raise
        if _still_at(descriptor, path):
            break
        os.close(descriptor)
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
        os.close(descriptor)


@contextmanager
def staged(published: Path) -> Iterator[Path]:
    """Yield an empty directory beside `published`; it replaces `published` when the block
    succeeds and is deleted when it raises. Leftovers of killed builds go first."""
    published.parent.mkdir(parents=True, exist_ok=True)
    with _locked(published):
        _clear_leftovers(published)
        fresh = Path(tempfile.mkdtemp(prefix=f".{published.name}.new-", dir=published.parent))
        umask = os.umask(0)
        os.umask(umask)
        fresh.chmod(0o777 & ~umask)  # mkdtemp's 0700 would make the published site private
        try:
            yield fresh
            _swap_in(fresh, published)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)  # the unfinished tree, or the replaced one
