"""A running MariaDB/MySQL server the harness connects to but did not start (kind = "existing").

It implements the Server protocol (servers/protocol.py) plus variant handling for a server whose my.cnf the
harness does not own: dynamic options are set with SET GLOBAL and restored afterwards; options
that need a restart go through the campaign's restart_command with a my.cnf fragment.

The password (from the environment variable `password_env`, or the [client]/[mybench] section
of `option_file`) lives only in this object and in the argv sysbench runs with: never in a run
document, a log, a recorded command or an exception message.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import psutil
import pymysql
from pymysql.converters import escape_item

import contract
from harness.campaign.load import OptionValue, Server
from harness.errors import UserError
from harness.servers import pinning
from harness.servers.mycnf import option_key, render_option
from harness.servers.products import DISPLAY_NAMES, Product
from harness.servers.protocol import ServerBase
from harness.servers.serverinfo import REDACTED, client_command, redact_secrets, server_product
from harness.workloads.sysbench.commands import Target

CONNECT_TIMEOUT_S = 10
RESTART_TIMEOUT_S = 900  # the restart command itself: a slow shutdown flushes the buffer pool
READY_TIMEOUT_S = 300  # then until the server answers again (InnoDB recovery, buffer pool load)
VARIANT_CNF_ENV = "MYBENCH_VARIANT_CNF"
OPTION_FILE_SECTIONS = ("client", "mybench")  # read in this order, later wins
SERVER_PROCESS_NAMES = {"mysqld", "mariadbd"}
MIN_SCRUBBED = 4  # a shorter password is not searched for in texts (it would match anywhere)
ER_ACCESS_DENIED = 1045
ER_READ_ONLY_VARIABLE = 1238  # "Variable 'x' is a read only variable"
ER_SPECIFIC_ACCESS_DENIED = 1227
_SIZE = re.compile(r"(\d+)([kmgtpe])", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "s": " ", "\\": "\\", '"': '"', "'": "'"}


# --- client option files ------------------------------------------------------------------


def _strip_comment(text: str) -> str:
    """Cut a '#' comment that is not inside quotes, as the MySQL client library does."""
    quote, escape = "", False
    for index, char in enumerate(text):
        if char in "'\"" and not escape:
            if not quote:
                quote = char
            elif quote == char:
                quote = ""
        if not quote and char == "#":
            return text[:index]
        escape = bool(quote) and char == "\\" and not escape
    return text


def option_file_value(raw: str) -> str:
    """One value of a MySQL option file: end comment cut, surrounding quotes removed, the
    escapes \\n \\t \\r \\b \\s \\\\ \\" \\' read (an unknown escape keeps its backslash)."""
    value = _strip_comment(raw).strip()
    if len(value) >= 2 and value[0] in "'\"" and value[-1] == value[0]:
        value = value[1:-1]
    out, index = [], 0
    while index < len(value):
        char = value[index]
        if char == "\\" and index + 1 < len(value):
            following = value[index + 1]
            out.append(_ESCAPES.get(following, "\\" + following))
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


def option_file_options(text: str, sections: tuple[str, ...]) -> dict[str, str | None]:
    """Options of the given sections (later sections win); a bare key reads as None.
    `!include` directives are not followed."""
    options: dict[str, str | None] = {}
    found: dict[str, dict[str, str | None]] = {}
    section = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped[0] in "#;!":
            continue
        if stripped.startswith("["):
            section = _strip_comment(stripped).strip().strip("[]").strip().lower()
            continue
        if section not in sections:
            continue
        name, sep, raw = stripped.partition("=")
        key = option_key(_strip_comment(name) if not sep else name)
        found.setdefault(section, {})[key] = option_file_value(raw) if sep else None
    for section_name in sections:
        options.update(found.get(section_name, {}))
    return options


# --- values -------------------------------------------------------------------------------


def sql_value(value: OptionValue) -> str:
    """The SQL literal SET GLOBAL gets: True -> ON, False -> DEFAULT, sizes like 128M in bytes
    (SET does not read suffixes), numbers as they are, any other text quoted and escaped."""
    if value is True:
        return "ON"
    if value is False:
        return "DEFAULT"
    if isinstance(value, int | float):
        return str(value)
    text = str(value).strip()
    if size := _SIZE.fullmatch(text):
        return str(int(size[1]) * 1024 ** ("kmgtpe".index(size[2].lower()) + 1))
    if _NUMBER.fullmatch(text):
        return text
    return escape_item(text, "utf8mb4")


def _normal(value: object) -> object:
    text = str(value).strip().lower()
    if text in ("on", "true", "yes"):
        return "on"
    if text in ("off", "false", "no"):
        return "off"
    if size := _SIZE.fullmatch(text):
        return int(size[1]) * 1024 ** ("kmgtpe".index(size[2]) + 1)
    if _NUMBER.fullmatch(text):
        return float(text)
    return text


def same_value(wanted: OptionValue, actual: str) -> bool:
    """Does SHOW GLOBAL VARIABLES' text show the wanted value? Case-insensitive; 128M equals
    134217728; ON equals 1; a list such as optimizer_switch holds the wanted items."""
    want = "on" if wanted is True else _normal(wanted)
    have = _normal(actual)
    if want == have:
        return True
    booleans = {"on": 1.0, "off": 0.0}
    if booleans.get(want, want) == booleans.get(have, have):  # type: ignore[arg-type]
        return True
    if isinstance(want, str) and isinstance(have, str) and "," in have:
        return set(want.split(",")) <= set(have.split(","))
    return False


def _render_option(name: str, value: OptionValue) -> str:
    return f"# {name}: set to its DEFAULT" if value is False else render_option(name, value)


def fragment(header: str, label: str, options: dict[str, OptionValue]) -> str:
    """A [mysqld] my.cnf fragment: a comment line saying how it was applied, then the options
    (an empty section when there is none)."""
    lines = [f"# {header}", "[mysqld]"]
    if options:
        lines.append(f"# variant {label}")
        lines += [_render_option(name, value) for name, value in options.items()]
    return "\n".join(lines) + "\n"


# --- the server ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Option:
    name: str  # as the campaign spells it
    key: str  # the server's variable name
    value: OptionValue
    dynamic: bool


@dataclass(frozen=True)
class _Applied:
    label: str
    how: str | None  # "set_global", "restart_command", or None when the variant sets nothing
    my_cnf: str
    options: dict[str, OptionValue]
    commands: list[dict[str, str]]


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
    _pid: int | None = field(default=None, init=False)
    _datadir: Path | None = field(default=None, init=False)
    _applied: _Applied | None = field(default=None, init=False, repr=False)
    _fragment_active: bool = field(default=False, init=False)  # restarted with our fragment

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
        self._password = self._read_password()

    # -- credentials and connection --

    def _read_password(self) -> str | None:
        if self.password_env:
            password = os.environ.get(self.password_env)
            if password is None:
                raise UserError(
                    f"[servers.{self.label}] password_env: environment variable"
                    f" {self.password_env} is not set"
                )
            return password
        if self.option_file is None:
            return None
        try:
            text = self.option_file.read_text(errors="replace")
        except OSError as exc:
            raise UserError(
                f"[servers.{self.label}] option_file: cannot read {self.option_file}"
                f" ({exc.strerror or type(exc).__name__})"
            ) from None
        password = option_file_options(text, OPTION_FILE_SECTIONS).get("password")
        if password is None:
            sections = " or ".join(f"[{name}]" for name in OPTION_FILE_SECTIONS)
            raise UserError(
                f"[servers.{self.label}] option_file: {self.option_file} has no password in"
                f" its {sections} section"
            )
        return password

    @property
    def where(self) -> str:
        return str(self.socket) if self.socket is not None else f"{self.host}:{self.port}"

    def _password_source(self) -> str:
        if self.password_env:
            return f"the password from ${self.password_env}"
        if self.option_file is not None:
            return f"the password from {self.option_file}"
        return "no password"

    def _scrub(self, text: str) -> str:
        """Belt and braces: no message of ours carries the password, whatever quoted it."""
        if self._password and len(self._password) >= MIN_SCRUBBED:
            text = text.replace(self._password, REDACTED)
        return text

    def _error(self, message: str) -> UserError:
        return UserError(self._scrub(message))

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

    def _checked_connect(self) -> pymysql.connections.Connection:
        """connect() for the checks before and between runs: a refusal is one UserError line."""
        try:
            return self.connect()
        except pymysql.err.MySQLError as exc:
            raise self._error(self._connection_problem(exc)) from None

    # -- what the runner uses on any server (servers/protocol.py) --

    def start(self) -> None:
        """Check the server answers and read what it is; it is already running."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._refresh()

    def stop(self) -> None:
        """Nothing: the harness never stops a server it did not start."""

    def _refresh(self) -> None:
        with self._checked_connect() as conn, conn.cursor() as cursor:
            self._variables = _global_variables(cursor)
        self._datadir = self._local_datadir()
        self._pid = self._local_pid()

    @property
    def product(self) -> str:
        variables = self._variables
        return server_product(variables.get("version", ""), variables.get("version_comment", ""))

    @property
    def version(self) -> str:
        return self._variables.get("version", "").split("-", 1)[0]

    @property
    def release(self) -> Product:
        """Product and version, for statements that differ between them."""
        numbers = tuple(int(part) for part in re.findall(r"\d+", self.version)[:3])
        return Product(self.product, numbers, self.version)

    def _identity(self) -> str:
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
            return self._scrub(f"server {self.label} answers at {self.where}")
        return self._scrub(f"server {self.label} " + "; ".join(parts))

    # -- variants --

    def _plan(self, label: str, options: dict[str, OptionValue]) -> list[_Option]:
        with self._checked_connect() as conn, conn.cursor() as cursor:
            self._variables = _global_variables(cursor)
            keys = {name: option_key(name) for name in options}
            for name, key in keys.items():
                if key not in self._variables:
                    raise self._error(
                        f"variant {label}: {name} is not a global variable of {self._identity()}"
                    )
            dynamic = self._dynamic(cursor, label, sorted(set(keys.values())))
        plan = [
            _Option(name, keys[name], value, dynamic[keys[name]])
            for name, value in options.items()
        ]
        fixed = [option for option in plan if not option.dynamic]
        if fixed and self.restart_command is None:
            raise self._error(
                f"variant {label}: {fixed[0].name} is not dynamic on {self._identity()};"
                f" give [servers.{self.label}] restart_command to apply it"
            )
        if fixed:
            self._refuse_defaults(label, plan)
        return plan

    def _refuse_defaults(self, label: str, plan: list[_Option]) -> None:
        reset = [option.name for option in plan if option.value is False]
        if reset:
            raise self._error(
                f"variant {label}: {reset[0]} = false (its default) cannot be applied through"
                f" restart_command on {self._identity()}; give its value"
            )

    def _dynamic(self, cursor, label: str, keys: list[str]) -> dict[str, bool]:
        """Which variables SET GLOBAL can change. MariaDB says so in
        information_schema.SYSTEM_VARIABLES.READ_ONLY. MySQL has no such column
        (performance_schema.variables_info does not say), so there each variable is probed
        with `SET GLOBAL x = @@GLOBAL.x`, which changes nothing and fails with error 1238 for a
        read-only one; that path runs for any variable MariaDB's table does not list too."""
        flags: dict[str, bool] = {}
        if self.product == "mariadb" and keys:
            marks = ", ".join(["%s"] * len(keys))
            cursor.execute(
                "SELECT LOWER(VARIABLE_NAME), READ_ONLY FROM information_schema.SYSTEM_VARIABLES"
                f" WHERE VARIABLE_NAME IN ({marks})",
                [key.upper() for key in keys],
            )
            flags = {name: read_only == "NO" for name, read_only in cursor.fetchall()}
        for key in keys:
            if key not in flags:
                flags[key] = self._probe_dynamic(cursor, label, key)
        return flags

    def _probe_dynamic(self, cursor, label: str, key: str) -> bool:
        try:
            cursor.execute(f"SET GLOBAL {key} = @@GLOBAL.{key}")
        except pymysql.err.MySQLError as exc:
            code = exc.args[0] if exc.args else None
            if code == ER_READ_ONLY_VARIABLE:
                return False
            if code == ER_SPECIFIC_ACCESS_DENIED:
                raise self._error(
                    f"variant {label}: user {self.user!r} may not SET GLOBAL {key} on"
                    f" {self._identity()}: {exc.args[-1]}"
                ) from None
        return True  # other refusals (a value that cannot be re-read) show at SET time

    def check_variant(self, label: str, options: dict[str, OptionValue]) -> None:
        """Refuse, before anything runs, a variant this server cannot take: an option that is
        not a global variable, or one that is not dynamic when there is no restart_command."""
        self._plan(label, options)

    @contextmanager
    def apply_variant(self, label: str, options: dict[str, OptionValue]) -> Iterator[Self]:
        """Apply a variant's options for the runs inside the block.

        Dynamic options only: the current GLOBAL values are remembered, each option is SET
        GLOBAL (True -> ON, False -> DEFAULT), and the originals are restored when the block
        ends, after errors and Ctrl-C too (variant_applied = "set_global").

        An option that needs a restart (or a server still running with an earlier variant's
        fragment): all options are written as a [mysqld] fragment into workdir, the
        restart_command runs with $MYBENCH_VARIANT_CNF naming it, the harness waits until the
        server answers again with a fresh uptime and checks every option shows the wanted
        value (variant_applied = "restart_command"). Nothing is restored when such a block
        ends: the server keeps running with that fragment until the next variant restarts it
        (with its own fragment, empty for a variant without options).
        """
        plan = self._plan(label, options)
        if self.restart_command is not None and (
            self._fragment_active or any(not option.dynamic for option in plan)
        ):
            self._refuse_defaults(label, plan)
            self._applied = self._apply_by_restart(label, plan)
            try:
                yield self
            finally:
                self._applied = None
            return
        originals = self._apply_set_global(label, plan)
        try:
            yield self
        except BaseException as exc:
            problem = self._restore(label, originals)
            if problem:
                exc.add_note(problem)
            raise
        else:
            problem = self._restore(label, originals)
            if problem:
                raise self._error(problem)
        finally:
            self._applied = None

    def _log(self, text: str) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        with (self.workdir / "variants.log").open("a") as log:
            log.write(self._scrub(text))

    def _apply_set_global(self, label: str, plan: list[_Option]) -> list[tuple[str, str]]:
        """SET GLOBAL each option; returns (variable, SQL literal of the original value). A
        refused option restores the ones already set and raises UserError."""
        originals: list[tuple[str, str]] = []
        commands = []
        with self._checked_connect() as conn, conn.cursor() as cursor:
            for option in plan:
                cursor.execute(f"SELECT @@GLOBAL.{option.key}")
                originals.append((option.key, escape_item(cursor.fetchone()[0], "utf8mb4")))
            done: list[tuple[str, str]] = []
            for option, original in zip(plan, originals, strict=True):
                statement = f"SET GLOBAL {option.key} = {sql_value(option.value)}"
                try:
                    cursor.execute(statement)
                except pymysql.err.MySQLError as exc:
                    problem = self._restore(label, done)
                    raise self._error(
                        f"variant {label}: {self._identity()} refused {statement}:"
                        f" {exc.args[-1]}" + (f"; {problem}" if problem else "")
                    ) from None
                done.append(original)
                self._log(f"### {contract.utc_timestamp()} variant {label}\n{statement}\n")
                commands.append(
                    {
                        "purpose": "set a variant option on the running server",
                        "command": self.client_command(statement),
                    }
                )
        commands += [
            {
                "purpose": "after the run: restore the server's own value",
                "command": self.client_command(f"SET GLOBAL {key} = {value}"),
            }
            for key, value in originals
        ]
        options = {option.name: option.value for option in plan}
        if plan:
            header = (
                f"applied with SET GLOBAL on the running server {self.label}"
                " (its own configuration otherwise), restored after the run"
            )
        else:
            header = f"no option applied: server {self.label} runs its own configuration"
        how = "set_global" if plan else None
        self._applied = _Applied(label, how, fragment(header, label, options), options, commands)
        return originals

    def _restore(self, label: str, originals: list[tuple[str, str]]) -> str | None:
        """Put the remembered GLOBAL values back; returns what could not be, or None."""
        failed = []
        try:
            with self.connect() as conn, conn.cursor() as cursor:
                for key, value in originals:
                    statement = f"SET GLOBAL {key} = {value}"
                    try:
                        cursor.execute(statement)
                        self._log(
                            f"### {contract.utc_timestamp()} variant {label}: restore\n{statement}\n"
                        )
                    except pymysql.err.MySQLError as exc:
                        failed.append(f"{statement} ({exc.args[-1]})")
        except pymysql.err.MySQLError as exc:
            statements = ", ".join(f"SET GLOBAL {key} = {value}" for key, value in originals)
            failed = [f"{statements} (cannot connect: {exc.args[-1] if exc.args else exc})"]
        if not failed:
            return None
        return self._scrub(
            f"variant {label}: could not restore on server {self.label}: {'; '.join(failed)};"
            " set it back by hand"
        )

    def _apply_by_restart(self, label: str, plan: list[_Option]) -> _Applied:
        options = {option.name: option.value for option in plan}
        text = fragment(
            f"applied by [servers.{self.label}] restart_command (the fragment in"
            f" ${VARIANT_CNF_ENV}), on top of the server's own configuration",
            label,
            options,
        )
        self.workdir.mkdir(parents=True, exist_ok=True)
        path = self.workdir / f"variant-{re.sub(r'[^A-Za-z0-9_.-]', '_', label)}.cnf"
        path.write_text(text)
        started = time.monotonic()
        self._run_restart(label, path)
        self._wait_restarted(label, started)
        self._fragment_active = bool(plan)
        with self._checked_connect() as conn, conn.cursor() as cursor:
            self._variables = _global_variables(cursor)
        for option in plan:
            actual = self._variables.get(option.key, "")
            if not same_value(option.value, actual):
                raise self._error(
                    f"variant {label}: after restart_command {self._identity()} has"
                    f" {option.key} = {actual!r}, wanted {option.value!r}"
                )
        self._datadir = self._local_datadir()
        self._pid = self._local_pid()
        command = f"{VARIANT_CNF_ENV}=my.cnf sh -c {shlex.quote(self.restart_command or '')}"
        purpose = "restart the server with the variant's options (my.cnf is this run's fragment)"
        commands = [{"purpose": purpose, "command": command}]
        return _Applied(label, "restart_command", text, options, commands)

    def _run_restart(self, label: str, path: Path) -> None:
        log_path = self.workdir / "restart.log"
        with log_path.open("a") as log:
            log.write(
                f"### {contract.utc_timestamp()} variant {label}\n$ {self.restart_command}\n"
            )
            log.flush()
            offset = log.tell()
            try:
                result = subprocess.run(
                    ["sh", "-c", self.restart_command or "false"],
                    env={**os.environ, VARIANT_CNF_ENV: str(path)},
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    timeout=self.restart_timeout_s,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                raise self._error(
                    f"variant {label}: restart_command of server {self.label} still running"
                    f" after {self.restart_timeout_s:.0f}s (see {log_path})"
                ) from None
        if result.returncode != 0:
            with log_path.open(errors="replace") as log:
                log.seek(offset)
                tail = [line.strip() for line in log.read().splitlines() if line.strip()][-3:]
            raise self._error(
                f"variant {label}: restart_command of server {self.label} exited with"
                f" {result.returncode}: {' | '.join(tail) or 'no output'} (see {log_path})"
            )

    def _wait_restarted(self, label: str, started: float) -> None:
        """Until the server answers with an uptime younger than the restart command: an old
        server still answering does not count as restarted."""
        deadline = time.monotonic() + self.ready_timeout_s
        last = "no answer yet"
        while time.monotonic() < deadline:
            try:
                with self.connect() as conn, conn.cursor() as cursor:
                    cursor.execute("SHOW GLOBAL STATUS LIKE 'Uptime'")
                    uptime = int(cursor.fetchone()[1])
                if uptime <= time.monotonic() - started + 1:
                    return
                last = f"it answers with Uptime {uptime}s, so it was not restarted"
            except pymysql.err.MySQLError as exc:
                last = str(exc.args[-1]) if exc.args else type(exc).__name__
            time.sleep(0.2)
        raise self._error(
            f"variant {label}: server {self.label} not back {self.ready_timeout_s:.0f}s after"
            f" restart_command: {last}"
        )

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
        return self._scrub(client_command(client, [*where, "-u", self.user, *password], sql))

    def describe(self) -> dict[str, object]:
        """The run document's "server" object: what the server is, how the current variant
        reached it (my_cnf holds the fragment with a comment saying how), its variables."""
        with self._checked_connect() as conn, conn.cursor() as cursor:
            self._variables = _global_variables(cursor)
        variables = redact_secrets(self._variables)
        if self._password and len(self._password) >= MIN_SCRUBBED:
            variables = {
                name: REDACTED if self._password in value else value
                for name, value in variables.items()
            }
        applied = self._applied
        my_cnf = (
            applied.my_cnf
            if applied is not None
            else fragment(
                f"no option applied: server {self.label} runs its own configuration", "", {}
            )
        )
        document: dict[str, object] = {
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
        document["my_cnf"] = my_cnf
        document["my_cnf_options"] = {
            option_key(name): "ON" if value is True else str(value)
            for name, value in (applied.options if applied else {}).items()
            if value is not False
        }
        if self._pid is not None:
            try:
                document["cpu_affinity"] = pinning.applied_cpus(self._pid)
            except OSError:
                pass
        document["variables"] = variables
        return document

    def reproduce_commands(self) -> list[dict[str, str]]:
        """How the current variant's options reached the server, as purpose/command pairs
        (no secret: the client prompts for the password)."""
        return [dict(command) for command in self._applied.commands] if self._applied else []


def _global_variables(cursor) -> dict[str, str]:
    cursor.execute("SHOW GLOBAL VARIABLES")
    return {name.lower(): "" if value is None else str(value) for name, value in cursor.fetchall()}
