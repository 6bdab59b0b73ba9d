"""The one secret rule: which option names hold a credential, how recorded text is redacted, and
which values of a run document would still leak one.

The harness applies it wherever it records text (my.cnf text and options, variables, commands,
SET GLOBAL and restore statements, the campaign file and diff of the provenance snapshot, the
logs it writes beside a server's work); the validator (`credential_leaks`) refuses a document
in which it would still change something, so a leak cannot be published even from a
hand-edited file.

Credential names. A name is split into words on `_`, `-` and `.` (lower case, trailing digits
of the last word dropped: password1); it holds a credential when

- its last word is `password`, `passwd`, `pass`, `passphrase`, `pwd`, `pw`, `auth`, `token`,
  `apikey`, `filekey`, `credential` or `credentials`, or its last two are `api key` or
  `access key` (report_password, wsrep_sst_auth, mysql-password, MYSQL_PWD, DB_PASS, pscp's
  -pw, keyring_encrypted_file_password, authentication_ldap_sasl_bind_root_pwd,
  hashicorp_key_management_token, file_key_management_filekey, AWS_ACCESS_KEY), or
- any word is `secret` (keyring_hashicorp_secret_id),

except the plain settings in PLAIN_SETTINGS (secure_auth and disconnect_on_expired_password
are booleans) and a flag whose first word is `no`, `skip` or `ask` (--no-password). A
credential word followed by more words names a setting about credentials, not one:
old_passwords, strict_password_validation, default_password_lifetime, max_password_errors,
validate_password.policy, simple_password_check_digits,
caching_sha2_password_private_key_path, innodb_ft_max_token_size, show_slave_auth_info,
--password-file. A `key` alone is not a credential word: ssl_key and its kin (admin_ssl_key,
mysqlx_ssl_key, clone_ssl_key) name a file, innodb_force_primary_key is a boolean,
key_buffer_size a size.

Redaction. Text is read three ways, and a value found by any of them becomes `<redacted>`
(inside the quotes it had, if any):

- Assignments, wherever they are: a credential name followed by `=` (a my.cnf or TOML line,
  whose value runs to the end of the line or its closing quote, also under a quoted or dotted
  TOML key and in a diff; an option `--name=x`; an environment assignment `DB_PASS=x`; a
  statement's `SET GLOBAL report_password = 'x'` or `MASTER_PASSWORD='x'`), or a bare one
  followed by a quoted string (`OPTIONS (PASSWORD 'x')`).
- Shell words: the text is split into simple commands at `;`, `&`, `|`, newlines, parentheses
  (subshells, `$(…)`) and backticks, and into words that keep their quotes; every quoted part
  of a word is read again the same way (`sh -c '…'`, `ssh host "…"`, `mariadb -e "…"`). In a
  simple command, the word after a credential option that stands alone (`--password x`,
  `-password x`) is its value, except after a MySQL or MariaDB client (mysql*, mariadb*,
  mariabackup, xtrabackup; not the mysqld and mariadbd servers): their `--password` and `-p`
  take a value only attached, alone they prompt and the next word is a database. So after a
  client `-px` is a password and `-p x` is not; after sshpass, mydumper, myloader and Percona
  Toolkit's pt-* tools, whose `-p` takes the password either way, both are (sshpass's own
  options end at the command it runs: `sshpass -p x ssh -p 22 host` keeps the port); after
  any other command `-p` is left alone (a port, mkdir's parents, cp's preserve). After curl,
  `-u`/`--user`/`-U`/`--proxy-user user:x` carry a password after the first colon.
- URLs, DSNs and SQL: the password of a URL `scheme://user:x@host` and of a Go DSN
  `user:x@tcp(host)/db` (any `@protocol(`), a Percona Toolkit DSN's `p=x` (`h=db,u=u,p=x`),
  `IDENTIFIED BY|AS 'x'` (after `WITH|VIA plugin`, also `USING 'x'` and `OR plugin USING 'x'`,
  with or without `PASSWORD(…)` or `PASSWORD` before the value), `SET PASSWORD [FOR account]
  = 'x'`, and `PASSWORD('x')` / `OLD_PASSWORD('x')` anywhere.

A value that only says where a secret comes from stays: an angle-bracketed note (`<redacted>`,
`<password from FILE>`) or a shell variable (`$NAME`, `"$NAME"`, `${NAME}`); so do the unquoted
SQL words NULL and DEFAULT of a statement, which set no secret.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from functools import lru_cache
from itertools import accumulate
from typing import Any

REDACTED = "<redacted>"

_LAST_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pass",
        "passphrase",
        "pwd",
        "pw",
        "auth",
        "token",
        "apikey",
        "filekey",
        "credential",
        "credentials",
    }
)
_LAST_TWO_WORDS = frozenset({("api", "key"), ("access", "key")})
_ANY_WORD = frozenset({"secret"})
_FLAG_WORDS = frozenset({"no", "skip", "ask"})  # --no-password, --skip-password take no secret
PLAIN_SETTINGS = frozenset({"secure_auth", "disconnect_on_expired_password"})

_MAX_PASSES = 8  # a bound only: random texts of every spelling settle within three passes
_NO_VALUE = frozenset({"NULL", "DEFAULT"})  # SET GLOBAL x = NULL unsets it: nothing to hide
_WORD_SEPARATORS = re.compile(r"[-_.]+")
_PLACEHOLDER = re.compile(r"<[^<>\n]*>|\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\}")
# Only text holding one of these can hold a credential the rules below find (a fast path).
_MAY_HOLD_WORDS = (
    "pass", "pw", "auth", "token", "apikey", "api_key", "api-key", "access_key", "access-key",
    "filekey", "credential", "secret", "identified", "-p", "://", "@", "curl", "p=",
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
# Only the name is matched: the value of a plain name (restart_command = "...") is searched
# too. A name (its closing quote, if it had one) then `=`, or whitespace before a quoted value.
_INLINE_NAME = re.compile(rf"{_NAME}[\"']?(?:[ \t]*(?P<equals>=)[ \t]*|[ \t]+(?=['\"]))")
_INLINE_VALUE = re.compile(_VALUE)

# Shell words: a word is a run of parts (a note, quoted strings, escapes, plain characters);
# a separator ends a simple command; whitespace and redirections only end a word.
_WORD_PART = re.compile(
    r"(?P<note><[^<>\n]*>)|(?P<quoted>'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\")"
    r"|\\.|[^\s;&|()`'\"\\<>]+|['\"\\]"
)
_SHELL_TOKEN = re.compile(rf"(?P<word>(?:{_WORD_PART.pattern})+)|(?P<separator>[;&|()`\n])")
_CLIENT = re.compile(r"(?:mysql|mariadb)[\w-]*|mariabackup|xtrabackup")
_SERVER = re.compile(r"(?:mysqld|mariadbd)(?:[-_]\w+)?")
_P_TAKES_A_WORD = re.compile(r"sshpass|mydumper|myloader|pt-[\w-]+")
_SSHPASS_ARGUMENTS = frozenset({"-f", "-d", "-P"})  # its options taking a word (-p: the value)
_CURL_USER_OPTIONS = frozenset({"-u", "--user", "-U", "--proxy-user"})
_LONE_OPTION = re.compile(r"--?(?P<name>[A-Za-z][\w.-]+)")

_URL_PASSWORDS = (
    re.compile(r"(?P<sep>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]+:)(?P<value>[^\s/@]+)(?=@)"),
    re.compile(r"(?P<sep>(?<![^\s'\"=(,])[^\s:@/'\"=(,]+:)(?P<value>[^\s@'\"]+)(?=@\w+\()"),
)
_PT_DSN = re.compile(r"(?<![^\s'\"=])[A-Za-z]=[^,\s'\"]*(?:,[A-Za-z]=[^,\s'\"]*)+")
# user@host, each part plain or quoted; no space outside quotes, so a failed match ends early.
_ACCOUNT = r"""(?:'[^'\n]*'|"[^"\n]*"|`[^`\n]*`|[^\s='"`])+"""
_SQL_BEFORE_PASSWORD = r"(?:(?:OLD_)?PASSWORD\b\s*\(?\s*)?"
_SQL_PASSWORDS = (
    re.compile(
        r"(?P<sep>\b(?:IDENTIFIED\s+(?:(?:WITH|VIA)\s+\S+\s+)?(?:BY|AS|USING)"
        rf"|\bOR\s+\S+\s+USING)\s+{_SQL_BEFORE_PASSWORD})(?P<value>{_VALUE})",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?P<sep>\bSET\s+PASSWORD\b(?:\s+FOR\s+{_ACCOUNT})?\s*=\s*{_SQL_BEFORE_PASSWORD})"
        rf"(?P<value>{_VALUE})",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?P<sep>(?<![\w$])(?:OLD_)?PASSWORD\s*\(\s*)(?P<value>{_QUOTED})",
        re.IGNORECASE,
    ),
)


@lru_cache(maxsize=8192)  # the same few thousand variable names in every document
def is_secret_name(name: str) -> bool:
    """Whether option, variable or environment variable `name` holds a credential."""
    key = name.strip().lower().replace("-", "_")
    if key in PLAIN_SETTINGS or key.split(".")[-1] in PLAIN_SETTINGS:
        return False
    words = [word for word in _WORD_SEPARATORS.split(key) if word]
    if not words or words[0] in _FLAG_WORDS:
        return False
    last = words[-1].rstrip("0123456789")
    return (
        last in _LAST_WORDS
        or (*words[-2:-1], last) in _LAST_TWO_WORDS
        or not _ANY_WORD.isdisjoint(words)
    )


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
        if name.start() < position or not is_secret_name(name["name"]):
            continue
        if name["equals"] is None and text[name.start() - 1 : name.start()] == "-":
            continue  # `--password 'x'` is a shell word: the client conventions decide
        value = _INLINE_VALUE.match(text, name.end())
        if value is None or (value.group().startswith("#") and text[name.end() - 1] in " \t"):
            continue  # `name = # …` is an empty my.cnf value and a comment
        out += [text[position : value.start()], _redacted_value(value.group())]
        position = value.end()
    return "".join(out) + text[position:]


def _redact_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """text with each span (the outer one where two overlap) redacted."""
    out, position = [], 0
    for start, end in sorted(spans, key=lambda span: (span[0], -span[1])):
        if start >= position:
            out += [text[position:start], _redacted_value(text[start:end])]
            position = end
    return "".join(out) + text[position:]


def _plain(word: str) -> str:
    """A shell word without its quotes and escapes (enough to recognise a name)."""
    return word.replace("'", "").replace('"', "").replace("\\", "")


def _tail(word: re.Match[str], index: int) -> tuple[int, int]:
    """The span of word from index on, without a closing quote opened before index."""
    tail = word.group()[index:]
    end = word.end()
    if tail and tail[-1] in "'\"" and tail.count(tail[-1]) % 2:
        end -= 1
    return word.start() + index, end


@lru_cache(maxsize=4096)
def _tool(word: str) -> str | None:
    """Which convention for passwords the command named word follows, if any."""
    name = word.rsplit("/", 1)[-1]
    if _SERVER.fullmatch(name):
        return "server"
    if _CLIENT.fullmatch(name):
        return "client"
    if _P_TAKES_A_WORD.fullmatch(name):
        return name if name == "sshpass" else "p-takes-a-word"
    return "curl" if name == "curl" else None


def _command_spans(words: list[re.Match[str]]) -> Iterator[tuple[int, int]]:
    """The spans of the passwords in one simple command's words, by its tools' conventions."""
    plain = [_plain(word.group()) for word in words]
    tool: str | None = None
    index = 0
    while index < len(words):
        word, name = words[index], plain[index]
        following = plain[index + 1] if index + 1 < len(words) else ""
        takes_next = bool(following) and not following.startswith("-")
        if (kind := _tool(name)) is not None:
            tool = kind
        elif (
            tool == "sshpass"
            and not name.startswith("-")
            and plain[index - 1] not in _SSHPASS_ARGUMENTS
        ):
            tool = None  # the command sshpass runs: its options are its own
        if (
            name.startswith("-p")
            and len(name) > 2
            and tool in ("client", "sshpass", "p-takes-a-word")
        ):
            yield _tail(word, word.group().index("-p") + 2)
        elif name == "-p" and takes_next and tool in ("sshpass", "p-takes-a-word"):
            yield words[index + 1].span()
            index += 1
        elif tool == "curl" and name in _CURL_USER_OPTIONS and ":" in following:
            user = words[index + 1]
            yield _tail(user, user.group().index(":") + 1)
            index += 1
        elif tool == "curl" and name[:2] in ("-u", "-U") and ":" in name:
            yield _tail(word, word.group().index(":") + 1)
        elif (
            takes_next
            and tool != "client"
            and (option := _LONE_OPTION.fullmatch(name)) is not None
            and is_secret_name(option["name"])
        ):
            yield words[index + 1].span()
            index += 1
        index += 1


def _shell_spans(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The spans of the passwords text[start:end] holds read as shell commands, the quoted
    parts of its words read the same way."""
    words: list[re.Match[str]] = []
    for token in _SHELL_TOKEN.finditer(text, start, end):
        if token["separator"] is not None:
            yield from _command_spans(words)
            words = []
            continue
        words.append(token)
        if "'" not in token.group() and '"' not in token.group():
            continue
        for part in _WORD_PART.finditer(text, token.start(), token.end()):
            if part["quoted"] is not None:
                yield from _shell_spans(text, part.start() + 1, part.end() - 1)
    yield from _command_spans(words)


def _redact_pt_dsn(match: re.Match[str]) -> str:
    pairs = match.group().split(",")
    return ",".join(
        f"p={_redacted_value(pair[2:])}" if pair.startswith("p=") else pair for pair in pairs
    )


def redact_text(text: str) -> str:
    """text with every credential the rules find replaced by `<redacted>`: redacted again
    until nothing changes (a value one reading redacts can make a line another reading
    takes whole), so the validator, which asks whether redaction would change a text, accepts
    whatever this returns."""
    if not _MAY_HOLD.search(text):
        return text
    for _ in range(_MAX_PASSES):
        redacted = _redact_once(text)
        if redacted == text:
            break
        text = redacted
    return text


def _redact_once(text: str) -> str:
    text = _LINE_ASSIGNMENT.sub(_redact_assignment, text)
    text = _redact_inline_assignments(text)
    text = _redact_spans(text, list(_shell_spans(text, 0, len(text))))
    for pattern in (*_URL_PASSWORDS, *_SQL_PASSWORDS):
        text = pattern.sub(_redact_value, text)
    return _PT_DSN.sub(_redact_pt_dsn, text)


def redact_options(options: Mapping[str, str]) -> dict[str, str]:
    """name -> value with the value of every credential name redacted (an empty one stays)."""
    return {
        name: _redacted_value(value) if value and is_secret_name(name) else value
        for name, value in options.items()
    }


def redact_document(value: Any) -> Any:
    """A copy of a JSON value with the rule applied to every string: the value of a member
    named like a credential redacted, every other string as redact_text makes it."""
    if isinstance(value, dict):
        return {
            name: _redacted_value(item)
            if isinstance(item, str) and item and is_secret_name(name)
            else redact_document(item)
            for name, item in value.items()
        }
    if isinstance(value, list):
        return [redact_document(item) for item in value]
    return redact_text(value) if isinstance(value, str) else value


@lru_cache(maxsize=4096)  # the runs of one campaign share its file's text and most commands
def _would_change(text: str) -> bool:
    return redact_text(text) != text


def _string_leak(name: str | None, text: str) -> str | None:
    """Why string member `name` (None: an array item) leaks a credential, or None."""
    if name is not None and text and is_secret_name(name) and not is_redacted(text):
        return f"{name} holds a credential: record it as {REDACTED}"
    if _would_change(text):
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
    return any(_would_change(text) for text in _holding(texts))


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
