"""Writing a run document into the results directory, and keeping it when that fails.

A run the results directory cannot take (a full disk, a read-only mount) was validated: it is
saved as it is in the temp directory. A run validation refuses (a credential in clear, a
harness bug the schema catches) is kept in the results directory's runs/.refused/, which
neither validation nor the site reads, with the secret rule applied (contract/_secrets.py) and
readable by its owner only, so no measurement is lost and no credential lands on disk.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import contract
from harness.errors import UserError

REFUSED_DIR = ".refused"  # under runs/: a dot folder, skipped by contract.run_files


class RunNotWritten(UserError):
    """A measured run did not reach the results directory; the message says where it went."""


def publish(document: contract.RunDocument, runs_dir: Path) -> Path:
    """Write a run document atomically; when the results directory cannot take it or the
    document fails validation, the measurements are kept elsewhere instead of being lost."""
    try:
        return contract.write_run(document, runs_dir)
    except contract.RunExistsError as exc:
        raise RunNotWritten(str(exc)) from None
    except OSError as exc:
        cause = f"{runs_dir}: cannot write run {document['id']} ({exc.strerror or exc})"
        saved = rescued(document, f"move it into {runs_dir} before resuming")
        raise RunNotWritten(f"{cause}; {saved}") from None
    except ValueError as exc:  # write_run's validation: the schema, a credential in clear
        cause = f"run {document['id']} not written: {contract.redact_text(str(exc))}"
        raise RunNotWritten(f"{cause}; {kept_refused(document, runs_dir)}") from None


def rescued(document: contract.RunDocument, then: str) -> str:
    """Save a validated run that could not be published to the temp directory; returns where
    it went, or why it could not be saved, followed by `then` (what to do with it)."""
    directory = Path(tempfile.gettempdir())
    try:
        return f"saved to {_save_new(document, directory, private=False)}, {then}"
    except OSError as exc:
        return f"it could not be saved in {directory} either ({exc.strerror or exc})"


def kept_refused(document: contract.RunDocument, runs_dir: Path) -> str:
    """Keep a run validation refused, its credentials redacted, in runs/.refused/ (the temp
    directory when that cannot take it), mode 0600; returns where and what to do with it."""
    redacted = contract.redact_document(document)
    then = (
        f"it validates as kept: move it into {runs_dir} before resuming"
        if not contract.validate_document(redacted)
        else "a harness bug to report"
    )
    kept_in = runs_dir / REFUSED_DIR
    try:
        kept_in.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = _save_new(redacted, kept_in, private=True)
    except OSError as exc:
        cause = f"it could not be kept in {kept_in} ({exc.strerror or exc})"
        try:
            path = _save_new(redacted, Path(tempfile.gettempdir()), private=True)
        except OSError as again:
            return f"{cause}, nor in the temp directory ({again.strerror or again})"
        return f"{cause}; kept with credentials redacted in {path} (mode 0600), {then}"
    return f"kept with credentials redacted in {path} (mode 0600), {then}"


def _save_new(document: contract.RunDocument, directory: Path, private: bool) -> Path:
    """Write document atomically under a name no other file in directory has (<id>.json,
    else <id>-2.json ...); OSError when directory cannot take it."""
    identifier = document["id"]
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    path, attempt = directory / f"{identifier}.json", 1
    while True:
        try:
            contract.write_new_file(path, text, private)
            return path
        except FileExistsError:
            attempt += 1
            path = directory / f"{identifier}-{attempt}.json"
