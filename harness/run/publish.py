"""Writing a run document into the results directory, and keeping it when that fails."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import contract
from harness.errors import UserError


def publish(document: dict, runs_dir: Path) -> Path:
    """Write a run document atomically; when the results directory cannot take it (a full
    disk, a read-only mount) or the document fails the schema (a harness bug), the
    measurements go to the temp directory instead of being lost."""
    try:
        return contract.write_run(document, runs_dir)
    except contract.RunExistsError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        cause = f"{runs_dir}: cannot write run {document['id']} ({exc.strerror or exc})"
        raise UserError(rescued(document, runs_dir, cause)) from None
    except ValueError as exc:  # write_run's schema check
        cause = f"run {document['id']} not written: {exc}"
        raise UserError(rescued(document, runs_dir, cause)) from None


def rescued(document: dict, runs_dir: Path, cause: str) -> str:
    """Save a run that could not be published to the temp directory; returns the message."""
    rescue = Path(tempfile.gettempdir()) / f"{document['id']}.json"
    try:
        rescue.write_text(json.dumps(document, indent=1) + "\n")
    except OSError:
        return f"{cause}; it could not be saved elsewhere either"
    return f"{cause}; saved to {rescue}, move it into {runs_dir} later"
