"""What the harness needs from a server, whether it starts the server itself (servers/sandbox.py)
or connects to one that runs already (servers/existing/).

`Server` is the interface loading, measuring and the run document use; `ServerBase` holds what
both kinds implement the same way: a context manager that starts and stops, and the check that
turns a dead server into ServerGoneError.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Protocol, Self

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.errors import ServerGoneError
from harness.servers.products.identity import Product
from harness.servers.sysbench_target import Target


class Server(Protocol):
    """A running server, sandboxed or existing."""

    workdir: Path  # local directory for this server's logs
    cpus: tuple[int, ...]  # taskset -c of the server process; empty: not pinned

    @property
    def pid(self) -> int | None: ...
    @property
    def datadir(self) -> Path | None: ...
    @property
    def release(self) -> Product: ...
    def connect(self, database: str | None = None) -> pymysql.connections.Connection: ...
    def connect_args(self) -> dict[str, object]: ...
    def sysbench_target(self) -> Target: ...
    def alive(self, grace: float = 0.0) -> bool: ...
    def check_alive(self) -> None: ...
    def exit_summary(self) -> str: ...
    def client_command(self, sql: str) -> str: ...
    def reproduce_commands(self) -> list[contract.ReproduceCommand]: ...
    def replay_variables(self) -> dict[str, str]: ...  # contract.replay_variables name -> path
    def describe(self) -> contract.Server: ...


class ServerBase(ABC):
    """Use as a context manager: whatever happens inside, stop() runs."""

    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def stop(self) -> None: ...

    @abstractmethod
    def alive(self, grace: float = 0.0) -> bool: ...

    @abstractmethod
    def exit_summary(self) -> str: ...

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def check_alive(self) -> None:
        if not self.alive():
            raise ServerGoneError(self.exit_summary())
