"""Writing a run document into the results directory, and keeping it when that fails."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import contract
from harness.errors import UserError


class RunNotWritten(UserError):
    """A measured run did not reach the results directory; the message says where it went."""


def publish(document: dict, runs_dir: Path) -> Path:
    """Write a run document atomically; when the results directory cannot take it (a full
    disk, a read-only mount) or the document fails the schema (a harness bug), the
    measurements go to the temp directory instead of being lost."""
    try:
        return contract.write_run(document, runs_dir)
    except contract.RunExistsError as exc:
        raise RunNotWritten(str(exc)) from None
    except OSError as exc:
        cause = f"{runs_dir}: cannot write run {document['id']} ({exc.strerror or exc})"
        saved = rescued(document, f"move it into {runs_dir} before resuming")
        raise RunNotWritten(f"{cause}; {saved}") from None
    except ValueError as exc:  # write_run's schema check
        cause = f"run {document['id']} not written: {exc}"
        raise RunNotWritten(f"{cause}; {rescued(document, 'a harness bug to report')}") from None


def rescued(document: dict, then: str) -> str:
    """Save a run that could not be published to the temp directory, atomically and under a
    name no other file has (<id>.json, else <id>-2.json ...); returns where it went, or why
    it could not be saved, followed by `then` (what to do with it)."""
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    directory = Path(tempfile.gettempdir())
    rescue, attempt = directory / f"{document['id']}.json", 1
    while True:
        try:
            contract.write_new_file(rescue, text)
            return f"saved to {rescue}, {then}"
        except FileExistsError:
            attempt += 1
            rescue = directory / f"{document['id']}-{attempt}.json"
        except OSError as exc:
            return f"it could not be saved in {directory} either ({exc.strerror or exc})"
