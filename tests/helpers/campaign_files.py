"""Tiny campaign files written by tests: the required tables, and writing one to disk."""

from pathlib import Path

# A campaign's required tables with one sandbox and one variant: tests add sweeps and workloads.
HEAD = """
name = "t"
title = "T"
[servers.s]
kind = "sandbox"
[mycnf]
base = "[mysqld]\\n"
[variants.a]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "campaign.toml"
    path.write_text(text)
    return path
