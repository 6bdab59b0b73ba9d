"""Applying a variant's options to a server the harness did not start: SET GLOBAL and restore
for dynamic options, the campaign's restart_command with a my.cnf fragment for the others."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints
from pymysql.converters import escape_item  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.errors import UserError
from harness.model.campaign import OptionValue
from harness.servers.existing.option_values import fragment, same_value, sql_value
from harness.servers.mycnf import option_key

VARIANT_CNF_ENV = "MYBENCH_VARIANT_CNF"
ER_READ_ONLY_VARIABLE = 1238  # "Variable 'x' is a read only variable"
ER_SPECIFIC_ACCESS_DENIED = 1227
MASKED = "********"  # what MariaDB shows of a set credential (wsrep_sst_auth): not restorable


@dataclass(frozen=True)
class PlannedOption:
    name: str  # as the campaign spells it
    key: str  # the server's variable name
    value: OptionValue
    dynamic: bool


@dataclass(frozen=True)
class AppliedVariant:
    label: str
    how: Literal["set_global", "restart_command"] | None  # None: the variant sets nothing
    my_cnf: str
    options: dict[str, OptionValue]
    commands: list[contract.ReproduceCommand]


class VariantHost(Protocol):
    """What applying a variant needs from the server it applies to (ExistingServer)."""

    label: str
    workdir: Path  # where the fragments and the variant and restart logs go
    user: str

    @property
    def product(self) -> str: ...
    def connect(self, database: str | None = None) -> pymysql.connections.Connection: ...
    def checked_connect(self) -> pymysql.connections.Connection:
        """connect(), a refusal raised as one UserError line."""
        ...

    def read_variables(self, cursor: pymysql.cursors.Cursor) -> dict[str, str]:
        """SHOW GLOBAL VARIABLES, which the server keeps as what it now is."""
        ...

    def locate(self) -> None:
        """Find the server's datadir and process again (after a restart)."""
        ...

    def identity(self) -> str: ...
    def scrub(self, text: str) -> str: ...
    def error(self, message: str) -> UserError: ...
    def client_command(self, sql: str) -> str: ...


@dataclass(eq=False)
class VariantApplier:
    """Applies variants to one running server: the server holds it and gives itself as host."""

    host: VariantHost
    restart_command: str | None
    restart_timeout_s: float
    ready_timeout_s: float
    applied: AppliedVariant | None = field(default=None, init=False)  # inside apply()
    _fragment_active: bool = field(default=False, init=False)  # restarted with our fragment

    def _plan(self, label: str, options: dict[str, OptionValue]) -> list[PlannedOption]:
        with self.host.checked_connect() as conn, conn.cursor() as cursor:
            variables = self.host.read_variables(cursor)
            keys = {name: option_key(name) for name in options}
            for name, key in keys.items():
                if key not in variables:
                    raise self.host.error(
                        f"variant {label}: {name} is not a global variable of {self.host.identity()}"
                    )
            dynamic = self._dynamic(cursor, label, sorted(set(keys.values())))
        plan = [
            PlannedOption(name, keys[name], value, dynamic[keys[name]])
            for name, value in options.items()
        ]
        fixed = [option for option in plan if not option.dynamic]
        if fixed and self.restart_command is None:
            raise self.host.error(
                f"variant {label}: {fixed[0].name} is not dynamic on {self.host.identity()};"
                f" give [servers.{self.host.label}] restart_command to apply it"
            )
        if fixed:
            self._refuse_defaults(label, plan)
        return plan

    def _refuse_defaults(self, label: str, plan: list[PlannedOption]) -> None:
        reset = [option.name for option in plan if option.value is False]
        if reset:
            raise self.host.error(
                f"variant {label}: {reset[0]} = false (its default) cannot be applied through"
                f" restart_command on {self.host.identity()}; give its value"
            )

    def _dynamic(
        self, cursor: pymysql.cursors.Cursor, label: str, keys: list[str]
    ) -> dict[str, bool]:
        """Which variables SET GLOBAL can change. MariaDB says so in
        information_schema.SYSTEM_VARIABLES.READ_ONLY. MySQL has no such column
        (performance_schema.variables_info does not say), so there each variable is probed
        with `SET GLOBAL x = @@GLOBAL.x`, which changes nothing and fails with error 1238 for a
        read-only one; that path runs for any variable MariaDB's table does not list too."""
        flags: dict[str, bool] = {}
        if self.host.product == "mariadb" and keys:
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

    def _probe_dynamic(self, cursor: pymysql.cursors.Cursor, label: str, key: str) -> bool:
        try:
            cursor.execute(f"SET GLOBAL {key} = @@GLOBAL.{key}")
        except pymysql.err.MySQLError as exc:
            code = exc.args[0] if exc.args else None
            if code == ER_READ_ONLY_VARIABLE:
                return False
            if code == ER_SPECIFIC_ACCESS_DENIED:
                raise self.host.error(
                    f"variant {label}: user {self.host.user!r} may not SET GLOBAL {key} on"
                    f" {self.host.identity()}: {exc.args[-1]}"
                ) from None
        return True  # other refusals (a value that cannot be re-read) show at SET time

    def check(self, label: str, options: dict[str, OptionValue]) -> None:
        """Refuse, before anything runs, a variant this server cannot take: an option that is
        not a global variable, or one that is not dynamic when there is no restart_command."""
        self._plan(label, options)

    @contextmanager
    def apply(self, label: str, options: dict[str, OptionValue]) -> Iterator[None]:
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
            self.applied = self._apply_by_restart(label, plan)
            try:
                yield
            finally:
                self.applied = None
            return
        originals = self._apply_set_global(label, plan)
        try:
            yield
        except BaseException as exc:
            problem = self._restore(label, originals)
            if problem:
                exc.add_note(problem)
            raise
        else:
            problem = self._restore(label, originals)
            if problem:
                raise self.host.error(problem)
        finally:
            self.applied = None

    def _log(self, text: str) -> None:
        self.host.workdir.mkdir(parents=True, exist_ok=True)
        with (self.host.workdir / "variants.log").open("a") as log:
            log.write(self.host.scrub(text))

    def _apply_set_global(self, label: str, plan: list[PlannedOption]) -> list[tuple[str, str]]:
        """SET GLOBAL each option; returns (variable, SQL literal of the original value). A
        refused option restores the ones already set and raises UserError."""
        originals: list[tuple[str, str]] = []
        commands: list[contract.ReproduceCommand] = []
        with self.host.checked_connect() as conn, conn.cursor() as cursor:
            for option in plan:
                cursor.execute(f"SELECT @@GLOBAL.{option.key}")
                value = cursor.fetchone()[0]
                if value == MASKED:
                    raise self.host.error(
                        f"variant {label}: {option.key} shows as {MASKED} on"
                        f" {self.host.identity()}, so its value could not be put back after"
                        " the run; set it by hand or with restart_command"
                    )
                originals.append((option.key, escape_item(value, "utf8mb4")))
            done: list[tuple[str, str]] = []
            for option, original in zip(plan, originals, strict=True):
                statement = f"SET GLOBAL {option.key} = {sql_value(option.value)}"
                try:
                    cursor.execute(statement)
                except pymysql.err.MySQLError as exc:
                    problem = self._restore(label, done)
                    raise self.host.error(
                        f"variant {label}: {self.host.identity()} refused {statement}:"
                        f" {exc.args[-1]}" + (f"; {problem}" if problem else "")
                    ) from None
                done.append(original)
                self._log(f"### {contract.utc_timestamp()} variant {label}\n{statement}\n")
                commands.append(
                    {
                        "purpose": "set a variant option on the running server",
                        "command": self.host.client_command(statement),
                    }
                )
        commands += [
            {
                "purpose": "after the run: restore the server's own value",
                "command": self.host.client_command(f"SET GLOBAL {key} = {value}"),
            }
            for key, value in originals
        ]
        options = {option.name: option.value for option in plan}
        if plan:
            header = (
                f"applied with SET GLOBAL on the running server {self.host.label}"
                " (its own configuration otherwise), restored after the run"
            )
        else:
            header = f"no option applied: server {self.host.label} runs its own configuration"
        how: Literal["set_global"] | None = "set_global" if plan else None
        self.applied = AppliedVariant(
            label, how, fragment(header, label, options), options, commands
        )
        return originals

    def _restore(self, label: str, originals: list[tuple[str, str]]) -> str | None:
        """Put the remembered GLOBAL values back; returns what could not be, or None."""
        failed = []
        try:
            with self.host.connect() as conn, conn.cursor() as cursor:
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
        return self.host.scrub(
            f"variant {label}: could not restore on server {self.host.label}: {'; '.join(failed)};"
            " set it back by hand"
        )

    def _apply_by_restart(self, label: str, plan: list[PlannedOption]) -> AppliedVariant:
        options = {option.name: option.value for option in plan}
        text = fragment(
            f"applied by [servers.{self.host.label}] restart_command (the fragment in"
            f" ${VARIANT_CNF_ENV}), on top of the server's own configuration",
            label,
            options,
        )
        self.host.workdir.mkdir(parents=True, exist_ok=True)
        path = self.host.workdir / f"variant-{re.sub(r'[^A-Za-z0-9_.-]', '_', label)}.cnf"
        path.write_text(text)
        started = time.monotonic()
        self._run_restart(label, path)
        self._wait_restarted(label, started)
        self._fragment_active = bool(plan)
        with self.host.checked_connect() as conn, conn.cursor() as cursor:
            variables = self.host.read_variables(cursor)
        for option in plan:
            actual = variables.get(option.key, "")
            if not same_value(option.value, actual):
                raise self.host.error(
                    f"variant {label}: after restart_command {self.host.identity()} has"
                    f" {option.key} = {actual!r}, wanted {option.value!r}"
                )
        self.host.locate()
        restart = self.host.scrub(self.restart_command or "")
        command = f"{VARIANT_CNF_ENV}=my.cnf sh -c {shlex.quote(restart)}"
        purpose = "restart the server with the variant's options (my.cnf is this run's fragment)"
        commands: list[contract.ReproduceCommand] = [{"purpose": purpose, "command": command}]
        return AppliedVariant(label, "restart_command", text, options, commands)

    def _run_restart(self, label: str, path: Path) -> None:
        log_path = self.host.workdir / "restart.log"
        with log_path.open("a") as log:
            log.write(
                f"### {contract.utc_timestamp()} variant {label}\n"
                f"$ {self.host.scrub(self.restart_command or '')}\n"
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
                raise self.host.error(
                    f"variant {label}: restart_command of server {self.host.label} still running"
                    f" after {self.restart_timeout_s:.0f}s (see {log_path})"
                ) from None
        if result.returncode != 0:
            with log_path.open(errors="replace") as log:
                log.seek(offset)
                tail = [line.strip() for line in log.read().splitlines() if line.strip()][-3:]
            raise self.host.error(
                f"variant {label}: restart_command of server {self.host.label} exited with"
                f" {result.returncode}: {' | '.join(tail) or 'no output'} (see {log_path})"
            )

    def _wait_restarted(self, label: str, started: float) -> None:
        """Until the server answers with an uptime younger than the restart command: an old
        server still answering does not count as restarted."""
        deadline = time.monotonic() + self.ready_timeout_s
        last = "no answer yet"
        while time.monotonic() < deadline:
            try:
                with self.host.connect() as conn, conn.cursor() as cursor:
                    cursor.execute("SHOW GLOBAL STATUS LIKE 'Uptime'")
                    uptime = int(cursor.fetchone()[1])
                if uptime <= time.monotonic() - started + 1:
                    return
                last = f"it answers with Uptime {uptime}s, so it was not restarted"
            except pymysql.err.MySQLError as exc:
                last = str(exc.args[-1]) if exc.args else type(exc).__name__
            time.sleep(0.2)
        raise self.host.error(
            f"variant {label}: server {self.host.label} not back {self.ready_timeout_s:.0f}s after"
            f" restart_command: {last}"
        )
