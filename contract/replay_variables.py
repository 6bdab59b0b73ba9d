"""The shell variables a run's recorded commands (`reproduce.commands`) name instead of the
measuring machine's paths, so a reader's `replay.sh` defines them once at its top.

The harness writes its commands with these references; the generator defines the variables and
turns the concrete paths of documents recorded before into the same references. One server
runs at a time, with one my.cnf, one socket and one port; the loaded datadir every variant
starts a copy of is PRISTINE.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

BASEDIR = "BASEDIR"  # the server build: its sbin/ or bin/ holds the server
MYCNF = "MYCNF"  # the run's my.cnf, placement lines pointing at the variables below
DATADIR = "DATADIR"  # the datadir the run measured
PRISTINE = "PRISTINE"  # the loaded, cleanly shut down datadir the run's copy came from
SOCKET = "SOCKET"  # the server's Unix socket (every client command connects through it)

# A path is replaced only as a whole word or as the leading part of a longer path: /usr in
# /usr/sbin/mariadbd, never in /usr2 or /opt/usr.
_BEFORE = r"(?<![\w./-])"
_AFTER = r"(?![\w.-])"


def reference(name: str) -> str:
    """How a command names a variable: double-quoted, so a path with spaces stays one word."""
    return f'"${name}"'


def in_variables(command: str, values: Mapping[str, str]) -> str:
    """`command` with each value (a path, by the variable it becomes) replaced by a reference.

    Longer values first, so a datadir under a work directory is not cut at the work directory.
    A value shlex had to quote (one holding a space) is left as it is: the reader edits it.
    """
    for name, value in sorted(values.items(), key=lambda item: -len(item[1])):
        if value:
            pattern = _BEFORE + re.escape(value) + _AFTER
            command = re.sub(pattern, reference(name), command)  # no backslash: taken literally
    return command
