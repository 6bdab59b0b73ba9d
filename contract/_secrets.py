"""The one secret rule: which option names hold a credential, how recorded text is redacted, and
which values of a run document would still leak one.

The harness applies it wherever it records text (my.cnf text and options, variables, commands,
SET GLOBAL and restore statements, the campaign file and diff of the provenance snapshot, the
logs it writes beside a server's work); the validator (`credential_leaks`) refuses a document
in which it would still change something, so a leak cannot be published even from a
hand-edited file.

Credential names. A name is split into words on `_`, `-` and `.` (lower case); it holds a
credential when

- its last word is `password`, `passwd`, `passphrase`, `pwd`, `auth`, `token`, `filekey`,
  `credential` or `credentials` (report_password, wsrep_sst_auth, mysql-password, MYSQL_PWD,
  keyring_encrypted_file_password, authentication_ldap_sasl_bind_root_pwd,
  hashicorp_key_management_token, file_key_management_filekey), or
- any word is `secret` (keyring_hashicorp_secret_id),

except the plain settings in PLAIN_SETTINGS (secure_auth and disconnect_on_expired_password
are booleans). A credential word followed by more words names a setting about credentials, not
one: old_passwords, strict_password_validation, default_password_lifetime,
max_password_errors, validate_password.policy, simple_password_check_digits,
caching_sha2_password_private_key_path, innodb_ft_max_token_size, show_slave_auth_info.
`*_key` is not a credential word: ssl_key and its kin (admin_ssl_key, mysqlx_ssl_key,
clone_ssl_key) name a file, innodb_force_primary_key is a boolean; the one option that holds
a key itself is file_key_management_filekey.

Redaction. A non-empty value of a credential name becomes `<redacted>` (inside the quotes it
had, if any), as a my.cnf or TOML line (`report_password = x`), an option (`--name=x`), an
environment assignment (`MYSQL_PWD=x`) or a statement (`SET GLOBAL report_password = 'x'`).
Commands lose the passwords they carry: a MySQL/MariaDB client's attached `-px`,
`sshpass -p x`, `IDENTIFIED BY 'x'` (and `IDENTIFIED WITH plugin AS 'x'`), `PASSWORD('x')`
and the password of a URL `scheme://user:x@host`.

A value that only says where a secret comes from stays: an angle-bracketed note (`<redacted>`,
`<password from FILE>`) or a shell variable (`$NAME`, `"$NAME"`, `${NAME}`); so do the unquoted
SQL words NULL and DEFAULT of a statement, which set no secret.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping
from functools import lru_cache
from itertools import accumulate

REDACTED = "<redacted>"

_LAST_WORDS = frozenset(
    {
        "password",
        "passwd",
        "passphrase",
        "pwd",
        "auth",
        "token",
        "filekey",
        "credential",
        "credentials",
    }
)
_ANY_WORD = frozenset({"secret"})
PLAIN_SETTINGS = frozenset({"secure_auth", "disconnect_on_expired_password"})

_NO_VALUE = frozenset({"NULL", "DEFAULT"})  # SET GLOBAL x = NULL unsets it: nothing to hide
_WORD_SEPARATORS = re.compile(r"[-_.]+")
_PLACEHOLDER = re.compile(r"<[^<>\n]*>|\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\}")
# Only text holding one of these can hold a credential the rules below find (a fast path).
_MAY_HOLD_WORDS = (
    "pass", "pwd", "auth", "token", "filekey", "credential", "secret", "identified", "-p", "://"
)  # fmt: skip
_MAY_HOLD = re.compile("|".join(map(re.escape, _MAY_HOLD_WORDS)), re.IGNORECASE)

_NAME = r"(?<![A-Za-z0-9_.$])(?P<name>[A-Za-z][A-Za-z0-9_.-]*)"
_QUOTED = r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""
# A my.cnf or TOML line (or one of a diff): the value runs to the end of the line, or a quoted
# one to its quote.
_LINE_ASSIGNMENT = re.compile(
    rf"^(?P<lead>[+-]?[ \t]*[\"']?)(?=[^=\s]*[a-z]){_NAME}(?P<sep>[\"']?[ \t]*=[ \t]*)"
    rf"(?P<value>{_QUOTED}|[^\s#'\"][^#\n]*?)(?=[ \t]*(?:#|$))",
    re.MULTILINE,
)
# Inside a command or statement: the value is one quoted string, placeholder or word.
_VALUE = rf"{_QUOTED}|<[^<>\n]*>|[^\s;,'\"()<>]+(?:\([^()\s]*\))?"
# Only the name is matched: the value of a plain name (restart_command = "...") is searched too.
_INLINE_NAME = re.compile(rf"{_NAME}[ \t]*=[ \t]*")
_INLINE_VALUE = re.compile(_VALUE)
_CLIENT = re.compile(r"(?:^|[\s/'\"])(?:mysql|mariadb)[A-Za-z_-]*(?=\s)")
_SIMPLE_COMMAND = re.compile(r"[^;&|\n]+")
_ATTACHED_P = re.compile(rf"(?P<sep>(?<=\s)-p)(?P<value>{_VALUE})")
_COMMAND_PASSWORDS = (
    re.compile(rf"(?P<sep>\bsshpass\b[^;&|\n]*?\s-p[ \t]*)(?P<value>{_VALUE})"),
    re.compile(
        rf"(?P<sep>\bIDENTIFIED\s+(?:WITH\s+\S+\s+)?(?:BY|AS)\s+)(?P<value>{_VALUE})",
        re.IGNORECASE,
    ),
    re.compile(rf"(?P<sep>\bPASSWORD\s*\(\s*)(?P<value>{_QUOTED})", re.IGNORECASE),
    re.compile(r"(?P<sep>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]+:)(?P<value>[^\s/@]+)(?=@)"),
)


@lru_cache(maxsize=8192)  # the same few thousand variable names in every document
def is_secret_name(name: str) -> bool:
    """Whether option, variable or environment variable `name` holds a credential."""
    key = name.strip().lower().replace("-", "_")
    if key in PLAIN_SETTINGS or key.split(".")[-1] in PLAIN_SETTINGS:
        return False
    words = [word for word in _WORD_SEPARATORS.split(key) if word]
    return bool(words) and (words[-1] in _LAST_WORDS or not _ANY_WORD.isdisjoint(words))


def is_redacted(value: str) -> bool:
    """Empty, the SQL words NULL or DEFAULT (no value), or a note saying where the secret is:
    `<redacted>`, `<password from F>`, `$V`."""
    unquoted = value.strip()
    if unquoted.upper() in _NO_VALUE:
        return True
    if len(unquoted) >= 2 and unquoted[0] == unquoted[-1] and unquoted[0] in "'\"":
        unquoted = unquoted[1:-1]
    return not unquoted or _PLACEHOLDER.fullmatch(unquoted) is not None


def _redacted_value(value: str) -> str:
    """`<redacted>` in the quotes value had; value itself when it is already a note."""
    if is_redacted(value):
        return value
    quote = value[0] if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" else ""
    return f"{quote}{REDACTED}{quote}"


def _redact_value(match: re.Match[str]) -> str:
    start, end = match.span("value")
    whole = match.group()
    offset = match.start()
    return whole[: start - offset] + _redacted_value(match["value"]) + whole[end - offset :]


def _redact_assignment(match: re.Match[str]) -> str:
    return _redact_value(match) if is_secret_name(match["name"]) else match.group()


def _redact_inline_assignments(text: str) -> str:
    out, position = [], 0
    for name in _INLINE_NAME.finditer(text):
        value = _INLINE_VALUE.match(text, name.end())
        if name.start() < position or value is None or not is_secret_name(name["name"]):
            continue
        out += [text[position : value.start()], _redacted_value(value.group())]
        position = value.end()
    return "".join(out) + text[position:]


def _redact_client_passwords(match: re.Match[str]) -> str:
    command = match.group()
    return _ATTACHED_P.sub(_redact_value, command) if _CLIENT.search(command) else command


def redact_text(text: str) -> str:
    """text with every credential the rules find replaced by `<redacted>`."""
    if not _MAY_HOLD.search(text):
        return text
    text = _LINE_ASSIGNMENT.sub(_redact_assignment, text)
    text = _redact_inline_assignments(text)
    text = _SIMPLE_COMMAND.sub(_redact_client_passwords, text)
    for pattern in _COMMAND_PASSWORDS:
        text = pattern.sub(_redact_value, text)
    return text


def redact_options(options: Mapping[str, str]) -> dict[str, str]:
    """name -> value with the value of every credential name redacted (an empty one stays)."""
    return {
        name: _redacted_value(value) if value and is_secret_name(name) else value
        for name, value in options.items()
    }


def _string_leak(name: str | None, text: str) -> str | None:
    """Why string member `name` (None: an array item) leaks a credential, or None."""
    if name is not None and text and is_secret_name(name) and not is_redacted(text):
        return f"{name} holds a credential: record it as {REDACTED}"
    if redact_text(text) != text:
        return "holds an unredacted credential (a password or secret in clear)"
    return None


def _strings(value: object) -> tuple[list[tuple[str, str]], list[str]]:
    """(member name, text) of every non-empty string member, and every string (members, array
    items, a bare string) of a JSON value: paths are built only once something leaks."""
    named: list[tuple[str, str]] = []
    texts: list[str] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            for name, member in item.items():
                if isinstance(member, str):
                    texts.append(member)
                    if member:
                        named.append((name, member))
                elif isinstance(member, dict | list):
                    pending.append(member)
        elif isinstance(item, list):
            for element in item:
                if isinstance(element, str):
                    texts.append(element)
                elif isinstance(element, dict | list):
                    pending.append(element)
        elif isinstance(item, str):
            texts.append(item)
    return named, texts


def _holding(texts: list[str]) -> set[str]:
    """The texts _MAY_HOLD finds something in. The ASCII ones (nearly all) are searched as one
    lower-cased string with str.find, many times faster than the regex on each; the others by
    the regex, whose case-insensitive matching of some non-ASCII letters (the long s, the Kelvin
    sign) lower() does not mirror."""
    plain = [text for text in texts if text.isascii()]
    holding = {text for text in texts if not text.isascii() and _MAY_HOLD.search(text)}
    lowered = "\n".join(plain).lower()
    starts = list(accumulate((len(text) + 1 for text in plain), initial=0))
    for word in _MAY_HOLD_WORDS:
        found = lowered.find(word)
        while found != -1:
            holding.add(plain[bisect_right(starts, found) - 1])
            found = lowered.find(word, found + 1)
    return holding


def _may_leak(value: object) -> bool:
    """False when no string of value can leak; True when some might (credential_leaks then
    finds where)."""
    named, texts = _strings(value)
    if any(is_secret_name(name) and not is_redacted(text) for name, text in named):
        return True
    return any(redact_text(text) != text for text in _holding(texts))


def credential_leaks(value: object, path: str = "$") -> list[tuple[str, str]]:
    """(JSON path, message) for every string member named like a credential that is not
    redacted, and every string redaction would change."""
    return _leaks(value, path) if _may_leak(value) else []


def _leaks(value: object, path: str) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        members = [(f"{path}.{name}", name, item) for name, item in value.items()]
    elif isinstance(value, list):
        members = [(f"{path}[{index}]", None, item) for index, item in enumerate(value)]
    else:
        members = [(path, None, value)]
    problems = []
    for where, name, item in members:
        if isinstance(item, str):
            why = _string_leak(name, item)
            if why is not None:
                problems.append((where, why))
        elif isinstance(item, dict | list):
            problems += _leaks(item, where)
    return problems
