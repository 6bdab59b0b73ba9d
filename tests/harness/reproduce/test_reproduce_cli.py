"""`mybench reproduce` end to end: a tiny real campaign measures a run, then the run is
reproduced from its id, from the path of a copy of its run.json elsewhere and from the http
URL of a run page served on localhost; each reproduction is a real run on a real sandbox.
Sandboxes live in a directory every user may enter: the server of a reproduction runs as
nobody when the tests run as root."""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import contract
from harness.servers.mycnf import without_placement
from tests.helpers.cli_runs import SANDBOX, run_cli
from tests.helpers.open_dirs import enterable_dir

pytestmark = pytest.mark.server

TINY = (
    """
name = "tiny-repro"
title = "Tiny campaign to reproduce"
"""
    + SANDBOX.format(basedir="/usr")
    + """
[variants.small-log-buffer]
options = { innodb_log_buffer_size = "8M", innodb_flush_log_at_trx_commit = 2 }
[sweep]
threads = [1, 2]
step_seconds = 1
warmup_seconds = 1
[workloads.rw]
test = "oltp_read_write"
tables = 1
table_size = 2000
options = { range_size = 10 }
"""
)


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The data dir of one tiny measured run, and that run."""
    root = tmp_path_factory.mktemp("original")
    campaign = root / "tiny.toml"
    campaign.write_text(TINY)
    result = run_cli(root, campaign)
    assert result.returncode == 0, result.stderr
    (run,) = contract.validate_dir(root / "data")[0]
    return root / "data", run


@pytest.fixture(scope="module")
def open_root() -> Iterator[Path]:
    with enterable_dir("mybench-reproduce-") as path:
        yield path


@pytest.fixture
def work(open_root: Path, tmp_path: Path) -> Path:
    return open_root / tmp_path.name


def reproduce(
    tmp_path: Path, work: Path, run: str, *lookup: Path, flags: tuple[str, ...] = ()
) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "cli", "reproduce", run, *flags,
            *(f"--data={d}" for d in lookup),
            "--results", str(tmp_path / "results"), "--workdir", str(work)]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)


def reproduction_of(tmp_path: Path, result: subprocess.CompletedProcess, original: dict) -> dict:
    """The one run the reproduction wrote, after checking it matches the original."""
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "results")
    assert problems == []
    (run,) = runs
    assert run["status"] == "complete"
    assert run["id"] != original["id"]
    assert run["workload"]["options"] == original["workload"]["options"]
    assert run["workload"]["script"] == original["workload"]["script"]
    mine, theirs = run["server"]["my_cnf"], original["server"]["my_cnf"]
    assert mine != theirs  # the placement differs: new datadir, socket, port
    assert without_placement(mine) == without_placement(theirs)
    assert run["server"]["my_cnf_options"] == original["server"]["my_cnf_options"]
    assert [s["threads"] for s in run["steps"]] == [s["threads"] for s in original["steps"]]
    assert all(round(s["duration_s"]) == 1 for s in run["steps"])
    warmups = [c["command"] for c in run["reproduce"]["commands"] if "warm up" in c["purpose"]]
    assert len(warmups) == 1 and "--time=1 " in warmups[0]
    assert run["reproduces"]["run_id"] == original["id"]
    (campaign_file,) = (tmp_path / "results" / "reproduce").glob("*.toml")
    assert campaign_file.name == f"{original['id']}.toml"
    assert run["campaign"]["file"] == str(campaign_file)
    runs_query = f"runs={original['id']},{run['id']}"
    compare = re.search(r"^compare: (/compare/\?\S+)$", result.stdout, re.MULTILINE)
    assert compare and runs_query in compare[1] and "&workload=rw&base=" in compare[1]
    return run


def test_from_a_run_id_in_the_data_dir(tmp_path, work, measured):
    data, original = measured
    result = reproduce(tmp_path, work, original["id"], data)
    run = reproduction_of(tmp_path, result, original)
    source = run["reproduces"]["source"]
    assert source.endswith(f"runs/{original['id']}.json")
    assert "confined" not in run["reproduces"]  # the local archive is trusted
    assert f"--data={data}" in result.stdout  # the preview shows the original where it is
    # The campaign file runs again as it is, and says what it reproduces again.
    again = run_cli(work / "again", tmp_path / "results" / "reproduce" / f"{original['id']}.toml")
    assert again.returncode == 0, again.stderr
    (rerun,) = contract.validate_dir(work / "again" / "data")[0]
    assert rerun["reproduces"] == run["reproduces"]


def test_from_the_path_of_a_copy_elsewhere(tmp_path, work, measured):
    data, original = measured
    copy = tmp_path / "downloads" / "run.json"
    copy.parent.mkdir()
    copy.write_bytes((data / "runs" / f"{original['id']}.json").read_bytes())
    result = reproduce(tmp_path, work, str(copy), data)
    run = reproduction_of(tmp_path, result, original)
    assert run["reproduces"]["source"] == str(copy)
    assert run["reproduces"]["confined"] is True  # not from the data dirs: a stranger's
    assert "rewritten" not in run["reproduces"]  # its my.cnf names no file


@pytest.fixture
def published(tmp_path, measured):
    """A site layout on a localhost http server: /runs/<id>/ is the run page, linking its
    run.json by a site-relative path as layouts/runs/page.html does."""
    _, original = measured
    site = tmp_path / "public"
    page = site / "runs" / original["id"]
    page.mkdir(parents=True)
    page.joinpath("run.json").write_text(json.dumps(original))
    link = f"/runs/{original['id']}/run.json"
    page.joinpath("index.html").write_text(
        f'<!doctype html><p class="meta">Raw data: <a href="{link}">run.json</a>,'
        f' <a href="/runs/{original["id"]}/my.cnf">my.cnf</a>.</p>'
    )
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/runs/{original['id']}/"
    server.shutdown()
    thread.join()


def test_from_the_http_url_of_its_run_page(tmp_path, work, measured, published):
    _, original = measured
    result = reproduce(tmp_path, work, published, flags=("--allow-private-addresses",))
    run = reproduction_of(tmp_path, result, original)
    assert run["reproduces"]["source"] == f"{published}run.json"
    # Read from elsewhere: kept beside the results, so a preview can show both.
    kept = tmp_path / "results" / "reproduce" / "originals" / "runs" / f"{original['id']}.json"
    assert json.loads(kept.read_text()) == original
