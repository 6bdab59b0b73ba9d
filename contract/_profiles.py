"""Profile files: the server's CPU profile of every measured step of a run, as folded stacks.

A run document's `profile` names its file, `profiles/<run id>.json` under the results directory
that holds `runs/`, and the SHA-256 of its bytes; `data/schema/profile-v1.schema.json` is its
schema. Frame names are stored once (`frames`) and each stack is a list of indexes into them,
root first, with its sample count: a few hundred kilobytes per run where folded text would be
megabytes. The harness keeps the hottest stacks of a step up to MAX_STACKS_PER_STEP and counts
the rest (`steps[].profile.kept_samples` of the run document), and a file over MAX_BYTES is
refused, so no profile can make a page too heavy to draw.

    write_profile(profile, data_dir) -> (path, sha256)      # the harness, before the run
    load_profile(data_dir, run) -> (profile | None, problems)  # the generator
    folded(profile, key) -> {("frame", "frame", ...): samples}
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypedDict, cast

from contract._run_document import AnyStep
from contract._validate import Problem, schema_problems
from contract._write import write_new_file

PROFILE_SCHEMA_PATH = (
    Path(__file__).resolve().parents[1] / "data" / "schema" / "profile-v1.schema.json"
)
PROFILE_SCHEMA_VERSION = 1
PROFILES_DIR = "profiles"
MAX_BYTES = 4 * 2**20
MAX_STACKS_PER_STEP = 5000

Stack = tuple[str, ...]


class ProfileStep(TypedDict):
    stacks: list[list[Any]]  # [[frame index, ...], samples]


class ProfileFile(TypedDict):
    schema_version: int
    run_id: str
    profiler: dict[str, Any]
    frames: list[str]
    steps: dict[str, ProfileStep]


def step_key(step: AnyStep) -> str:
    """The key of a run's step in its profile file: the Insert Benchmark step's name, else
    the sysbench thread level."""
    return str(step["step"]) if "step" in step else str(step["threads"])


def profile_file_name(run_id: str) -> str:
    return f"{PROFILES_DIR}/{run_id}.json"


def interned(
    run_id: str, profiler: Mapping[str, Any], steps: Mapping[str, Mapping[Stack, int]]
) -> ProfileFile:
    """The file's document from each step's folded stacks, hottest first."""
    index: dict[str, int] = {}
    by_step: dict[str, ProfileStep] = {}
    for key, stacks in steps.items():
        rows = []
        for stack, samples in sorted(stacks.items(), key=lambda item: (-item[1], item[0])):
            rows.append([[index.setdefault(frame, len(index)) for frame in stack], samples])
        by_step[key] = {"stacks": rows}
    return {
        "schema_version": PROFILE_SCHEMA_VERSION,
        "run_id": run_id,
        "profiler": dict(profiler),
        "frames": list(index),
        "steps": by_step,
    }


def write_profile(profile: ProfileFile, data_dir: Path) -> tuple[str, str]:
    """Validate, then write atomically and never over an existing file; returns the name the
    run document records (profiles/<id>.json) and the SHA-256 of the bytes written. ValueError
    when the document is refused, FileExistsError when the file is there already."""
    name = profile_file_name(profile["run_id"])
    encoded = _encoded(profile)
    problems = _problems(profile, name, len(encoded))
    if problems:
        raise ValueError("profile fails its schema: " + "; ".join(map(str, problems)))
    target = data_dir / name
    target.parent.mkdir(parents=True, exist_ok=True)
    write_new_file(target, encoded.decode())
    return name, hashlib.sha256(encoded).hexdigest()


def profile_fits(profile: ProfileFile) -> bool:
    """Whether the file is within MAX_BYTES (the harness keeps fewer stacks while it is not)."""
    return len(_encoded(profile)) <= MAX_BYTES


def _encoded(profile: ProfileFile) -> bytes:
    return (json.dumps(profile, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def load_profile(
    data_dir: Path, run: Mapping[str, Any]
) -> tuple[ProfileFile | None, list[Problem]]:
    """The run's profile file, checked: its schema, the hash the run recorded, the run id and
    profiler it names, and one entry per profiled step of the run. (None, []) for a run with no
    profile file; (None, problems naming the file and field) for one that fails."""
    recorded = run.get("profile") or {}
    if "file" not in recorded:
        return None, []
    path = data_dir / recorded["file"]
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(where, "$", f"cannot read the run's profile ({exc.strerror})")]
    if hashlib.sha256(raw).hexdigest() != recorded["sha256"]:
        why = f"SHA-256 differs from the one run {run['id']} recorded: not the file it wrote"
        return None, [Problem(where, "$", why)]
    try:
        document = json.loads(raw)
    except ValueError as exc:
        return None, [Problem(where, "$", f"not JSON: {exc}")]
    problems = _problems(document, where, len(raw)) or _agreement(document, run, where)
    return (None, problems) if problems else (cast(ProfileFile, document), [])


def folded(profile: ProfileFile, key: str) -> dict[Stack, int]:
    """One step's stacks as frame-name tuples, root first, with their samples."""
    frames = profile["frames"]
    step = profile["steps"].get(key)
    if step is None:
        return {}
    return {tuple(frames[i] for i in stack): samples for stack, samples in step["stacks"]}


def _problems(document: object, where: str, size: int) -> list[Problem]:
    if size > MAX_BYTES:
        return [Problem(where, "$", f"{size:,} bytes, over the limit of {MAX_BYTES:,}")]
    problems = schema_problems(document, where, PROFILE_SCHEMA_PATH)
    if problems:
        return problems
    document = cast(ProfileFile, document)
    frames = len(document["frames"])
    for key, step in document["steps"].items():
        for number, (stack, _) in enumerate(step["stacks"]):
            if any(i >= frames for i in stack):
                path = f"$.steps.{key}.stacks[{number}]"
                return [Problem(where, path, f"names a frame past the {frames} in frames")]
    return []


def _agreement(document: ProfileFile, run: Mapping[str, Any], where: str) -> list[Problem]:
    """The file belongs to the run: same id, same profiler, a step for every profiled step and
    no other, each with the kept samples the run recorded."""
    if document["run_id"] != run["id"]:
        return [Problem(where, "$.run_id", f"is {document['run_id']}, not run {run['id']}")]
    if document["profiler"] != run["profile"]["profiler"]:
        return [Problem(where, "$.profiler", "differs from the run's profile.profiler")]
    profiled = {step_key(step): step["profile"] for step in run["steps"] if "profile" in step}
    if set(profiled) != set(document["steps"]):
        why = f"steps {sorted(document['steps'])}, the run profiled {sorted(profiled)}"
        return [Problem(where, "$.steps", why)]
    for key, summary in profiled.items():
        kept = sum(samples for _, samples in document["steps"][key]["stacks"])
        if kept != summary["kept_samples"]:
            why = f"{kept} samples, the run recorded kept_samples {summary['kept_samples']}"
            return [Problem(where, f"$.steps.{key}", why)]
    return []
