"""Find the run to reproduce: a run id in the data directories, a path to its run.json, or the
http(s) URL of its run.json or of its run page. A run page links its document as
`runs/<id>/run.json` (layouts/runs/page.html); that link is followed.

Only a document read from the data directories is trusted: any other (a URL, a file elsewhere)
is a stranger's, and its my.cnf is confined (harness/servers/confined_options.py).

Fetching is bounded: http and https only; one deadline for the whole fetch, redirects and a
followed run page included (a server sending a byte every few seconds is cut off); a size cap
checked while the body streams in; and no connection to an address that is not public
(private, loopback, link-local, unspecified ...) unless allowed: every address the host
resolves to is checked, on every redirect, and the connection goes to the address checked.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import threading
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import cast
from urllib.parse import urljoin, urlsplit

import contract
from harness import PROJECT_ROOT
from harness.errors import UserError

URL_SCHEMES = ("http", "https")
RUN_DOCUMENT = "run.json"  # the name a site publishes each run's document under
FETCH_DEADLINE_S = 30.0  # for the whole fetch, not per read
MAX_BYTES = 16 * 2**20  # a run document is well under 1 MiB
MAX_REDIRECTS = 5
CHUNK = 2**16
REDIRECTS = (301, 302, 303, 307, 308)
ALLOW_FLAG = "--allow-private-addresses"


@dataclass(frozen=True)
class Original:
    document: contract.RunDocument
    source: str  # the URL, or the file's path relative to the repository root
    data_dir: Path | None  # the data directory holding it as runs/<id>.json, when one does
    trusted: bool  # read from one of the data directories (the local archive)


class _DocumentLinks(HTMLParser):
    """The href of every link whose path ends in run.json."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href") if tag == "a" else None
        if href and urlsplit(href).path.endswith(f"/{RUN_DOCUMENT}"):
            self.links.append(href)


def _public_address(url: str, host: str, port: int, allow_private: bool) -> str:
    """The address to connect to: the host's first, once every one it resolves to is public."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UserError(f"{url}: cannot resolve {host}: {exc}") from None
    addresses = [str(info[4][0]) for info in infos]
    for text in addresses:
        address = ipaddress.ip_address(text.split("%", 1)[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
            address = address.ipv4_mapped
        if not allow_private and (not address.is_global or address.is_multicast):
            raise UserError(
                f"{url}: {host} is {address}, not a public address (private, loopback,"
                f" link-local or unspecified): not fetched without {ALLOW_FLAG}"
            )
    return addresses[0]


class _Deadline:
    """Shuts the connection down when the whole fetch's time is up, whatever read is waiting."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.seconds = seconds
        self.expired = False

    def left(self, url: str) -> float:
        left = self.at - time.monotonic()
        if left <= 0:
            self.fail(url)
        return left

    def fail(self, url: str) -> None:
        raise UserError(
            f"{url}: not fetched within {self.seconds:g} s (the deadline for the whole fetch)"
        )

    def watch(self, connection: http.client.HTTPConnection, url: str) -> threading.Timer:
        def expire() -> None:
            self.expired = True
            if connection.sock is not None:
                with contextlib.suppress(OSError):  # closed meanwhile
                    connection.sock.shutdown(socket.SHUT_RDWR)

        timer = threading.Timer(self.left(url), expire)
        timer.daemon = True
        timer.start()
        return timer


def _connection(url: str, deadline: _Deadline, allow_private: bool) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    if parts.scheme not in URL_SCHEMES or not parts.hostname:
        raise UserError(f"{url}: only http and https URLs are fetched")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = _public_address(url, parts.hostname, port, allow_private)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname, port, timeout=deadline.left(url))

    def to_checked_address(
        where: tuple[str, int], timeout: float, source: tuple[str, int] | None = None
    ) -> socket.socket:
        return socket.create_connection((address, where[1]), timeout, source)

    connection._create_connection = to_checked_address  # type: ignore[attr-defined]
    return connection


def _body(response: http.client.HTTPResponse, url: str, deadline: _Deadline) -> bytes:
    declared = response.getheader("Content-Length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BYTES:
        raise UserError(
            f"{url}: {int(declared)} bytes, over the {MAX_BYTES} bytes a run document may be"
        )
    chunks, size = [], 0
    while chunk := response.read1(CHUNK):
        size += len(chunk)
        if size > MAX_BYTES:
            raise UserError(f"{url}: over the {MAX_BYTES} bytes a run document may be")
        chunks.append(chunk)
        deadline.left(url)
    return b"".join(chunks)


def _get(url: str, deadline: _Deadline, allow_private: bool) -> tuple[str | None, bytes]:
    """(where it redirects, b"") or (None, the body)."""
    connection = _connection(url, deadline, allow_private)
    timer = deadline.watch(connection, url)
    parts = urlsplit(url)
    target = parts.path + (f"?{parts.query}" if parts.query else "") or "/"
    try:
        connection.request("GET", target, headers={"User-Agent": "mybench-reproduce"})
        response = connection.getresponse()
        if response.status in REDIRECTS:
            return urljoin(url, response.getheader("Location", "")), b""
        if response.status != 200:
            raise UserError(f"{url}: cannot fetch it: HTTP {response.status} {response.reason}")
        return None, _body(response, url, deadline)
    except (OSError, http.client.HTTPException) as exc:
        if deadline.expired:
            deadline.fail(url)
        raise UserError(f"{url}: cannot fetch it: {exc}") from None
    finally:
        timer.cancel()
        connection.close()
        if deadline.expired:  # the timer cut a read that then looked like the end
            deadline.fail(url)


def _fetch(url: str, deadline: _Deadline, allow_private: bool) -> tuple[str, bytes]:
    """(the URL the body came from, after redirects, the body)."""
    for _ in range(MAX_REDIRECTS + 1):
        redirected, body = _get(url, deadline, allow_private)
        if redirected is None:
            return url, body
        url = redirected
    raise UserError(f"{url}: more than {MAX_REDIRECTS} redirects")


def _parse(raw: bytes, where: str) -> contract.RunDocument:
    document, unparsed = contract.parse_strict(raw)  # a 5,000-digit number is refused, named
    if unparsed:
        path, why = unparsed[0]
        raise UserError(f"{where}: not a JSON run document: {path}: {why}")
    if not isinstance(document, dict) or not isinstance(document.get("id"), str):
        raise UserError(f"{where}: id is missing: not a run document")
    # Not checked against the schema: a field its readers need is refused by name when missing
    # (campaign_file.required, through contract.fields).
    return cast(contract.RunDocument, document)


def _from_url(url: str, allow_private: bool) -> Original:
    deadline = _Deadline(FETCH_DEADLINE_S)
    url, raw = _fetch(url, deadline, allow_private)
    if raw.lstrip()[:1] == b"{":
        return Original(_parse(raw, url), url, None, trusted=False)
    finder = _DocumentLinks()
    finder.feed(raw.decode("utf-8", errors="replace"))
    if not finder.links:
        raise UserError(f"{url}: neither a run document nor a run page linking its {RUN_DOCUMENT}")
    document_url, raw = _fetch(urljoin(url, finder.links[0]), deadline, allow_private)
    return Original(_parse(raw, document_url), document_url, None, trusted=False)


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


def _from_file(path: Path, data_dirs: list[Path]) -> Original:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read it: {exc.strerror}") from None
    document = _parse(raw, str(path))
    holding = _holding_dir(path, document["id"])
    archive = {data_dir.resolve() for data_dir in data_dirs}
    return Original(document, _shown(path), holding, trusted=holding in archive)


def find_original(run: str, data_dirs: list[Path], allow_private: bool = False) -> Original:
    """The document RUN names, wherever it is; UserError naming RUN when it is nowhere."""
    if "\0" in run:
        raise UserError(f"{run!r}: holds a NUL byte: not a run id, a path or a URL")
    scheme = urlsplit(run).scheme
    if scheme == "file":
        raise UserError(f"{run}: file:// URLs are not fetched; pass the local path instead")
    if scheme in URL_SCHEMES:
        return _from_url(run, allow_private)
    if "://" in run:
        raise UserError(f"{run}: only http and https URLs are fetched")
    if Path(run).is_file():
        return _from_file(Path(run), data_dirs)
    for data_dir in data_dirs:
        if "/" not in run and (path := data_dir / "runs" / f"{run}.json").is_file():
            return _from_file(path, data_dirs)
    looked = ", ".join(str(data_dir / "runs") for data_dir in data_dirs)
    raise UserError(
        f"{run}: no such run in {looked} (give a run id, a path to a run.json, or its URL)"
    )


def data_dir_holding(run_id: str, data_dirs: list[Path]) -> Path | None:
    """The first data directory that holds run_id, so a fetched copy is never a duplicate."""
    return next((d for d in data_dirs if (d / "runs" / f"{run_id}.json").is_file()), None)
