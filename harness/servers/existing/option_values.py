"""Variant option values on a running server: the literal SET GLOBAL gets, whether SHOW GLOBAL
VARIABLES shows a wanted value, and the my.cnf fragment a restart reads."""

from __future__ import annotations

import re

from pymysql.converters import escape_item  # type: ignore[import-untyped]  # PyMySQL ships no type hints

from harness.model.campaign import OptionValue
from harness.servers.mycnf import render_option

# ASCII digits only (contract/_numbers.py), and a size int() reads: longer ones are text.
_SIZE = re.compile(r"([0-9]{1,20})([kmgtpe])", re.IGNORECASE)
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


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
    quoted: str = escape_item(text, "utf8mb4")
    return quoted


def _normal(value: object) -> str | float:
    text = str(value).strip().lower()
    if text in ("on", "true", "yes"):
        return "on"
    if text in ("off", "false", "no"):
        return "off"
    if size := _SIZE.fullmatch(text):
        in_bytes: int = int(size[1]) * 1024 ** ("kmgtpe".index(size[2]) + 1)
        return in_bytes
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
    booleans: dict[str | float, float] = {"on": 1.0, "off": 0.0}
    if booleans.get(want, want) == booleans.get(have, have):
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
