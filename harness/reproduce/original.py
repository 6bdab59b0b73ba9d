"""Find the run to reproduce: a run id in the data directories, a path to its run.json, or the
URL of its run.json or of its run page (http, https or file). A run page links its document as
`runs/<id>/run.json` (layouts/runs/page.html); that link is followed."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from harness import PROJECT_ROOT
from harness.errors import UserError

URL_SCHEMES = ("http", "https", "file")
RUN_DOCUMENT = "run.json"  # the name a site publishes each run's document under
FETCH_TIMEOUT_S = 30


@dataclass(frozen=True)
class Original:
    document: dict
    source: str  # the URL, or the file's path relative to the repository root
    data_dir: Path | None  # the data directory holding it as runs/<id>.json, when one does


class _DocumentLinks(HTMLParser):
    """The href of every link whose path ends in run.json."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href") if tag == "a" else None
        if href and urlsplit(href).path.endswith(f"/{RUN_DOCUMENT}"):
            self.links.append(href)


def _fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as response:
            return bytes(response.read())
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UserError(f"{url}: cannot fetch it: {reason}") from None


def _parse(raw: bytes, where: str) -> dict:
    try:
        document = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{where}: not a JSON run document: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("id"), str):
        raise UserError(f"{where}: id is missing: not a run document")
    return document


def _from_url(url: str) -> Original:
    raw = _fetch(url)
    if raw.lstrip()[:1] == b"{":
        return Original(_parse(raw, url), url, None)
    finder = _DocumentLinks()
    finder.feed(raw.decode("utf-8", errors="replace"))
    if not finder.links:
        raise UserError(f"{url}: neither a run document nor a run page linking its {RUN_DOCUMENT}")
    document_url = urljoin(url, finder.links[0])
    return Original(_parse(_fetch(document_url), document_url), document_url, None)


def _shown(path: Path) -> str:
    """A path inside the repository relative to it, so a recorded source names no home dir."""
    path = path.resolve()
    return str(path.relative_to(PROJECT_ROOT)) if path.is_relative_to(PROJECT_ROOT) else str(path)


def _holding_dir(path: Path, run_id: str) -> Path | None:
    """The data directory of path when it is <data>/runs/<id>.json."""
    path = path.resolve()
    if path.name == f"{run_id}.json" and path.parent.name == "runs":
        return path.parent.parent
    return None


def _from_file(path: Path) -> Original:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read it: {exc.strerror}") from None
    document = _parse(raw, str(path))
    return Original(document, _shown(path), _holding_dir(path, document["id"]))


def find_original(run: str, data_dirs: list[Path]) -> Original:
    """The document RUN names, wherever it is; UserError naming RUN when it is nowhere."""
    if urlsplit(run).scheme in URL_SCHEMES:
        return _from_url(run)
    if Path(run).is_file():
        return _from_file(Path(run))
    for data_dir in data_dirs:
        if (path := data_dir / "runs" / f"{run}.json").is_file():
            return _from_file(path)
    looked = ", ".join(str(data_dir / "runs") for data_dir in data_dirs)
    raise UserError(
        f"{run}: no such run in {looked} (give a run id, a path to a run.json, or its URL)"
    )


def data_dir_holding(run_id: str, data_dirs: list[Path]) -> Path | None:
    """The first data directory that holds run_id, so a fetched copy is never a duplicate."""
    return next((d for d in data_dirs if (d / "runs" / f"{run_id}.json").is_file()), None)
