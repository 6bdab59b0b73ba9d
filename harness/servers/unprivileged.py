"""The account a sandbox server runs as when the harness runs as root and the my.cnf is not the
user's own (a reproduced run): `nobody`. It owns no file on the host, so the server and its
installer can write only where every user may and in the sandbox directories given to it;
the harness, still root, reads the error log and removes everything after the stop."""

from __future__ import annotations

import os
import pwd
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from harness.errors import UserError

ACCOUNT = "nobody"


class AsAccount(TypedDict, total=False):
    """subprocess keywords that start a child as another account; none: as the harness."""

    user: int
    group: int
    extra_groups: list[int]


@dataclass(frozen=True)
class Account:
    name: str
    uid: int
    gid: int

    @classmethod
    def when_root(cls, name: str | None) -> Account | None:
        """The account to drop to: None when not asked for or when not running as root."""
        if name is None or os.geteuid() != 0:
            return None
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            raise UserError(f"{name}: no such user to run the server as") from None
        return cls(name, entry.pw_uid, entry.pw_gid)

    def popen(self) -> AsAccount:
        """subprocess keywords that start the child as this account, without root's groups."""
        return {"user": self.uid, "group": self.gid, "extra_groups": []}

    def give(self, *paths: Path) -> None:
        for path in paths:
            os.chown(path, self.uid, self.gid)

    def give_tree(self, root: Path) -> None:
        """root and everything under it (a datadir copied by root)."""
        self.give(root)
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                os.chown(os.path.join(folder, name), self.uid, self.gid, follow_symlinks=False)

    def check_writable(self, directory: Path, hint: str) -> None:
        """UserError when this account cannot enter and write directory (a parent closed to
        other users, such as a home directory of mode 0700)."""
        probe = ["test", "-w", str(directory), "-a", "-x", str(directory)]
        if subprocess.run(probe, check=False, **self.popen()).returncode != 0:
            raise UserError(
                f"{directory}: the server runs as {self.name}, which cannot write there"
                f" (a parent directory is closed to other users); {hint}"
            )
