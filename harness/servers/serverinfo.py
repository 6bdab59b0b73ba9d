"""What a run document says about a server, whoever started it: its product and the client
command lines it records (credentials: contract's secret rule, contract/_secrets.py)."""

from __future__ import annotations

import re
import shlex
from typing import Literal

# The run document's server.product.
ProductName = Literal["mariadb", "mysql", "percona"]


def server_product(version_string: str, version_comment: str) -> ProductName:
    if "mariadb" in version_string.lower():
        return "mariadb"
    return "percona" if "percona" in version_comment.lower() else "mysql"


_PLAIN_IN_DOUBLE_QUOTES = re.compile(r'[^"$`\\!]*')


def client_command(client: str, connection: list[str], sql: str) -> str:
    """A client command line for a reader; SQL goes in double quotes when the shell leaves it
    alone there, so its own 'quotes' stay readable."""
    sql_argument = f'"{sql}"' if _PLAIN_IN_DOUBLE_QUOTES.fullmatch(sql) else shlex.quote(sql)
    return f"{shlex.join([client, *connection])} -e {sql_argument}"
