"""A running MariaDB/MySQL server the harness connects to but did not start (kind = "existing").

It implements the Server protocol (servers/protocol.py) and holds a VariantApplier (variants.py)
for a server whose my.cnf the harness does not own: dynamic options are set with SET GLOBAL and
restored afterwards; options that need a restart go through the campaign's restart_command with
a my.cnf fragment.

The password (from the environment variable `password_env`, or the [client]/[mybench] section
of `option_file`) lives only in this object and in the argv sysbench runs with: never in a run
document, a log, a recorded command or an exception message.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import psutil  # type: ignore[import-untyped]  # psutil ships no type hints
import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.errors import UserError
from harness.model.campaign import OptionValue, Server
from harness.servers import pinning
from harness.servers.build_origin import existing_build
from harness.servers.existing.option_files import read_password
from harness.servers.existing.option_values import fragment
from harness.servers.existing.variants import VariantApplier
from harness.servers.mycnf import option_key
from harness.servers.products.identity import DISPLAY_NAMES, Product
from harness.servers.protocol import ServerBase
from harness.servers.serverinfo import ProductName, client_command, server_product
from harness.servers.sysbench_target import Target

CONNECT_TIMEOUT_S = 10
RESTART_TIMEOUT_S = 900  # the restart command itself: a slow shutdown flushes the buffer pool
READY_TIMEOUT_S = 300  # then until the server answers again (InnoDB recovery, buffer pool load)
SERVER_PROCESS_NAMES = {"mysqld", "mariadbd"}
MIN_SCRUBBED = 4  # a shorter password is not searched for in texts (it would match anywhere)
ER_ACCESS_DENIED = 1045
# The variables that say what machine and build a server runs on, for a reader who cannot see
# that machine: the run document's server_host keeps them next to the client's host facts.
SERVER_HOST_VARIABLES = (
    "version",
    "version_comment",
    "version_compile_os",
    "version_compile_machine",
    "datadir",
    "system_time_zone",
)


@dataclass
class ExistingServer(ServerBase):
    """A running server reached by host/port or unix socket with `user`; never started or
    stopped by the harness. Use as a context manager: entering checks that it answers with
    these credentials (UserError with one line otherwise) and reads what it is."""

    label: str
    workdir: Path  # local directory for this server's logs (restart output, variant fragments)
    user: str
    host: str | None = None
    port: int = 3306
    socket: Path | None = None
    password_env: str | None = None
    option_file: Path | None = None
    restart_command: str | None = None
    restart_timeout_s: float = RESTART_TIMEOUT_S
    ready_timeout_s: float = READY_TIMEOUT_S
    cpus: tuple[int, ...] = field(default=(), init=False)  # never pinned by the harness
    _password: str | None = field(default=None, init=False, repr=False)
    _variables: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _seen_from: str = field(default="", init=False)  # the client's address, as the server saw it
    _pid: int | None = field(default=None, init=False)
    _datadir: Path | None = field(default=None, init=False)
    variants: VariantApplier = field(init=False, repr=False)

    @classmethod
    def from_campaign(cls, server: Server, workdir: Path) -> ExistingServer:
        return cls(
            label=server.label,
            workdir=workdir,
            user=server.user or "root",
            host=server.host,
            port=server.port,
            socket=server.socket,
            password_env=server.password_env,
            option_file=server.option_file,
            restart_command=server.restart_command,
        )

    def __post_init__(self) -> None:
        self._password = read_password(self.label, self.password_env, self.option_file)
        self.variants = VariantApplier(
            self, self.restart_command, self.restart_timeout_s, self.ready_timeout_s
        )

    # -- credentials and connection --

    @property
    def where(self) -> str:
        return str(self.socket) if self.socket is not None else f"{self.host}:{self.port}"

    def _password_source(self) -> str:
        if self.password_env:
            return f"the password from ${self.password_env}"
        if self.option_file is not None:
            return f"the password from {self.option_file}"
        return "no password"

    def scrub(self, text: str) -> str:
        """text as it may be recorded, logged or shown: the secret rule applied (a credential
        option's value, a password on a command line) and, belt and braces, this server's own
        password removed whatever quoted it."""
        text = contract.redact_text(text)
        if self._password and len(self._password) >= MIN_SCRUBBED:
            text = text.replace(self._password, contract.REDACTED)
        return text

    def error(self, message: str) -> UserError:
        return UserError(self.scrub(message))

    def connect_args(self) -> dict[str, object]:
        """pymysql.connect keywords, password included: for connections only, never recorded."""
        where: dict[str, object] = (
            {"unix_socket": str(self.socket)}
            if self.socket is not None
            else {"host": self.host, "port": self.port}
        )
        return {
            **where,
            "user": self.user,
            "password": self._password or "",
            "connect_timeout": CONNECT_TIMEOUT_S,
        }

    def connect(self, database: str | None = None) -> pymysql.connections.Connection:
        """A new autocommit connection; pymysql errors propagate (the runner handles them)."""
        return pymysql.connect(**self.connect_args(), database=database, autocommit=True)

    def _connection_problem(self, exc: pymysql.err.MySQLError) -> str:
        code = exc.args[0] if exc.args else None
        detail = exc.args[-1] if exc.args else str(exc)
        if code == ER_ACCESS_DENIED:
            return (
                f"server {self.label} ({self.where}): access denied for user {self.user!r}"
                f" with {self._password_source()}: {detail}"
            )
        return f"server {self.label}: cannot connect to {self.where}: {detail}"

    def checked_connect(self) -> pymysql.connections.Connection:
        """connect() for the checks before and between runs: a refusal is one UserError line."""
        try:
            return self.connect()
        except pymysql.err.MySQLError as exc:
            raise self.error(self._connection_problem(exc)) from None

    # -- what the runner uses on any server (servers/protocol.py) --

    def start(self) -> None:
        """Check the server answers and read what it is; it is already running."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._refresh()

    def stop(self) -> None:
        """Nothing: the harness never stops a server it did not start."""

    def _refresh(self) -> None:
        with self.checked_connect() as conn, conn.cursor() as cursor:
            self.read_variables(cursor)
            cursor.execute("SELECT USER()")
            self._seen_from = str(cursor.fetchone()[0]).rpartition("@")[2]
        self.locate()

    def read_variables(self, cursor: pymysql.cursors.Cursor) -> dict[str, str]:
        """SHOW GLOBAL VARIABLES, kept as what the server now is."""
        cursor.execute("SHOW GLOBAL VARIABLES")
        self._variables = {
            name.lower(): "" if value is None else str(value) for name, value in cursor.fetchall()
        }
        return self._variables

    def locate(self) -> None:
        """Find the datadir and the process when the server runs on this machine."""
        self._datadir = self._local_datadir()
        self._pid = self._local_pid()

    # -- variants (variants.py) --

    def check_variant(self, label: str, options: dict[str, OptionValue]) -> None:
        """Refuse, before anything runs, a variant this server cannot take."""
        self.variants.check(label, options)

    @contextmanager
    def apply_variant(self, label: str, options: dict[str, OptionValue]) -> Iterator[Self]:
        """The variant's options applied for the runs inside the block (VariantApplier)."""
        with self.variants.apply(label, options):
            yield self

    @property
    def product(self) -> ProductName:
        variables = self._variables
        return server_product(variables.get("version", ""), variables.get("version_comment", ""))

    @property
    def version(self) -> str:
        return self._variables.get("version", "").split("-", 1)[0]

    @property
    def release(self) -> Product:
        """Product and version, for statements that differ between them."""
        numbers = tuple(int(part) for part in re.findall(r"[0-9]+", self.version)[:3])
        return Product(self.product, numbers, self.version)

    def identity(self) -> str:
        """'server prod (MariaDB 10.11.19)' for messages."""
        if not self._variables:
            return f"server {self.label} ({self.where})"
        return f"server {self.label} ({DISPLAY_NAMES[self.product]} {self.version})"

    def _is_local(self) -> bool:
        """On this machine: reached by unix socket, or it reports this machine's hostname."""
        if self.socket is not None:
            return True
        return self._variables.get("hostname", "").lower() == socket.gethostname().lower()

    def _local_datadir(self) -> Path | None:
        datadir = self._variables.get("datadir", "")
        if not datadir or not self._is_local():
            return None
        path = Path(datadir)
        return path if path.is_dir() else None

    def _local_pid(self) -> int | None:
        """The server's process when it runs here: @@pid_file names it, the process must be
        mysqld/mariadbd, and its working directory (they chdir to the datadir) must match."""
        if not self._is_local():
            return None
        pid_file = Path(self._variables.get("pid_file", "") or "missing")
        if not pid_file.is_absolute() and self._datadir is not None:
            pid_file = self._datadir / pid_file
        try:
            pid = int(pid_file.read_text().split()[0])
            process = psutil.Process(pid)
            if process.name() not in SERVER_PROCESS_NAMES:
                return None
            try:
                cwd = Path(process.cwd()).resolve()
            except psutil.AccessDenied:
                cwd = None
            if cwd is not None and self._datadir is not None and cwd != self._datadir.resolve():
                return None
        except (OSError, ValueError, IndexError, psutil.Error):
            return None
        return pid

    @property
    def pid(self) -> int | None:
        """The server's process id when it runs on this machine, else None."""
        return self._pid

    @property
    def datadir(self) -> Path | None:
        """@@datadir when it is a directory on this machine, else None."""
        return self._datadir

    def sysbench_target(self) -> Target:
        shown = (
            f'"${self.password_env}"'
            if self.password_env
            else f"<password from {self.option_file}>"
        )
        return Target(
            socket=self.socket,
            user=self.user,
            host=None if self.socket is not None else self.host,
            port=None if self.socket is not None else self.port,
            password=self._password,
            password_shown=shown,
        )

    def _unreachable(self) -> str | None:
        """None when the server answers; else why not, in a few words."""
        try:
            with self.connect() as conn, conn.cursor() as cursor:
                cursor.execute("SELECT 1")
        except pymysql.err.MySQLError as exc:
            return str(exc.args[-1]) if exc.args else type(exc).__name__
        return None

    def alive(self, grace: float = 0.0) -> bool:
        """False once the server is gone or stops answering; `grace` keeps asking that long."""
        deadline = time.monotonic() + grace
        while self._pid is None or psutil.pid_exists(self._pid):
            if self._unreachable() is not None:
                return False
            if time.monotonic() >= deadline:
                return True
            time.sleep(0.5)
        return False

    def exit_summary(self) -> str:
        """Why the server cannot be reached, in one line."""
        parts = []
        if self._pid is not None and not psutil.pid_exists(self._pid):
            parts.append(f"its process {self._pid} is gone")
        problem = self._unreachable()
        if problem is not None:
            parts.append(f"does not answer at {self.where}: {problem}")
        if not parts:
            return self.scrub(f"server {self.label} answers at {self.where}")
        return self.scrub(f"server {self.label} " + "; ".join(parts))

    # -- what the run document records --

    def client_command(self, sql: str) -> str:
        """The command line a reader types to run sql on this server (it prompts for the
        password)."""
        client = "mariadb" if self.product == "mariadb" else "mysql"
        where = (
            [f"--socket={self.socket}"]
            if self.socket is not None
            else ["-h", str(self.host), "-P", str(self.port)]
        )
        password = ["-p"] if self._password is not None else []
        return self.scrub(client_command(client, [*where, "-u", self.user, *password], sql))

    def describe(self) -> contract.Server:
        """The run document's "server" object: what the server is, how the current variant
        reached it (my_cnf holds the fragment with a comment saying how), its variables."""
        with self.checked_connect() as conn, conn.cursor() as cursor:
            variables = contract.redact_options(self.read_variables(cursor))
        if self._password and len(self._password) >= MIN_SCRUBBED:
            variables = {
                name: contract.REDACTED if self._password in value else value
                for name, value in variables.items()
            }
        applied = self.variants.applied
        my_cnf = (
            applied.my_cnf
            if applied is not None
            else fragment(
                f"no option applied: server {self.label} runs its own configuration", "", {}
            )
        )
        document: contract.Server = {
            "product": self.product,
            "version": self.version,
            "version_string": self._variables.get("version", ""),
            "version_comment": self._variables.get("version_comment", ""),
            "kind": "existing",
            "sandbox": False,
        }
        if self._is_local() and self._variables.get("basedir"):
            document["basedir"] = self._variables["basedir"]
        if self._pid is not None:
            try:
                document["binary"] = psutil.Process(self._pid).exe()
            except psutil.Error:
                pass
        if applied is not None and applied.how is not None:
            document["variant_applied"] = applied.how
        document["my_cnf"] = self.scrub(my_cnf)
        document["my_cnf_options"] = contract.redact_options(
            {
                option_key(name): "ON" if value is True else str(value)
                for name, value in (applied.options if applied else {}).items()
                if value is not False
            }
        )
        if self._pid is not None:
            try:
                document["cpu_affinity"] = pinning.applied_cpus(self._pid)
            except OSError:
                pass
        document["variables"] = variables
        document["build"] = existing_build(variables)
        return document

    def describe_host(self) -> contract.ServerHost | None:
        """The run document's "server_host": the machine the server runs on, as the server
        described itself when the harness connected; None when reached by unix socket (then it
        runs on the client's machine, which "host" describes)."""
        if self.socket is not None:
            return None
        variables = self._variables
        document: contract.ServerHost = {
            "address": f"{self.host}:{self.port}",
            "hostname": variables.get("hostname", ""),
            "same_machine": self._is_local(),
        }
        if self._seen_from:
            document["client_address"] = self._seen_from
        document["variables"] = {
            name: variables[name] for name in SERVER_HOST_VARIABLES if name in variables
        }
        return document

    def reproduce_commands(self) -> list[contract.ReproduceCommand]:
        """How the current variant's options reached the server, as purpose/command pairs
        (no secret: the client prompts for the password, and the commands were scrubbed)."""
        applied = self.variants.applied
        return [command.copy() for command in applied.commands] if applied else []

    def replay_variables(self) -> dict[str, str]:
        """None: the commands name the server as the campaign does (host, port or socket), and
        a reader replays them against a server of their own by hand."""
        return {}
