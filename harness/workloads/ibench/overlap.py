"""One statement sent, other work done while the server runs it, then its reply read.

PyMySQL's `Connection.query` is a send followed by a blocking read of the reply. The inserter
splits the two so it builds its next batch while the server executes the current one: the
server waits for the client only for the send and the reading of an OK packet, never for the
rows to be made (the client-side cost that otherwise sets the pace of a load on a small
host). The protocol is unchanged: one statement in flight per connection, each committed and
acknowledged before the next is sent.

The two halves are PyMySQL's own (`_execute_command`, `_read_query_result`), the methods its
`query` calls; the pinned PyMySQL version is the one tested against a real server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints
from pymysql.constants import COMMAND  # type: ignore[import-untyped]

T = TypeVar("T")


def overlapped(
    conn: pymysql.connections.Connection,
    statement: bytes,
    meanwhile: Callable[[], T],
    retry: Callable[[pymysql.err.OperationalError], bool],
) -> tuple[T, int]:
    """Send statement, call meanwhile() while the server runs it, read the reply. An error
    that retry(error) accepts sends the statement again. Returns what meanwhile returned and
    how many times the statement was sent again."""
    conn._execute_command(COMMAND.COM_QUERY, statement)
    made = meanwhile()
    again = 0
    while True:
        try:
            conn._read_query_result()
            return made, again
        except pymysql.err.OperationalError as exc:
            if not retry(exc):
                raise
        again += 1
        conn._execute_command(COMMAND.COM_QUERY, statement)
