"""Effective configuration of runs and what differs between them.

A my.cnf says what someone asked for; SHOW GLOBAL VARIABLES (server.variables) says what the
server ran with, defaults included. The diff compares the latter and marks each value the my.cnf
set. The rules (option prefixes, subsystem groups, per-instance variables) are data in
CONFIG_RULES because the compare page applies the same rules in the browser (js/compare/config.js)
to whichever runs the reader picks; campaign pages and the configdiff shortcode use the functions
below.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument

# MySQL's option syntax: loose_ tolerates an option the server does not know, skip_ and
# disable_ switch a boolean off, enable_ switches it on; what follows is the variable's name.
OPTION_PREFIXES = ("loose_", "skip_", "disable_", "enable_")

# (group title, name prefixes), first match wins; a variable matching none is "Other".
SUBSYSTEMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("InnoDB", ("innodb_",)),
    (
        "Binary log and replication",
        ("binlog_", "log_bin", "sync_binlog", "max_binlog_", "log_slave_", "log_replica_",
         "gtid_", "server_id", "relay_", "slave_", "replica_", "rpl_", "replicate_",
         "master_", "expire_logs_"),
    ),
    ("Performance schema", ("performance_schema",)),
    ("Query cache", ("query_cache_", "have_query_cache")),
    ("Optimizer", ("optimizer_", "join_", "histogram_", "use_stat_tables", "eq_range_")),
    ("Connections and threads", ("max_connections", "max_user_connections", "thread_",
                                 "back_log", "extra_")),
    ("Character sets", ("character_set", "collation_")),
    ("Aria and MyISAM", ("aria_", "myisam_", "key_")),
    ("Server build", ("version", "have_")),
)  # fmt: skip
OTHER_GROUP = "Other"
# Values that tell one server instance from another rather than describe its configuration:
# every sandbox has its own port, socket and directories, so these differ by construction.
INSTANCE_GROUP = "Instance: paths, ports and ids"
INSTANCE_VARIABLES = ("port", "report_port", "socket", "server_uid", "server_uuid", "pid_file",
                      "hostname", "report_host")  # fmt: skip
PATH_PREFIX = "/"  # a value naming a filesystem path belongs to the instance too

CONFIG_RULES = {
    "option_prefixes": OPTION_PREFIXES,
    "groups": [[title, list(prefixes)] for title, prefixes in SUBSYSTEMS],
    "other_group": OTHER_GROUP,
    "instance_group": INSTANCE_GROUP,
    "instance_variables": INSTANCE_VARIABLES,
    "path_prefix": PATH_PREFIX,
}


def variable_of(option: str, variables: dict[str, str]) -> str | None:
    """The global variable a my.cnf option (normalised name) sets, or None if none does."""
    name = option
    while name not in variables:
        prefix = next((p for p in OPTION_PREFIXES if name.startswith(p)), None)
        if prefix is None:
            return None
        name = name.removeprefix(prefix)
    return name


def group_of(name: str, values: list[str | None]) -> str:
    """The subsystem a variable belongs to, given its values in the compared runs."""
    if name in INSTANCE_VARIABLES or any(
        value and value.startswith(PATH_PREFIX) for value in values
    ):
        return INSTANCE_GROUP
    for title, prefixes in SUBSYSTEMS:
        if name.startswith(prefixes):
            return title
    return OTHER_GROUP


def effective_config(run: RunDocument) -> dict[str, dict[str, Any]]:
    """name -> {"value": effective value or None, "cnf": 'option = value' as the my.cnf set it,
    or None for a default}. Options that set no variable keep their name with value None."""
    variables = run["server"].get("variables", {})
    config = {name: {"value": value, "cnf": None} for name, value in variables.items()}
    for option, text in run["server"].get("my_cnf_options", {}).items():
        name = variable_of(option, variables) or option
        config.setdefault(name, {"value": None, "cnf": None})["cnf"] = f"{option} = {text}"
    return config


def _compared_value(cell: dict[str, Any]) -> tuple[str | None, str | None]:
    # An option that is no variable can only be compared on its my.cnf text.
    return (cell["value"], cell["cnf"] if cell["value"] is None else None)


NO_CELL = {"value": None, "cnf": None}  # the run's server has no such variable or option


def config_diff(runs: list[RunDocument], labels: list[str]) -> dict[str, Any]:
    """Variables (and my.cnf options that set none) whose effective value differs between runs,
    grouped by subsystem in SUBSYSTEMS order, instance group last; a column per label."""
    configs = [effective_config(run) for run in runs]
    by_group: dict[str, list[dict[str, Any]]] = {}
    for name in sorted({name for config in configs for name in config}):
        cells = [config.get(name, NO_CELL) for config in configs]
        if len({_compared_value(cell) for cell in cells}) < 2:
            continue
        group = group_of(name, [cell["value"] for cell in cells])
        by_group.setdefault(group, []).append({"name": name, "cells": cells})
    order = [title for title, _ in SUBSYSTEMS] + [OTHER_GROUP, INSTANCE_GROUP]
    groups = [
        {"title": title, "instance": title == INSTANCE_GROUP, "rows": by_group[title]}
        for title in order
        if title in by_group
    ]
    return {"labels": labels, "groups": groups}
