"""Credentials of an existing server: the password from an environment variable or from a
client option file ([client] then [mybench], later wins), read as the MySQL client library
reads option files."""

from __future__ import annotations

import os
from pathlib import Path

from harness.errors import UserError
from harness.servers.mycnf import option_key

OPTION_FILE_SECTIONS = ("client", "mybench")  # read in this order, later wins
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "s": " ", "\\": "\\", '"': '"', "'": "'"}


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


def read_password(label: str, password_env: str | None, option_file: Path | None) -> str | None:
    """The password of server `label`, or None when the campaign gives no source for one."""
    if password_env:
        password = os.environ.get(password_env)
        if password is None:
            raise UserError(
                f"[servers.{label}] password_env: environment variable {password_env} is not set"
            )
        return password
    if option_file is None:
        return None
    try:
        text = option_file.read_text(errors="replace")
    except OSError as exc:
        raise UserError(
            f"[servers.{label}] option_file: cannot read {option_file}"
            f" ({exc.strerror or type(exc).__name__})"
        ) from None
    password = option_file_options(text, OPTION_FILE_SECTIONS).get("password")
    if password is None:
        sections = " or ".join(f"[{name}]" for name in OPTION_FILE_SECTIONS)
        raise UserError(
            f"[servers.{label}] option_file: {option_file} has no password in"
            f" its {sections} section"
        )
    return password
