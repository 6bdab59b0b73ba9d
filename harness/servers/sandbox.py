"""A MariaDB, MySQL or Percona server the harness starts itself: own datadir, socket and free
loopback port.

Never the system service, never port 3306: every path lives under the run's work directory
(the socket under a short /tmp directory because of the 108-byte limit on socket paths).
A confined sandbox (a reproduced run's my.cnf from elsewhere) also places every option that
names a file in its own files/ folder (harness/servers/confined_options.py), and a sandbox with
run_as starts its server as that account when the harness runs as root
(harness/servers/unprivileged.py).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from contract import replay_variables
from harness.errors import ServerGoneError, ServerStartError, UserError
from harness.model.campaign import OptionValue
from harness.servers import confined_options, mycnf, pinning
from harness.servers.build_origin import sandbox_build
from harness.servers.fetch import of_basedir as fetched_release
from harness.servers.pristine import copy_datadir
from harness.servers.products.basedir import find_binaries, init_argv
from harness.servers.products.identity import Product, probe
from harness.servers.products.option_hints import option_hint
from harness.servers.protocol import ServerBase
from harness.servers.serverinfo import client_command, server_product
from harness.servers.sysbench_target import Target
from harness.servers.unprivileged import Account, AsAccount

READY_TIMEOUT_S = 120  # InnoDB creates its redo log and buffer pool before it listens
STOP_TIMEOUT_S = 120  # a slow shutdown flushes the buffer pool; only then SIGKILL
ERROR_LINE = re.compile(r"\[(ERROR|FATAL)\]|unknown (variable|option)|Aborting", re.IGNORECASE)
LOGGED_ERROR = re.compile(r"\[(ERROR|FATAL)\]")
PORT_TAKEN = re.compile(r"Can't start server: Bind on TCP/IP port|Address already in use")
MAX_PORT_ATTEMPTS = 3
NO_SPACE = re.compile(r"No space left on device|errno:? 28\b|Disk (is )?full", re.IGNORECASE)
NEARLY_FULL_BYTES = 16 * 2**20  # less than an empty datadir needs
FILES = "files"  # a confined sandbox's folder for the files its my.cnf names


def free_loopback_port() -> int:
    """A port the kernel just handed out on 127.0.0.1 (its ephemeral range never holds 3306)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        address: tuple[str, int] = listener.getsockname()
        return address[1]


@dataclass(frozen=True)
class Binaries:
    server: Path
    install_db: Path | None  # MariaDB's installer; MySQL initialises with mysqld itself
    basedir: Path
    product: Product
    # Options a release fetched into .servers/ needs to use its own files, not the host's.
    own_folders: dict[str, str] = field(default_factory=dict)

    @classmethod
    def find(cls, basedir: Path) -> Binaries:
        """Debian puts mariadbd in /usr/sbin and the installer in /usr/bin; tarballs use bin/
        and scripts/. The product and version come from the server's own --version."""
        server, install_db = find_binaries(basedir)
        product = probe(server)
        init_argv(product, server, install_db, Path("my.cnf"))  # refuses what can't
        fetched = fetched_release(basedir)
        own_folders = fetched.server_options if fetched is not None else {}
        return cls(server, install_db, basedir, product, own_folders)

    def init_argv(self, defaults_file: Path) -> list[str]:
        return init_argv(self.product, self.server, self.install_db, defaults_file)


def filesystem_full(path: Path, log_text: str) -> bool:
    """Whether a failure came from a full filesystem: the server says so (errno 28) or
    almost nothing is left where the datadir lives."""
    if NO_SPACE.search(log_text):
        return True
    existing = next(parent for parent in [path, *path.parents] if parent.exists())
    return shutil.disk_usage(existing).free < NEARLY_FULL_BYTES


def error_lines(log_text: str, limit: int = 12) -> list[str]:
    """The lines of a server error log that say why it stopped."""
    return [line for line in log_text.splitlines() if ERROR_LINE.search(line)][-limit:]


@dataclass
class Sandbox(ServerBase):
    """One server instance; use as a context manager so it is stopped whatever happens."""

    binaries: Binaries
    workdir: Path  # holds datadir/, my.cnf, error.log
    tuned_mycnf: str  # base + variant, without placement
    keep_datadir: bool = False
    cpus: tuple[int, ...] = ()  # taskset -c for the server; empty: not pinned
    # What runs the server binary, before its own argv (valgrind for instruction counts).
    launch_prefix: tuple[str, ...] = ()
    server_args: tuple[str, ...] = ()  # after --defaults-file: options of this start only
    ready_timeout_s: float = READY_TIMEOUT_S
    # What tuned_mycnf changed for this release (harness/servers/products/option_mapping.py).
    mapped_options: list[contract.MappedOption] = field(default_factory=list)
    datadir_at: Path | None = None  # the storage under test; default: workdir/datadir
    # A stopped, loaded datadir to start from instead of initialising an empty one.
    seed: Path | None = None
    port: int = 0
    my_cnf_text: str = ""
    socket_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="mybench-")))
    _process: subprocess.Popen[bytes] | None = None
    restore_seconds: float | None = None  # how long copying the seed took
    confined: bool = False  # tuned_mycnf is a stranger's: file options placed in FILES
    run_as: str | None = None  # the account the server runs as when the harness is root
    account: Account | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        # The server reads its my.cnf's paths from inside its datadir: a relative one would
        # name a file under it, not the one the harness reads (its error log, above all).
        self.workdir = self.workdir.absolute()
        if self.datadir_at is not None:
            self.datadir_at = self.datadir_at.absolute()
        if self.confined:
            where, files = str(self.defaults_file), self.workdir / FILES
            self.tuned_mycnf = confined_options.confine(self.tuned_mycnf, where, files)[0]
        self.account = Account.when_root(self.run_as)

    @property
    def datadir(self) -> Path:
        return self.datadir_at or self.workdir / "datadir"

    @property
    def release(self) -> Product:
        """Product and version, for statements that differ between them."""
        return self.binaries.product

    @property
    def server_name(self) -> str:
        return self.binaries.server.name

    @property
    def socket_path(self) -> Path:
        return self.socket_dir / "mysqld.sock"

    @property
    def error_log(self) -> Path:
        return self.workdir / "error.log"

    @property
    def defaults_file(self) -> Path:
        return self.workdir / "my.cnf"

    def _placement(self) -> dict[str, OptionValue]:
        placement: dict[str, OptionValue] = {
            "basedir": str(self.binaries.basedir),
            "datadir": str(self.datadir),
            "socket": str(self.socket_path),
            "port": self.port,
            "bind_address": "127.0.0.1",
            "pid_file": str(self.workdir / "mysqld.pid"),
            "log_error": str(self.error_log),
            "tmpdir": str(self.workdir / "tmp"),
            **self.binaries.own_folders,
        }
        if self.account is not None:
            placement["user"] = self.account.name  # already so; the installer chowns to it
        elif os.geteuid() == 0:
            placement["user"] = "root"  # mariadbd refuses to run as root unless told to
        if self.confined:
            placement.update(confined_options.exact_names(self.binaries.product.family))
        return placement

    def start(self) -> None:
        """Initialise and launch; whatever goes wrong (Ctrl-C included) leaves no server behind."""
        if self.workdir.exists() and any(self.workdir.iterdir()):
            raise UserError(f"{self.workdir}: sandbox work directory is not empty")
        if self.datadir.exists():
            raise UserError(f"{self.datadir}: a datadir is already there; not touching it")
        try:
            for attempt in range(MAX_PORT_ATTEMPTS):
                # The port is free when probed but another program may take it before the
                # server binds it; then the server says so and a new port is tried.
                self.port = free_loopback_port()
                self._prepare_files()
                try:
                    self._launch()
                    return
                except ServerStartError as exc:
                    taken = any(PORT_TAKEN.search(line) for line in exc.log_lines)
                    if not taken or attempt == MAX_PORT_ATTEMPTS - 1:
                        raise
                    self._remove_files()
        except BaseException:
            self.stop()
            raise

    def _prepare_files(self) -> None:
        (self.workdir / "tmp").mkdir(parents=True, exist_ok=True)
        self.my_cnf_text = mycnf.with_placement(self.tuned_mycnf, self._placement())
        self.defaults_file.write_text(self.my_cnf_text)
        named = []  # a confined my.cnf's directories, all under FILES
        if self.confined:
            named = [Path(d) for d in confined_options.directories(self.tuned_mycnf)]
            for directory in [self.workdir / FILES, *named]:
                directory.mkdir(parents=True, exist_ok=True)
        if self.seed is not None:
            if not self.datadir.exists():  # a retry after a taken port keeps the copy
                self.restore_seconds = copy_datadir(self.seed, self.datadir)
                if self.account is not None:
                    self.account.give_tree(self.datadir)
            self._give_to_account(named)
            return
        self.datadir.parent.mkdir(parents=True, exist_ok=True)
        self.datadir.mkdir()
        self._give_to_account(named)
        # The installer runs the server in bootstrap mode with the same file, so options that
        # only count at initialisation (innodb_page_size, ...) take effect, and bad options
        # are reported here already.
        init = self.binaries.init_argv(self.defaults_file)
        result = subprocess.run(
            check=False,
            args=init,
            capture_output=True,
            text=True,
            cwd=self.binaries.basedir,
            **self._as_account(),
        )
        if result.returncode != 0:
            output = result.stdout + result.stderr
            log = self.error_log.read_text(errors="replace") if self.error_log.exists() else ""
            lines = error_lines(output + "\n" + log) or output.strip().splitlines()[-8:]
            if filesystem_full(self.datadir, output + log):
                raise ServerStartError(f"{self.datadir}: the filesystem is full", lines)
            raise ServerStartError(
                f"{self.defaults_file}: {Path(init[0]).name} rejected this my.cnf", lines
            )

    def _launch(self) -> None:
        self._process = subprocess.Popen(
            pinning.pinned(self.launch_argv(), self.cpus),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the harness, which stops the server itself
            **self._as_account(),
        )
        deadline = time.monotonic() + self.ready_timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                self._process = None
                log = self.error_log.read_text(errors="replace")
                cause = "the filesystem is full" if filesystem_full(self.datadir, log) else ""
                where = f"{self.datadir}: {cause}" if cause else str(self.defaults_file)
                raise ServerStartError(
                    f"{where}: {self.server_name} exited at start (see {self.error_log})",
                    error_lines(log),
                )
            try:
                self.connect().close()
                return
            except pymysql.err.OperationalError:
                time.sleep(0.2)
        self.stop()
        raise ServerStartError(
            f"{self.defaults_file}: {self.server_name} not ready after {self.ready_timeout_s:g}s",
            [],
        )

    def launch_argv(self) -> list[str]:
        server = [str(self.binaries.server), f"--defaults-file={self.defaults_file}"]
        return [*self.launch_prefix, *server, *self.server_args]

    def _give_to_account(self, named: list[Path]) -> None:
        """The sandbox's directories to the account the server runs as, once it is sure that
        account can reach them."""
        if self.account is None:
            return
        files = [self.workdir / FILES] if self.confined else []
        owned = [self.workdir, self.workdir / "tmp", self.datadir, self.socket_dir]
        self.account.give(*owned, *files, *named)
        hint = "pass --workdir under a directory every user may enter, such as /var/tmp"
        for directory in (self.workdir, self.datadir):
            self.account.check_writable(directory, hint)

    def _as_account(self) -> AsAccount:
        return self.account.popen() if self.account is not None else {}

    def sysbench_target(self) -> Target:
        return Target(socket=self.socket_path)

    def reproduce_commands(self) -> list[contract.ReproduceCommand]:
        """How a reader gets the same datadir (a copy of the loaded one, or a new one) and starts
        the server on it, in the variables of replay_variables (my.cnf: the run's file)."""
        datadir = f"--datadir={self.datadir}"  # explicit: the loading start uses PRISTINE
        prepare: contract.ReproduceCommand
        if self.seed is not None:
            prepare = {
                "purpose": "copy the loaded datadir (every variant starts on its own copy)",
                "command": shlex.join(["cp", "-a", str(self.seed), str(self.datadir)]),
            }
        else:
            prepare = {
                "purpose": "initialise a datadir (my.cnf is this run's file)",
                "command": shlex.join([*self.binaries.init_argv(self.defaults_file), datadir]),
            }
        server = [*self.launch_argv(), datadir]
        start: contract.ReproduceCommand = {
            "purpose": "start the server",
            "command": shlex.join(pinning.pinned(server, self.cpus)) + " &",
        }
        return [prepare, start]

    def stop_commands(self) -> list[contract.ReproduceCommand]:
        """The clean shutdown the harness does before its datadir is copied (the admin client
        returns once the server has removed its pid file, that is once it has exited)."""
        admin = "mariadb-admin" if self.binaries.product.family == "mariadb" else "mysqladmin"
        argv = [admin, f"--socket={self.socket_path}", "-u", "root", "shutdown"]
        return [{"purpose": "shut the server down", "command": shlex.join(argv)}]

    def replay_variables(self, datadir: str = replay_variables.DATADIR) -> dict[str, str]:
        """Variable name -> this sandbox's path, for contract.replay_variables.in_variables;
        the sandbox that loads the data a later copy starts from names its datadir PRISTINE."""
        values = {
            replay_variables.BASEDIR: str(self.binaries.basedir),
            replay_variables.MYCNF: str(self.defaults_file),
            datadir: str(self.datadir),
            replay_variables.SOCKET: str(self.socket_path),
        }
        if self.seed is not None:
            values[replay_variables.PRISTINE] = str(self.seed)
        return values

    def client_command(self, sql: str) -> str:
        """A client command line a reader can run against this server."""
        client = "mariadb" if self.binaries.product.family == "mariadb" else "mysql"
        return client_command(client, [f"--socket={self.socket_path}", "-u", "root"], sql)

    def describe(self) -> contract.Server:
        """The run document's "server": what runs, with which my.cnf, and its variables, with
        every credential redacted (the my.cnf file the server reads keeps them)."""
        with self.connect() as conn, conn.cursor() as cursor:
            cursor.execute("SHOW GLOBAL VARIABLES")
            rows = cursor.fetchall()
        variables = contract.redact_options(
            {name: "" if v is None else str(v) for name, v in rows}
        )
        version_string = variables.get("version", "")
        comment = variables.get("version_comment", "")
        server: contract.Server = {
            "product": server_product(version_string, comment),
            "version": version_string.split("-", 1)[0],
            "version_string": version_string,
            "version_comment": comment,
            "basedir": str(self.binaries.basedir),
            "binary": str(self.binaries.server),
            "sandbox": True,
            "kind": "sandbox",
            "variant_applied": "my.cnf",
            "my_cnf": contract.redact_text(self.my_cnf_text),
            "my_cnf_options": contract.redact_options(mycnf.server_options(self.tuned_mycnf)),
            "harness_overrides": contract.redact_options(
                mycnf.overridden(self.tuned_mycnf, self._placement())
            ),
            "cpu_affinity": pinning.applied_cpus(self.pid),
            "variables": variables,
            "build": sandbox_build(self.binaries.server, self.binaries.basedir, variables),
        }
        if self.mapped_options:
            server["mapped_options"] = self.mapped_options
        return server

    def connect_args(self) -> dict[str, object]:
        """pymysql.connect keywords (picklable: the Insert Benchmark's workers get them)."""
        return {"unix_socket": str(self.socket_path), "user": "root"}

    def connect(self, database: str | None = None) -> pymysql.connections.Connection:
        return pymysql.connect(**self.connect_args(), database=database, autocommit=True)

    @property
    def pid(self) -> int:
        if self._process is None:
            raise ServerGoneError(f"{self.server_name} is not running")
        return self._process.pid

    def alive(self, grace: float = 0.0) -> bool:
        """False once the server process has exited; `grace` waits that long for one on its way
        out (a client sees a killed server's sockets close before the process can be reaped)."""
        if self._process is None:
            return False
        try:
            self._process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            return True
        return False

    def exit_summary(self) -> str:
        """Why the server is gone, in one line: the signal or exit code, and its last errors."""
        code = self._process.poll() if self._process else None
        cause = f"killed by signal {-code}" if code and code < 0 else f"exit code {code}"
        lines = error_lines(self.error_log.read_text(errors="replace"), limit=2)
        return "; ".join([f"{self.server_name} {cause}", *lines])

    def stop(self) -> None:
        """SHUTDOWN cleanly, then SIGKILL only if it hangs; always leaves no process behind."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            try:
                with self.connect() as conn, conn.cursor() as cursor:
                    cursor.execute("SHUTDOWN")
            except pymysql.err.MySQLError:
                process.terminate()
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if not self.keep_datadir:
            self._remove_files()
        shutil.rmtree(self.socket_dir, ignore_errors=True)

    def _remove_files(self) -> None:
        shutil.rmtree(self.datadir, ignore_errors=True)
        shutil.rmtree(self.workdir / "tmp", ignore_errors=True)


def preflight(binaries: Binaries, tuned_mycnf: str, label: str, confined: bool = False) -> None:
    """Let the server itself parse the options before anything starts: `--help --verbose`
    rejects unknown options and bad values with its own messages, in milliseconds."""
    with tempfile.TemporaryDirectory(prefix="mybench-preflight-") as scratch:
        defaults = Path(scratch) / "my.cnf"
        placement: dict[str, OptionValue] = {**binaries.own_folders}
        if os.geteuid() == 0:
            placement.update(datadir=scratch, user="root")
        if confined:  # --help loads the libraries plugin_load names: no abbreviation
            placement.update(confined_options.exact_names(binaries.product.family))
        defaults.write_text(mycnf.with_placement(tuned_mycnf, placement))
        result = subprocess.run(
            check=False,
            args=[str(binaries.server), f"--defaults-file={defaults}", "--help", "--verbose"],
            capture_output=True,
            text=True,
        )
    # A bad value for a plugin's option (InnoDB's among them) is logged as [ERROR] while the
    # exit code stays 0, so the log lines decide, not only the exit code.
    output = result.stdout + result.stderr
    logged = [line for line in output.splitlines() if LOGGED_ERROR.search(line)]
    if result.returncode != 0 or logged:
        lines = logged or error_lines(output)
        hints = (option_hint(binaries.product, name) for name in _rejected(lines))
        lines += [f"hint: {hint}" for hint in hints if hint]
        raise ServerStartError(f"variant {label}: {binaries.server} rejects its my.cnf", lines)


_REJECTED = re.compile(r"unknown (?:variable|option) '(?:--)?([^']+)'", re.IGNORECASE)


def _rejected(lines: list[str]) -> list[str]:
    """The option names (with '=value' when given) a server's error lines complain about."""
    return [match[1] for line in lines for match in _REJECTED.finditer(line)]


def option_notes(binaries: Binaries, tuned_mycnf: str, label: str) -> list[str]:
    """Options this server accepts but ignores or reads otherwise than a reader may think
    (a removed option that does nothing, log_bin = OFF naming a binary log ...)."""
    notes = []
    for name, value in mycnf.server_options(tuned_mycnf).items():
        hint = option_hint(binaries.product, f"{name}={value}")
        if hint:
            notes.append(f"variant {label} ({binaries.product.label}): {hint}")
    return notes
