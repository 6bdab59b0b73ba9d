"""What a sysbench log cannot say (campaign, variant, workload, server, host, my.cnf ...), from
command-line options or a small TOML sidecar checked against sidecar.schema.json.

Top-level keys apply to every run; each `[[runs]]` entry names its log files and may override
them, so one sidecar can describe a whole campaign (two server versions, several tests).
Options given on the command line override both; log files given on the command line are one
more group. Paths in a sidecar are relative to it.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from harness.importing.sources import refused

SCHEMA_PATH = Path(__file__).with_name("sidecar.schema.json")
PATH_KEYS = ("my_cnf",)
# Sidecar keys whose option is not named after them.
OPTIONS = {"server_product": "--product"}
# What each group must know in the end.
REQUIRED = ("variant", "server_product", "server_version", "host")


@dataclass(frozen=True)
class LogGroup:
    """Log files that make one variant's runs of one workload, and what is known about them."""

    files: list[Path]
    facts: dict[str, Any]  # the sidecar schema's facts, resolved (TOML's and click's values)
    named_in: str  # where the group was described, for messages

    def fact(self, key: str) -> str | None:
        value = self.facts.get(key)
        return None if value is None else str(value)


@dataclass(frozen=True)
class LogPlan:
    campaign: str
    title: str
    description: str | None
    file: Path  # what named the campaign: the sidecar, else the first log
    groups: list[LogGroup]


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


def load_sidecar(path: Path) -> dict[str, Any]:
    """The sidecar's keys, checked, with its paths made relative to the working directory."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise refused(path, f"cannot read ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise refused(path, f"not TOML ({exc})") from None
    error = jsonschema.exceptions.best_match(_validator().iter_errors(data))
    if error is not None:
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise refused(path, f"{key.lstrip('.') or 'top level'}: {error.message}")
    folder = path.parent
    for entry in [data, *data.get("runs", [])]:
        for key in PATH_KEYS:
            if key in entry:
                entry[key] = folder / entry[key]
        if "files" in entry:
            entry["files"] = [folder / name for name in entry["files"]]
    return data


def plan_logs(sidecar: Path | None, files: list[Path], options: Mapping[str, Any]) -> LogPlan:
    """The import's groups: the sidecar's [[runs]], and the log files given as arguments;
    options (the command line's, None when not given) override the sidecar."""
    data = load_sidecar(sidecar) if sidecar is not None else {}
    given = {key: value for key, value in options.items() if value not in (None, ())}
    _check_options(given)
    top = {key: value for key, value in data.items() if key != "runs"}
    groups = [
        LogGroup(
            entry["files"],
            {**top, **{k: v for k, v in entry.items() if k != "files"}, **given},
            f"{sidecar}: runs[{index}]",
        )
        for index, entry in enumerate(data.get("runs", []))
    ]
    if files:
        groups.append(LogGroup(files, {**top, **given}, str(sidecar or "the command line")))
    if not groups:
        raise refused(
            sidecar or "mybench import sysbench", "no log file: name some, or [[runs]] files"
        )
    for group in groups:
        _check_complete(group, sidecar is not None)
    campaign = given.get("campaign") or top.get("campaign")
    if campaign is None:
        also = " or campaign in the sidecar" if sidecar else ""
        raise refused(sidecar or "the command line", f"no campaign: give --campaign{also}")
    return LogPlan(
        campaign,
        given.get("title") or top.get("title") or campaign,
        given.get("description") or top.get("description"),
        sidecar or groups[0].files[0],
        groups,
    )


def option_of(key: str) -> str:
    """The command-line option that gives a sidecar key."""
    return OPTIONS.get(key, "--" + key.replace("_", "-"))


def _check_options(given: dict[str, Any]) -> None:
    """The command line's values, held to the sidecar's rules and named by their option."""
    as_toml = {
        key: list(value)
        if isinstance(value, tuple)
        else str(value)
        if isinstance(value, Path)
        else value
        for key, value in given.items()
    }
    error = jsonschema.exceptions.best_match(_validator().iter_errors(as_toml))
    if error is not None:
        key = str(error.absolute_path[0]) if error.absolute_path else ""
        raise refused("the command line", f"{option_of(key)}: {error.message}")


def _check_complete(group: LogGroup, has_sidecar: bool) -> None:
    also = " or {} in the sidecar" if has_sidecar else ""
    for key in REQUIRED:
        if group.facts.get(key) is None:
            raise refused(group.named_in, f"no {key}: give {option_of(key)}{also.format(key)}")
