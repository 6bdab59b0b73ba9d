"""Settings whose compiled-in defaults differ between products or versions, and the sentences
that warn a campaign comparing such servers while its my.cnf leaves them to the defaults."""

from __future__ import annotations

from dataclasses import dataclass

from harness.servers.mycnf import option_key
from harness.servers.products.identity import Product
from harness.servers.products.versions import ALL, Rows, Versions, first_value, since, until


@dataclass(frozen=True)
class _Default:
    values: dict[str, Rows]
    set_by: tuple[str, ...] = ()  # options that settle it; the topic's own name when empty


# Compiled-in defaults (the harness starts servers with --defaults-file, so no distribution
# my.cnf applies). MariaDB 10.11.19 and 11.4.5 values checked with
# `mariadbd --no-defaults --verbose --help`; an unknown range is left out rather than guessed.
_DEFAULTS: dict[str, _Default] = {
    # https://dev.mysql.com/doc/refman/8.0/en/replication-options-binary-log.html
    "log_bin": _Default(
        {"mariadb": ((ALL, "OFF"),), "mysql": ((until(8, 0), "OFF"), (since(8, 0), "ON"))}
    ),
    "sync_binlog": _Default(
        {"mariadb": ((ALL, "0"),), "mysql": ((until(5, 7, 7), "0"), (since(5, 7, 7), "1"))}
    ),
    "binlog_format": _Default(
        {"mariadb": ((since(10, 2, 4), "MIXED"),), "mysql": ((since(5, 7, 7), "ROW"),)}
    ),
    "performance_schema": _Default(
        {"mariadb": ((since(10, 0, 12), "OFF"),), "mysql": ((since(5, 6, 6), "ON"),)}
    ),
    # https://mariadb.com/kb/en/setting-character-sets-and-collations
    "character_set_server": _Default(
        {
            "mariadb": ((until(11, 6), "latin1"), (since(11, 6), "utf8mb4")),
            "mysql": ((until(8, 0), "latin1"), (since(8, 0), "utf8mb4")),
        }
    ),
    # MariaDB 10.6: https://mariadb.com/docs/server/server-usage/storage-engines/innodb/innodb-flush-method
    # MySQL 8.4 changed this and the three below: https://dev.mysql.com/doc/refman/8.4/en/mysql-nutshell.html
    # and https://lefred.be/content/mysql-8-4-lts-new-production-ready-defaults-for-innodb/
    "innodb_flush_method": _Default(
        {
            "mariadb": ((until(10, 6), "fsync"), (since(10, 6), "O_DIRECT")),
            "mysql": ((until(8, 4), "fsync"), (since(8, 4), "O_DIRECT")),
        }
    ),
    "innodb_io_capacity": _Default(
        {"mariadb": ((ALL, "200"),), "mysql": ((until(8, 4), "200"), (since(8, 4), "10000"))}
    ),
    # MariaDB 10.5: https://mariadb.com/kb/en/changes-improvements-in-mariadb-105/
    "innodb_adaptive_hash_index": _Default(
        {
            "mariadb": ((until(10, 5), "ON"), (since(10, 5), "OFF")),
            "mysql": ((until(8, 4), "ON"), (since(8, 4), "OFF")),
        }
    ),
    # MariaDB turned it off in 10.5.15, 10.6.7, 10.7.3 and 10.8.2 and removed the change buffer
    # in 11.0: https://mariadb.com/kb/en/innodb-change-buffering/
    "innodb_change_buffering": _Default(
        {
            "mariadb": (
                (until(10, 5, 15), "all"),
                (Versions((10, 5, 15), (10, 6)), "none"),
                (Versions((10, 6, 7), (10, 7)), "none"),
                (since(10, 8, 2), "none"),
            ),
            "mysql": ((until(8, 4), "all"), (since(8, 4), "none")),
        }
    ),
    # Undo logs in the system tablespace (0) or in separate, truncatable files.
    # MariaDB 11.0: https://mariadb.com/kb/en/what-is-mariadb-110 ;
    # MySQL 8.0: https://dev.mysql.com/worklog/task/?id=10498
    "innodb_undo_tablespaces": _Default(
        {
            "mariadb": ((until(11, 0), "0"), (since(11, 0), "3")),
            "mysql": ((until(8, 0), "0"), (since(8, 0), "2")),
        }
    ),
    # Total redo log: MySQL 2 x 48M files until 8.0.30, then innodb_redo_log_capacity 100M
    # (https://dev.mysql.com/doc/refman/8.0/en/innodb-redo-log.html); MariaDB 10.5+ one 96M file.
    "redo_log_size": _Default(
        {
            "mariadb": ((since(10, 5), "96M"),),
            "mysql": ((Versions((5, 6, 8), (8, 0, 30)), "96M"), (since(8, 0, 30), "100M")),
        },
        set_by=("innodb_log_file_size", "innodb_log_files_in_group", "innodb_redo_log_capacity"),
    ),
}


def misleading_defaults(product: Product) -> dict[str, str]:
    """This product's default for each setting whose default differs between products or
    versions; a setting whose default is not known for this version is left out."""
    found = {
        topic: first_value(default.values.get(product.family, ()), product.version)
        for topic, default in _DEFAULTS.items()
    }
    return {topic: value for topic, value in found.items() if value is not None}


def _setting_name(option: str) -> str:
    """The setting an option line controls: loose_ only silences unknown options, and the
    skip_/disable_/enable_ prefixes switch the named option (skip_log_bin settles log_bin)."""
    name = option_key(option).removeprefix("loose_")
    for prefix in ("skip_", "disable_", "enable_"):
        if name.startswith(prefix):
            return name.removeprefix(prefix)
    return name


def default_differences(products: dict[str, Product], options_set: set[str]) -> list[str]:
    """One sentence per setting whose defaults differ between the campaign's servers (label ->
    product) and that the campaign's my.cnf leaves to the defaults."""
    settled = {_setting_name(option) for option in options_set}
    defaults = {label: misleading_defaults(product) for label, product in products.items()}
    sentences = []
    for topic, default in _DEFAULTS.items():
        set_by = default.set_by or (topic,)
        if settled.intersection(set_by):
            continue
        known = {label: found[topic] for label, found in defaults.items() if topic in found}
        if len(set(known.values())) < 2:
            continue
        described = ", ".join(
            f"server {label} ({products[label].label}) {'to' if index else 'defaults to'} {value}"
            for index, (label, value) in enumerate(known.items())
        )
        how = "it" if set_by == (topic,) else " or ".join(set_by)
        sentences.append(
            f"{topic}: {described}; set {how} in [mycnf] base to compare like with like"
        )
    return sentences
