"""The stored diffs of the campaigns' provenance snapshots, served by the site at the path they
have below the results directory (provenance/<sha256>.diff), so a run page's "modified harness"
links to the changes themselves."""

from __future__ import annotations

import hashlib
from pathlib import Path

from contract import RunDocument, redact_text
from generator.hugo import site_contract as site
from generator.hugo.errors import BuildError


def snapshot_diff(run: RunDocument) -> dict[str, str] | None:
    """The run's stored diff as recorded ({"path", "sha256"}), or None for a clean tree."""
    diff = run["harness"].get("snapshot", {}).get("diff")
    return None if diff is None else {"path": diff["path"], "sha256": diff["sha256"]}


def stored_diffs(diff: dict[str, str] | None, run_file: Path) -> dict[str, bytes]:
    """The build-dir file of a run's stored diff (snapshot_diff; none for a clean tree), read
    from the results directory holding run_file (<data>/runs/<id>.json); a missing or altered
    diff stops the build, since the page would link to what did not run, and so does one
    holding a credential in clear (the harness stores them redacted)."""
    if diff is None:
        return {}
    path = run_file.parent.parent / diff["path"]
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise BuildError(
            f"{run_file}: harness.snapshot.diff: cannot read {path} ({exc.strerror or exc})"
        ) from None
    if hashlib.sha256(content).hexdigest() != diff["sha256"]:
        raise BuildError(f"{path}: its SHA-256 is not the {diff['sha256']} {run_file} records")
    text = content.decode(errors="replace")
    if redact_text(text) != text:
        raise BuildError(f"{path}: holds an unredacted credential (a password or secret in clear)")
    return {site.static_file(diff["path"]): content}
