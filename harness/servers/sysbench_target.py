"""Where sysbench connects to a server, which every server kind offers (`sysbench_target` in
protocol.py); harness/workloads/sysbench/commands.py puts it on the command lines it builds and
renders."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DATABASE = "sbtest"  # the database sysbench's tables live in


@dataclass(frozen=True)
class Target:
    """Where sysbench connects: a unix socket, or host and port; user; an optional password.

    options() is what gets recorded and rendered, so it never holds the password: when there
    is one it shows `password_shown` instead (`"$VAR"` for an environment variable, which
    render() leaves unquoted so the command still works in a shell, or a placeholder such as
    `<password from FILE>`). runnable() gives the argv to execute, with the real password.
    """

    socket: Path | None = None
    user: str = "root"
    host: str | None = None
    port: int | None = None
    password: str | None = field(default=None, repr=False, compare=False)
    password_shown: str = "<password>"

    def options(self) -> dict[str, str]:
        where = (
            {"mysql-socket": str(self.socket)}
            if self.socket is not None
            else {"mysql-host": self.host or "localhost", "mysql-port": str(self.port or 3306)}
        )
        shown = {} if self.password is None else {"mysql-password": self.password_shown}
        return {
            "db-driver": "mysql",
            **where,
            "mysql-user": self.user,
            **shown,
            "mysql-db": DATABASE,
        }

    def secret_options(self) -> dict[str, str]:
        """The options that carry the secret, for the argv that runs and nowhere else."""
        return {} if self.password is None else {"mysql-password": self.password}

    def runnable(self, argv: list[str]) -> list[str]:
        """argv as recorded (from command(), possibly pinned) with the shown password replaced
        by the real one; unchanged when there is no password."""
        if self.password is None:
            return list(argv)
        shown = f"--mysql-password={self.password_shown}"
        return [f"--mysql-password={self.password}" if arg == shown else arg for arg in argv]
