"""`mybench serve` as a user runs it (the CLI, real Hugo, the committed data plus a scratch data
dir): a run added, changed or removed shows on the served site, a bad document is reported while
the last good site stays up, the files served match a cold build's, and Ctrl-C leaves nothing
running. Pages are polled with a generous deadline; nothing here is timed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest

from generator.hugo import site_contract as site
from generator.hugo.build import generate
from tests.helpers.paths import DATA_DIR, FIXTURE_RUNS, REPO

pytestmark = pytest.mark.site

CAMPAIGN = "serve-probe-20261124-000000"  # a campaign of its own beside the committed data
SOURCES = [  # fixture runs (copies of committed ones), moved into CAMPAIGN
    "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1",
    "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p1",
]
STARTUP_SECONDS = 300  # a cold generator and Hugo build of the committed data
CHANGE_SECONDS = 120


def probe_run(source: str) -> dict:
    doc = json.loads((FIXTURE_RUNS / "runs" / f"{source}.json").read_text())
    old = doc["campaign"]["id"]
    doc["id"] = doc["id"].replace(old, CAMPAIGN)
    doc["campaign"]["id"] = CAMPAIGN
    return doc


def put(doc: dict, runs_dir: Path) -> None:
    """Staged under a hidden name and renamed in, as the harness writes a run."""
    staged = runs_dir / f".{doc['id']}.staged"
    staged.write_text(json.dumps(doc, indent=1))
    staged.rename(runs_dir / f"{doc['id']}.json")


def status_and_body(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""
    except OSError:  # not listening yet, or restarting
        return 0, ""


def poll(url: str, wanted: Callable[[int, str], bool], seconds: float, log: Path) -> str:
    """The body once wanted(status, body) holds; fails with serve's output if it never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, body = status_and_body(url)
        if wanted(status, body):
            return body
        time.sleep(0.2)
    pytest.fail(f"{url} never as wanted; serve said:\n{log.read_text()[-3000:]}")


class Served:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.runs_dir = root / "data" / "runs"
        self.build_dir = root / "build"
        self.log = root / "serve.log"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "cli", "serve", "--data", str(DATA_DIR),
                "--data", str(root / "data"), "--out", str(self.build_dir),
                "--port", str(self.port)]  # fmt: skip
        with self.log.open("w") as log:
            # Its own process group: Ctrl-C is sent to it as a terminal sends it.
            self.process = subprocess.Popen(
                argv, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def page(self, run_id: str) -> str:
        return f"{self.base}/runs/{run_id}/"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("serve")
    (root / "data" / "runs").mkdir(parents=True)
    put(probe_run(SOURCES[0]), root / "data" / "runs")
    server = Served(root)
    try:
        poll(f"{server.base}/", lambda status, _: status == 200, STARTUP_SECONDS, server.log)
        yield server
    finally:
        if server.process.poll() is None:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait()


def title_of(doc: dict) -> str:
    """The start of the run page's <h1> (content/runs/_content.gotmpl); the fixtures are
    MariaDB runs."""
    return f"<h1>{doc['workload']['name']} on MariaDB {doc['server']['version']}, {doc['variant']}"


def test_serve_names_its_address_with_a_scheme(served):
    assert f"preview at {served.base}/ (Ctrl-C stops)" in served.log.read_text()


def test_an_added_run_is_served(served):
    added = probe_run(SOURCES[1])
    put(added, served.runs_dir)
    title = title_of(added)
    body = poll(
        served.page(added["id"]),
        lambda status, body: status == 200 and title in body,
        CHANGE_SECONDS,
        served.log,
    )
    assert f"<code>{added['id']}</code>" in body


def test_a_changed_run_is_served_changed(served):
    changed = probe_run(SOURCES[0])
    marker = "# changed while served"
    changed["server"]["my_cnf"] += marker + "\n"
    put(changed, served.runs_dir)
    poll(
        served.page(changed["id"]),
        lambda status, body: status == 200 and marker in body,
        CHANGE_SECONDS,
        served.log,
    )


def test_a_removed_run_is_gone(served):
    removed = probe_run(SOURCES[1])
    (served.runs_dir / f"{removed['id']}.json").unlink()
    poll(served.page(removed["id"]), lambda status, _: status == 404, CHANGE_SECONDS, served.log)


def test_a_bad_document_is_reported_and_the_last_good_site_stays_up(served):
    bad = probe_run(SOURCES[1])
    del bad["steps"]
    put(bad, served.runs_dir)
    try:
        deadline = time.monotonic() + CHANGE_SECONDS
        while "not regenerated" not in served.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        lines = served.log.read_text().splitlines()
        report = next((line for line in lines if "not regenerated" in line), "")
        assert f"{bad['id']}.json" in report and "steps" in report, "\n".join(lines[-40:])
        kept = probe_run(SOURCES[0])
        assert status_and_body(served.page(kept["id"]))[0] == 200
        assert status_and_body(served.page(bad["id"]))[0] == 404
    finally:  # fixed, it is served
        put(probe_run(SOURCES[1]), served.runs_dir)
    poll(
        served.page(bad["id"]),
        lambda status, body: status == 200 and title_of(bad) in body,
        CHANGE_SECONDS,
        served.log,
    )


def test_served_files_are_a_cold_builds(served, tmp_path):
    """What serve generated from what it remembered equals a build from nothing."""
    lines = served.log.read_text().splitlines()
    # The add, change and removal above were regenerated, not only seen by Hugo.
    assert sum(line.startswith("regenerated ") for line in lines) >= 3
    generate([DATA_DIR, served.root / "data"], tmp_path / "build")
    for folder in site.OWNED_SUBDIRS:
        cold = {
            path.relative_to(tmp_path / "build"): path.read_bytes()
            for path in (tmp_path / "build" / folder).rglob("*")
            if path.is_file()
        }
        kept = {
            path.relative_to(served.build_dir): path.read_bytes()
            for path in (served.build_dir / folder).rglob("*")
            if path.is_file()
        }
        assert kept.keys() == cold.keys(), folder
        assert [rel for rel in cold if kept[rel] != cold[rel]] == [], folder


def test_ctrl_c_stops_hugo_and_the_watcher(served):
    children = psutil.Process(served.process.pid).children(recursive=True)
    assert any("hugo" in child.name() for child in children)
    os.killpg(served.process.pid, signal.SIGINT)
    assert served.process.wait(timeout=60) == 0
    _, alive = psutil.wait_procs(children, timeout=30)
    assert alive == []
