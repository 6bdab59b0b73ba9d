"""Compose the my.cnf a server is started with: the campaign base, a variant's overrides, and the
sandbox placement (paths and port) the harness owns. Pure text in, text out."""

from __future__ import annotations

import re
from collections.abc import Mapping

from harness.model.campaign import OptionValue

SECTION = re.compile(r"^\s*\[(?P<name>[^\]]+)\]\s*$")
OPTION = re.compile(r"^\s*(?P<name>[A-Za-z0-9_.-]+)\s*(?:=\s*(?P<value>.*?))?\s*$")
SERVER_SECTIONS = {"mysqld", "server", "mariadb", "mariadbd"}


def option_key(name: str) -> str:
    """Servers accept dashes and underscores alike; compare on one spelling."""
    return name.strip().lower().replace("-", "_")


def render_option(name: str, value: OptionValue) -> str:
    if value is True:
        return name
    if isinstance(value, str) and (value == "" or re.search(r"\s|#", value)):
        return f'{name} = "{value}"'
    return f"{name} = {value}"


def server_options(text: str) -> dict[str, str]:
    """Options of the server sections, by normalised name; a bare flag reads as 'ON'."""
    options: dict[str, str] = {}
    section = ""
    for line in text.splitlines():
        stripped = line.split("#", 1)[0].strip()
        if not stripped or stripped.startswith(";"):
            continue
        if match := SECTION.match(stripped):
            section = match["name"].strip().lower()
        elif section in SERVER_SECTIONS and (match := OPTION.match(stripped)):
            value = match["value"]
            options[option_key(match["name"])] = "ON" if value is None else value.strip("\"'")
    return options


def apply_variant(
    base: str, variant_label: str, overrides: Mapping[str, OptionValue], heading: str = ""
) -> str:
    """Rewrite base so each override appears once: replaced in place, removed (False), or added
    at the end of the first server section under a comment naming the variant (or `heading`)."""
    wanted = {option_key(name): (name, value) for name, value in overrides.items()}
    placed: set[str] = set()
    out: list[str] = []
    section = ""
    first_server_section_end: int | None = None
    for line in base.splitlines():
        stripped = line.split("#", 1)[0].strip()
        if match := SECTION.match(stripped):
            if section in SERVER_SECTIONS and first_server_section_end is None:
                first_server_section_end = len(out)
            section = match["name"].strip().lower()
        elif section in SERVER_SECTIONS and stripped and (match := OPTION.match(stripped)):
            key = option_key(match["name"])
            if key in wanted:
                name, value = wanted[key]
                placed.add(key)
                if value is not False:
                    out.append(render_option(name, value))
                continue
        out.append(line)
    if section in SERVER_SECTIONS and first_server_section_end is None:
        first_server_section_end = len(out)
    added = [
        render_option(name, value)
        for key, (name, value) in wanted.items()
        if key not in placed and value is not False
    ]
    if added:
        if first_server_section_end is None:
            out += ["", "[mysqld]"]
            first_server_section_end = len(out)
        while first_server_section_end > 0 and not out[first_server_section_end - 1].strip():
            first_server_section_end -= 1
        out[first_server_section_end:first_server_section_end] = [
            f"# {heading or f'variant {variant_label}'}",
            *added,
        ]
    return "\n".join(out).rstrip() + "\n"


PLACEMENT_MARKER = "# sandbox placement, set by the harness"


def with_placement(text: str, placement: dict[str, OptionValue]) -> str:
    """Append the sandbox's own [mysqld] block; later lines win, so the harness keeps its paths."""
    block = ["", "[mysqld]", PLACEMENT_MARKER]
    block += [render_option(name, value) for name, value in placement.items()]
    return text.rstrip() + "\n" + "\n".join(block) + "\n"


def overridden(tuned: str, placement: dict[str, OptionValue]) -> dict[str, str]:
    """Options the tuned my.cnf sets that the placement block sets to another value (the later
    line wins, so the server used the harness's): name -> the value the server used."""
    asked = server_options(tuned)
    used = server_options(with_placement("", placement))
    return {name: value for name, value in used.items() if name in asked and asked[name] != value}


def without_placement(text: str) -> str | None:
    """The configuration that was measured: text without the block with_placement() appended
    (from its [mysqld] line to the next section or the end); None when text has no such block."""
    lines = text.splitlines()
    marks = [i for i, line in enumerate(lines) if line.strip() == PLACEMENT_MARKER]
    if not marks or marks[-1] == 0 or lines[marks[-1] - 1].strip().lower() != "[mysqld]":
        return None
    start = marks[-1] - 1
    end = next(
        (i for i in range(marks[-1] + 1, len(lines)) if SECTION.match(lines[i].strip())),
        len(lines),
    )
    return "\n".join(lines[:start] + lines[end:]).rstrip() + "\n"
