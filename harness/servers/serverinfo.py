"""What a run document says about a server, whoever started it: product and redaction."""

from __future__ import annotations

import re
import shlex

# Variables that can hold a credential (report_password, wsrep_sst_auth, ...): recorded as
# "<redacted>" when set, so a run document can be published as it is.
SECRET_VARIABLE = re.compile(r"(password|_auth)$")
REDACTED = "<redacted>"


def redact_secrets(variables: dict[str, str]) -> dict[str, str]:
    return {
        name: REDACTED if value and SECRET_VARIABLE.search(name) else value
        for name, value in variables.items()
    }


def server_product(version_string: str, version_comment: str) -> str:
    if "mariadb" in version_string.lower():
        return "mariadb"
    return "percona" if "percona" in version_comment.lower() else "mysql"


_PLAIN_IN_DOUBLE_QUOTES = re.compile(r'[^"$`\\!]*')


def client_command(client: str, connection: list[str], sql: str) -> str:
    """A client command line for a reader; SQL goes in double quotes when the shell leaves it
    alone there, so its own 'quotes' stay readable."""
    sql_argument = f'"{sql}"' if _PLAIN_IN_DOUBLE_QUOTES.fullmatch(sql) else shlex.quote(sql)
    return f"{shlex.join([client, *connection])} -e {sql_argument}"
