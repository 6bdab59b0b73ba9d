"""What a run page says about the code that measured it (its facts' provenance).

A run with `harness.snapshot` names the code its campaign started with: the commit, whether the
harness's inputs were clean, the stored diff when they were not, the campaign file, tools and
workload code hashes. An older run only recorded the commit HEAD pointed at when its document
was written, which may not be the code that ran; the page says so rather than vouch for it.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument


def provenance_facts(run: RunDocument) -> dict[str, Any]:
    harness = run["harness"]
    facts: dict[str, Any] = {
        "commit": harness["git_commit"],
        "dirty": harness.get("git_dirty"),
        "version": harness["version"],
    }
    snapshot = harness.get("snapshot")
    if snapshot is None:
        return {**facts, "snapshot": None}
    diff = snapshot.get("diff")
    return {
        **facts,
        "snapshot": {
            "taken_at": snapshot["taken_at"],
            "changed_files": snapshot["changed_files"],
            # served at the same path below the site root (hugo/provenance_files.py)
            "diff_url": diff["path"] if diff else None,
            "campaign_file": {
                key: snapshot["campaign_file"][key] for key in ("path", "sha256", "text")
            },
            "tools": snapshot["tools"],
            "files": snapshot["files"],
        },
    }
