"""Write run documents atomically and never over an existing run."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from contract._run_document import RunDocument
from contract._validate import validate_document


class RunExistsError(FileExistsError):
    pass


def write_run(doc: RunDocument, runs_dir: Path) -> Path:
    """Validate, then publish <id>.json with a temp file + link so a reader never sees half a file.

    os.link fails when the target exists, which makes "never overwrite" race-free too.
    """
    target = runs_dir / f"{doc['id']}.json"
    problems = validate_document(doc, str(target))
    if problems:
        raise ValueError("run document fails the schema: " + "; ".join(map(str, problems)))
    runs_dir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, indent=1, sort_keys=False, ensure_ascii=False) + "\n"
    try:
        write_new_file(target, text)
    except FileExistsError:
        raise RunExistsError(f"{target}: a run with this id already exists") from None
    return target


def write_new_file(target: Path, text: str, private: bool = False) -> None:
    """Write text to target through a temp file + link beside it: a reader sees the whole file
    or none, and FileExistsError (nothing written) when target is already there. A private
    file is readable by its owner only (mode 0600) from the start."""
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".tmp", dir=target.parent)
    try:
        if not private:  # mkstemp makes 0600; results are meant to be shared
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8") as tmp:
            tmp.write(text)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.link(tmp_name, target)
    finally:
        os.unlink(tmp_name)
