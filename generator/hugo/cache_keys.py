"""What each cache entry's files depend on, hashed into its key (the store: cache.py).

Every key starts from the code version: the sources of generator/ and contract/ (templates
included; not their Markdown READMEs, which no code reads), the JSON Schemas, the inferno version tools/ensure-inferno.sh pins, and the installed versions of the libraries that shape the output.
Editing any of them, or upgrading a pin, makes every entry miss. On top of it:

- a document's validity: its file name and bytes;
- a run's files: its document's bytes and those of its campaign cell's other runs, since its
  facts list the cell's passes (`run_facts` reads `cells[cell_key(run)]`); nothing else a run's
  files show comes from another run;
- a campaign's summary and overlay figures: the bytes of each of its runs;
- the site-wide files (indexes, guide tables, configs): the bytes of every run;
- a recurring campaign's history: the bytes of each run of its name and its known changes.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from importlib.metadata import version
from pathlib import Path

from contract._known_changes import KNOWN_CHANGES_SCHEMA_PATH
from contract._profiles import PROFILE_SCHEMA_PATH
from contract._validate import SCHEMA_PATH
from generator.pages.schema_doc import CAMPAIGN_SCHEMA_PATH

REPO = Path(__file__).resolve().parents[2]
CODE_DIRS = (REPO / "generator", REPO / "contract")
# The flame graphs' SVG is inferno's: the script that pins its version stands for it.
INFERNO_PIN = REPO / "tools" / "ensure-inferno.sh"
SCHEMA_FILES = (
    SCHEMA_PATH, CAMPAIGN_SCHEMA_PATH, PROFILE_SCHEMA_PATH, KNOWN_CHANGES_SCHEMA_PATH, INFERNO_PIN,
)  # fmt: skip
# The distributions whose version changes a byte of a generated file (figures, numbers, SVG,
# replay.sh, validation verdicts, change points).
LIBRARIES = (
    "plotly", "numpy", "scipy", "tsdownsample", "Jinja2", "jsonschema", "jsonschema-rs",
    "apache-otava",
)  # fmt: skip


def _sources() -> list[Path]:
    return sorted(
        path
        for folder in CODE_DIRS
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".md"
    )


def code_version() -> str:
    """The hash of the generator's code, the schemas and the pinned libraries' versions."""
    digest = hashlib.sha256(f"python {sys.version_info[:2]}\n".encode())
    for path in [*_sources(), *SCHEMA_FILES]:
        name = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name
        content = path.read_bytes()
        digest.update(f"{name} {len(content)}\n".encode() + content)
    for library in LIBRARIES:
        digest.update(f"{library}=={version(library)}\n".encode())
    return digest.hexdigest()


def document_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def key(code: str, *parts: str | Iterable[str]) -> str:
    """The hash of the code version and parts (a string, or a sequence of them in order)."""
    digest = hashlib.sha256(code.encode())
    for part in parts:
        for item in [part] if isinstance(part, str) else part:
            digest.update(b"\0" + item.encode())
        digest.update(b"\1")
    return digest.hexdigest()
