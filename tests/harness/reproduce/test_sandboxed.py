"""A reproduction cannot touch the host. Run pages and documents of our own, served by a local
http server, set options that name files outside the sandbox (reproduced for real: the files
land in the sandbox, written by a server running as nobody), load code or run SQL (refused
naming the option), carry a run id that climbs out of --results, or come from a server that
drips, sends too much, redirects to file:// or sits on a private address."""

from __future__ import annotations

import functools
import json
import os
import pwd
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import tomli_w

import contract
from harness.errors import UserError
from harness.reproduce import original as fetching
from harness.reproduce.plan import prepare
from tests.helpers.cli_runs import run_cli
from tests.helpers.open_dirs import enterable_dir
from tests.helpers.paths import FIXTURE_RUNS

FIXTURE = FIXTURE_RUNS / "runs" / "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p2.json"
PLACEMENT = "[mysqld]\n# sandbox placement"
DRIP_BYTES = 400  # a drip that outlived the deadline would end here, and fail the test
UNSIZED_BYTES = 64 * 2**20  # far more than the kernel buffers between the two ends


def stranger(run_id: str, options: str) -> dict:
    """A run document of our own: a tiny 1-thread step of a fixture run, whose my.cnf sets
    options."""
    document = json.loads(FIXTURE.read_text())
    placement = document["server"]["my_cnf"][document["server"]["my_cnf"].index(PLACEMENT) :]
    document["id"] = run_id
    document["server"]["my_cnf"] = (
        "[mysqld]\ninnodb_buffer_pool_size = 64M\ninnodb_log_file_size = 48M\nskip_log_bin\n"
        f"{options}\n\n{placement}"
    )
    document["workload"]["options"] = {"tables": "1", "table-size": "1000"}
    document["steps"] = [{**document["steps"][0], "threads": 1, "duration_s": 1.0}]
    commands = document["reproduce"]["commands"]
    document["reproduce"]["commands"] = [c for c in commands if "warm up" not in c["purpose"]]
    return document


class Site(ThreadingHTTPServer):
    """Files by URL path, and the misbehaving endpoints; counts what it was asked and sent."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        self.unsized_sent = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def publish(self, document: dict, folder: str) -> str:
        """A run page at /<folder>/ linking its run.json; its URL."""
        self.files[f"/{folder}/run.json"] = json.dumps(document).encode()
        link = f'<p>Raw data: <a href="/{folder}/run.json">run.json</a></p>'
        self.files[f"/{folder}/"] = link.encode()
        return f"{self.base}/{folder}/"


class Handler(BaseHTTPRequestHandler):
    server: Site

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.server.requests.append(self.path)
        endpoints = {
            "/drip-body": self._drip_body,
            "/drip-headers": self._drip_headers,
            "/big": functools.partial(self._body, b"{" + b" " * 10_000 + b"}", sized=True),
            "/big-unsized": self._unsized,
            "/to-file": functools.partial(self._redirect, "file:///etc/passwd"),
            "/to-ftp": functools.partial(self._redirect, "ftp://127.0.0.1/run.json"),
        }
        if self.path in endpoints:
            endpoints[self.path]()
        elif self.path in self.server.files:
            self._body(self.server.files[self.path], sized=True)
        else:
            self.send_error(404)

    def _body(self, body: bytes, sized: bool) -> None:
        self.send_response(200)
        if sized:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.end_headers()

    def _drip(self, text: bytes) -> None:
        try:
            for byte in text[:DRIP_BYTES]:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.1)
        except OSError:
            pass  # the client hung up, as it should

    def _drip_body(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(DRIP_BYTES))
        self.end_headers()
        self.wfile.flush()
        self._drip(b"{" + b" " * DRIP_BYTES)

    def _drip_headers(self) -> None:
        self._drip(b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * DRIP_BYTES)
        self.close_connection = True

    def _unsized(self) -> None:
        self.send_response(200)
        self.end_headers()
        chunk = b"{" + b" " * (2**16 - 1)
        try:
            while self.server.unsized_sent < UNSIZED_BYTES:
                self.wfile.write(chunk)
                self.server.unsized_sent += len(chunk)
        except OSError:
            pass
        self.close_connection = True


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    server = Site()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    thread.join()


def refused(run: str, tmp_path: Path, allow_private: bool = True) -> str:
    results = tmp_path / "results"
    with pytest.raises(UserError) as error:
        prepare(run, [], results, None, 1, allow_private)
    assert not results.exists()  # nothing written before the refusal
    return str(error.value)


@pytest.mark.parametrize(
    ("option", "line"),
    [
        ("init_file", "init_file = /tmp/owned.sql"),
        ("loose-Init-File", "loose-Init-File = /tmp/owned.sql"),
        ("init_connect", "init_connect = 'SET GLOBAL read_only = 1'"),
        ("plugin_load_add", "plugin_load_add = ha_blackhole.so"),
        ("maximum-plugin-load-add", "maximum-plugin-load-add = /tmp/evil.so"),
        ("early_plugin_load", "early_plugin_load = keyring_file.so"),
        ("wsrep_notify_cmd", "wsrep_notify_cmd = /bin/sh"),
        ("!includedir", "!includedir /etc/mysql/conf.d"),
    ],
)
def test_options_that_load_code_or_run_sql_are_refused_naming_them(site, tmp_path, option, line):
    url = site.publish(stranger("code-20261127-000000.base.oltp-rw", line), tmp_path.name)
    message = refused(url, tmp_path)
    assert message.startswith(f"server.my_cnf: {option} is refused"), message


@pytest.mark.parametrize(
    "run_id", ["../../tmp/x", "a/../../b", ".hidden", "x\x00y", "a" * 161, "Upper/../x"]
)
def test_a_run_id_that_names_no_single_file_is_refused_before_anything_is_written(
    site, tmp_path, run_id
):
    url = site.publish(stranger(run_id, ""), tmp_path.name)
    message = refused(url, tmp_path)
    assert message.startswith("id: ") and message.endswith("not a run id; nothing written")
    assert list(tmp_path.iterdir()) == []  # results/reproduce/../../tmp/x.toml is in tmp_path


@pytest.mark.parametrize("path", ["/drip-body", "/drip-headers"])
def test_a_slow_drip_is_cut_at_the_deadline_of_the_whole_fetch(site, tmp_path, monkeypatch, path):
    monkeypatch.setattr(fetching, "FETCH_DEADLINE_S", 1.0)
    message = refused(site.base + path, tmp_path)
    assert (
        message == f"{site.base}{path}: not fetched within 1 s (the deadline for the whole fetch)"
    )


def test_an_oversized_document_is_refused_while_it_streams(site, tmp_path, monkeypatch):
    monkeypatch.setattr(fetching, "MAX_BYTES", 4096)
    declared = refused(site.base + "/big", tmp_path)
    assert declared == f"{site.base}/big: 10002 bytes, over the 4096 bytes a run document may be"
    streamed = refused(site.base + "/big-unsized", tmp_path)
    assert streamed == f"{site.base}/big-unsized: over the 4096 bytes a run document may be"
    assert site.unsized_sent < UNSIZED_BYTES  # it stopped reading: the server could not send more


def test_file_urls_and_other_schemes_are_refused_redirects_included(site, tmp_path):
    local = tmp_path / "run.json"
    local.write_text(json.dumps(stranger("local-20261127-000000.base.oltp-rw", "")))
    for url in (local.as_uri(), "FILE://" + str(local)):
        assert refused(url, tmp_path).endswith(
            "file:// URLs are not fetched; pass the local path instead"
        )
    assert refused("ftp://127.0.0.1/run.json", tmp_path).endswith(
        "only http and https URLs are fetched"
    )
    assert (
        refused(f"{site.base}/to-file", tmp_path)
        == "file:///etc/passwd: only http and https URLs are fetched"
    )
    assert refused(f"{site.base}/to-ftp", tmp_path).endswith(
        "only http and https URLs are fetched"
    )


def test_private_loopback_and_link_local_addresses_are_refused_without_the_flag(site, tmp_path):
    port = site.server_address[1]
    asked = len(site.requests)
    for url, addresses in [
        (f"http://127.0.0.1:{port}/big", {"127.0.0.1"}),
        (f"http://localhost:{port}/big", {"127.0.0.1", "::1"}),
        (f"http://[::1]:{port}/big", {"::1"}),
        ("http://169.254.169.254/latest/meta-data/", {"169.254.169.254"}),
        ("http://[fe80::a9fe:a9fe]/latest/meta-data/", {"fe80::a9fe:a9fe"}),
        ("http://[::ffff:169.254.169.254]/", {"169.254.169.254"}),
        ("http://10.0.0.1/run.json", {"10.0.0.1"}),
        ("http://0.0.0.0/run.json", {"0.0.0.0"}),
    ]:
        message = refused(url, tmp_path, allow_private=False)
        said = message.partition(" is ")[2].partition(", not a public address")[0]
        assert said in addresses, message
        assert message.endswith("not fetched without --allow-private-addresses")
    assert len(site.requests) == asked  # not one request reached the local server


# The real reproductions: two run pages whose my.cnf names files outside the sandbox.
OUTSIDE_OPTIONS = {
    "general": "general_log = 1\ngeneral_log_file = {outside}/general.log",
    "slow": "slow_query_log = 1\nlong_query_time = 0\n"
    "loose-slow-query-log-file = {outside}/slow.log\ninnodb_tmpdir = {outside}/tmpdir",
}


def _server_uids(work: Path) -> dict[int, int]:
    """The real uid of each mariadbd process started under work, by pid; not the build's
    compiled-defaults probe (an empty my.cnf, nothing of the stranger's, run once per build
    unless an earlier test of the session cached its result)."""
    uids = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        line = b" ".join(argv)
        probe = b"/compiled-defaults/" in line
        if Path(argv[0].decode()).name == "mariadbd" and str(work).encode() in line and not probe:
            uid = next(line for line in status.splitlines() if line.startswith("Uid:"))
            uids[int(pid)] = int(uid.split()[1])
    return uids


@pytest.fixture(scope="module")
def reproduced(site) -> Iterator[dict]:
    """Each page reproduced by `mybench reproduce`: its outside folder, work dir, results,
    the uids its servers ran under, and the reproduction's run document."""
    with enterable_dir("mybench-sandboxed-") as root:
        done = {}
        for name, options in OUTSIDE_OPTIONS.items():
            outside = root / f"outside-{name}"  # nobody could write here: only the rewrite
            outside.mkdir(mode=0o777)  # keeps the server out
            outside.chmod(0o777)
            (outside / "tmpdir").mkdir(mode=0o777)
            document = stranger(
                f"{name}-20261127-000000.base.oltp-rw", options.format(outside=outside)
            )
            url = site.publish(document, name)
            work, results = root / name / "work", root / name / "results"
            argv = [sys.executable, "-m", "cli", "reproduce", url,
                    "--allow-private-addresses", "--results", str(results), "--workdir", str(work)]  # fmt: skip
            log = root / f"{name}.log"
            with log.open("w") as output:
                process = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT)
                # The uid each server process ran under once started: a sample in the moment
                # between its exec as root and its switch to `user` (a loaded machine widens
                # it) is overwritten by the next.
                last_uid: dict[int, int] = {}
                deadline = time.monotonic() + 300
                while process.poll() is None and time.monotonic() < deadline:
                    last_uid |= _server_uids(work)
                    time.sleep(0.05)
                if process.poll() is None:
                    process.kill()
                    pytest.fail(f"mybench reproduce {url} still running after 300 s")
            assert process.returncode == 0, log.read_text()
            (run,) = contract.validate_dir(results)[0]
            done[name] = {
                "outside": outside,
                "work": work,
                "results": results,
                "uids": set(last_uid.values()),
                "run": run,
            }
        yield done


@pytest.mark.server
@pytest.mark.parametrize(("name", "file", "option"), [
    ("general", "general.log", "general_log_file"),
    ("slow", "slow.log", "loose-slow-query-log-file"),
])  # fmt: skip
def test_files_a_strangers_my_cnf_names_land_in_the_sandbox(reproduced, name, file, option):
    seen = reproduced[name]
    outside = seen["outside"]
    assert sorted(p.name for p in outside.rglob("*")) == ["tmpdir"]  # nothing written there
    written = [path for path in seen["work"].rglob(file) if path.parent.name == "files"]
    assert written and all(path.stat().st_size > 0 for path in written)
    reproduces = seen["run"]["reproduces"]
    assert reproduces["confined"] is True
    assert {"option": option, "value": f"{outside}/{file}", "placed": file} in reproduces[
        "rewritten"
    ]
    assert f"{option} = {written[-1]}" in seen["run"]["server"]["my_cnf"]
    (campaign_file,) = (seen["results"] / "reproduce").glob("*.toml")
    campaign = tomllib.loads(campaign_file.read_text())
    assert f"{option} = {file}\n" in campaign["mycnf"]["base"]  # the path only in [reproduces]
    assert str(outside) not in campaign["mycnf"]["base"]


@pytest.mark.server
@pytest.mark.skipif(os.geteuid() != 0, reason="the server drops to nobody only from root")
def test_the_server_of_a_reproduction_runs_as_nobody(reproduced):
    nobody = pwd.getpwnam("nobody")
    for seen in reproduced.values():
        assert seen["uids"] == {nobody.pw_uid}  # seen while it ran
        files = [path for path in seen["work"].rglob("*") if path.parent.name == "files"]
        assert files and {path.stat().st_uid for path in files} == {nobody.pw_uid}


@pytest.mark.server
def test_a_confined_campaign_file_edited_to_run_sql_is_refused_by_mybench_run(
    reproduced, tmp_path
):
    (campaign_file,) = (reproduced["general"]["results"] / "reproduce").glob("*.toml")
    campaign = tomllib.loads(campaign_file.read_text())
    for line in ("init_file = /tmp/owned.sql", "Plugin-Load-Add = ha_blackhole.so"):
        campaign["mycnf"]["base"] += f"{line}\n"
        edited = tmp_path / "edited.toml"
        edited.write_text(tomli_w.dumps(campaign))
        result = run_cli(tmp_path, edited)
        name = line.split(" =")[0]
        assert result.returncode != 0
        assert f": {name} is refused in a run document from elsewhere" in result.stderr
        assert not (tmp_path / "data" / "runs").exists()
        campaign["mycnf"]["base"] = campaign["mycnf"]["base"].replace(f"{line}\n", "")


@pytest.mark.server
@pytest.mark.skipif(os.geteuid() != 0, reason="the server drops to nobody only from root")
def test_a_work_dir_nobody_cannot_enter_is_named(tmp_path):
    closed = tmp_path / "home"  # like /root: mode 0700
    closed.mkdir(mode=0o700)
    document = tmp_path / "run.json"
    document.write_text(json.dumps(stranger("closed-20261127-000000.base.oltp-rw", "")))
    argv = [sys.executable, "-m", "cli", "reproduce", str(document),
            "--results", str(tmp_path / "results"), "--workdir", str(closed / "work")]  # fmt: skip
    result = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode != 0
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert f"{closed}/work/" in line and "the server runs as nobody, which cannot write" in line
    assert "pass --workdir under a directory every user may enter" in line
    assert not [p for p in closed.rglob("*") if p.name == "datadir" and any(p.iterdir())]
