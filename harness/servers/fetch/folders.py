"""Where an unpacked build keeps the files it reads at start, whatever its origin."""

from __future__ import annotations

from pathlib import Path

from harness.errors import UserError


def message_folders(root: Path) -> dict[str, str]:
    """lc_messages_dir and character_sets_dir of the build unpacked under root: a build looks
    for them where it was configured to live (/usr, /usr/local/mysql), not where it is."""
    messages = next(root.glob("**/english/errmsg.sys"), None)
    if messages is None:
        raise UserError(f"{root}: no english/errmsg.sys in the build")
    return {
        "lc_messages_dir": str(messages.parents[1]),
        "character_sets_dir": str(messages.parents[1] / "charsets"),
    }
