"""The pause between two thread levels (`[sweep] sleep_seconds`) as a reader's shell runs it: the
harness records it among a run's `reproduce.commands` (harness/workloads/sysbench/driver.py),
`mybench reproduce` reads it back and the generator's replay.sh keeps it
(generator/replay/commands.py). For a run recorded before the pause was a command, the campaign
file its provenance snapshot keeps says how long the harness paused.
"""

from __future__ import annotations

import tomllib

from contract._run_document import RunDocument

PAUSE_PURPOSE = "pause between thread levels"


def pause_command(seconds: float) -> str:
    return f"sleep {seconds:g}"


def snapshot_pause(run: RunDocument) -> float | None:
    """The pause the run's campaign file set, in seconds; None when the document keeps no
    campaign file, or the file leaves the pause to a preset (its suite's value is the
    harness's, not recorded)."""
    snapshot = run["harness"].get("snapshot")
    if snapshot is None:
        return None
    try:
        campaign = tomllib.loads(snapshot["campaign_file"]["text"])
    except tomllib.TOMLDecodeError:
        return None
    seconds = campaign.get("sweep", {}).get("sleep_seconds")
    if seconds is None:
        return None if "suite" in run["workload"] else 0.0  # campaign.schema.json's default
    is_number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
    return float(seconds) if is_number and seconds >= 0 else None
