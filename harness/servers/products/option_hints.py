"""What became of an option a server rejects or ignores: renamed, removed, or another
product's, with what to use instead."""

from __future__ import annotations

from harness.servers.mycnf import option_key
from harness.servers.products.identity import Product
from harness.servers.products.versions import ALL, Rows, Versions, first_value, since, until

# Each row: the versions where an option behaves so, the hint, then the options it is about.
Hint = tuple[Versions, str, *tuple[str, ...]]

# By family. Only rows checked against the cited page or, for MariaDB, against
# `mariadbd --no-defaults --<option> --verbose --help` on 10.11.19 and 11.4.5 (where the first
# version that behaves so was not checked, the range starts at 10.11).
_HINTS: dict[str, tuple[Hint, ...]] = {
    "mysql": (
        # https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-0.html
        (
            since(8, 0),
            "MySQL 8.0 removed the query cache; drop the option",
            "query_cache_limit",
            "query_cache_min_res_unit",
            "query_cache_size",
            "query_cache_type",
            "query_cache_wlock_invalidate",
        ),
        (since(8, 0), "renamed transaction_isolation in MySQL 8.0", "tx_isolation"),
        (since(8, 0), "renamed transaction_read_only in MySQL 8.0", "tx_read_only"),
        (since(8, 0), "removed in MySQL 8.0; use log_error_verbosity", "log_warnings"),
        (
            since(8, 0),
            "removed in MySQL 8.0; drop the option",
            "innodb_file_format",
            "innodb_large_prefix",
        ),
        # https://docs.percona.com/percona-server/8.0/upgrade-changes-removed.html
        (
            since(8, 0),
            "removed in MySQL 8.0; use transaction_isolation = READ-COMMITTED",
            "innodb_locks_unsafe_for_binlog",
        ),
        # https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-2.html
        (since(8, 2), "removed in MySQL 8.2; use binlog_expire_logs_seconds", "expire_logs_days"),
        # https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-4.html
        (
            since(8, 4),
            "removed in MySQL 8.4; use authentication_policy",
            "default_authentication_plugin",
        ),
        (
            since(8, 4),
            "removed in MySQL 8.4; drop the option",
            "binlog_transaction_dependency_tracking",
        ),
        # https://dev.mysql.com/doc/refman/8.0/en/innodb-redo-log.html
        (
            since(8, 0, 30),
            "deprecated in MySQL 8.0.30, ignored once innodb_redo_log_capacity is set",
            "innodb_log_file_size",
        ),
        (
            since(8, 0, 30),
            "deprecated since MySQL 8.0.30; size the redo log with innodb_redo_log_capacity",
            "innodb_log_files_in_group",
        ),
        (
            until(8, 0, 30),
            "added in MySQL 8.0.30; use innodb_log_file_size x innodb_log_files_in_group",
            "innodb_redo_log_capacity",
        ),
    ),
    "mariadb": (
        # https://mariadb.com/kb/en/changes-improvements-in-mariadb-105/
        (
            since(10, 5),
            "removed in MariaDB 10.5; use transaction_isolation = READ-COMMITTED",
            "innodb_locks_unsafe_for_binlog",
        ),
        # https://mariadb.com/docs/server/ref/mdb/cli/mariadbd/innodb-buffer-pool-instances
        # https://mariadb.com/docs/server/ref/mdb/cli/mariadbd/innodb-page-cleaners
        (
            since(10, 5),
            "no effect since MariaDB 10.5, removed in 10.6; drop it",
            "innodb_buffer_pool_instances",
            "innodb_page_cleaners",
        ),
        # "was removed. It does nothing now" from 10.11.19 and 11.4.5.
        (
            since(10, 11),
            "removed from MariaDB: it does nothing; drop it",
            "innodb_thread_concurrency",
            "innodb_commit_concurrency",
            "innodb_undo_logs",
            "innodb_file_format",
            "innodb_large_prefix",
        ),
        (
            since(10, 11),
            "ignored by MariaDB: one redo log file (ib_logfile0) of innodb_log_file_size",
            "innodb_log_files_in_group",
        ),
        # Unknown to 10.11.19 and 11.4.5.
        (
            since(10, 11),
            "removed from MariaDB: XA support is always on; drop it",
            "innodb_support_xa",
        ),
        # https://mariadb.com/kb/en/innodb-change-buffering/
        (
            since(10, 9),
            "ignored since MariaDB 10.9; the change buffer is gone from 11.0",
            "innodb_change_buffering",
        ),
        (
            since(11, 0),
            "MariaDB 11.0 removed the change buffer; drop the option",
            "innodb_change_buffer_max_size",
        ),
        # MySQL-only options, unknown to 10.11.19 and 11.4.5.
        (
            ALL,
            "a MySQL option; MariaDB sizes its redo log with innodb_log_file_size",
            "innodb_redo_log_capacity",
        ),
        (
            ALL,
            "a MySQL option; MariaDB encrypts new tables with innodb_encrypt_tables",
            "default_table_encryption",
        ),
        (
            ALL,
            "a MySQL option; set innodb_buffer_pool_size and innodb_log_file_size",
            "innodb_dedicated_server",
        ),
    ),
}


def _by_option(hints: tuple[Hint, ...]) -> dict[str, Rows]:
    rows: dict[str, list[tuple[Versions, str]]] = {}
    for versions, text, *options in hints:
        for option in options:
            rows.setdefault(option, []).append((versions, text))
    return {option: tuple(found) for option, found in rows.items()}


_HINT_ROWS = {family: _by_option(hints) for family, hints in _HINTS.items()}

# log_bin's value is the binary log's base name, so "log_bin = OFF" turns the binary log ON
# with files named OFF.000001 (seen on MariaDB 10.11.19; MySQL documents the value as a base
# name: https://dev.mysql.com/doc/refman/8.0/en/replication-options-binary-log.html).
_LOG_BIN_OFF_HINT = (
    "log_bin takes a file name: log_bin = {value} enables the binary log as {value}.000001;"
    " disable it with skip_log_bin (or disable_log_bin)"
)


def option_hint(product: Product, name: str) -> str | None:
    """What became of an option this server rejects or ignores; name may be spelled as in the
    server's "unknown variable 'name=value'" message."""
    option, _, value = name.partition("=")
    key = option_key(option)
    value = value.strip().strip("'\"")
    if key == "log_bin" and value.upper() in {"OFF", "0", "FALSE", "NO"}:
        return _LOG_BIN_OFF_HINT.format(value=value)
    hint = first_value(_HINT_ROWS[product.family].get(key, ()), product.version)
    return f"{key}: {hint}" if hint else None
