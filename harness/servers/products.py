"""What differs between MariaDB, MySQL and Percona Server for the harness: telling them apart,
creating a datadir, which options the datadir or the loaded data depend on, which defaults
differ, and what became of an option a server rejects.

Pure tables keyed by product family and version range; the only process started here is
`<server> --version` in probe(). Percona Server follows MySQL's version numbers and behaviour,
so it reads the "mysql" rows. Option names are normalised (lowercase, underscores).
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UserError
from harness.servers.mycnf import option_key

Version = tuple[int, ...]

PROBE_TIMEOUT_S = 30
DISPLAY_NAMES = {"mariadb": "MariaDB", "mysql": "MySQL", "percona": "Percona Server"}
# Where a basedir keeps its binaries: Debian puts the server in sbin/ and the installer in bin/,
# tarballs use bin/ and scripts/; mysql_install_db is the MariaDB < 10.5 name of the installer
# (a MySQL 5.7 tarball's own bin/mysql_install_db is found too, and not used).
SERVER_CANDIDATES = tuple(
    f"{directory}/{name}"
    for name in ("mariadbd", "mysqld")
    for directory in ("sbin", "bin", "libexec")
)
INSTALL_DB_CANDIDATES = (
    "bin/mariadb-install-db",
    "scripts/mariadb-install-db",
    "bin/mysql_install_db",
    "scripts/mysql_install_db",
)


@dataclass(frozen=True)
class Product:
    name: str  # "mariadb" | "mysql" | "percona"
    version: Version  # (10, 11, 19)
    version_text: str  # as printed: "10.11.19-MariaDB-0+deb12u1"

    @property
    def family(self) -> str:
        return "mariadb" if self.name == "mariadb" else "mysql"

    @property
    def label(self) -> str:
        return f"{DISPLAY_NAMES[self.name]} {'.'.join(map(str, self.version))}"


@dataclass(frozen=True)
class Versions:
    """The versions from `first` up to, not including, `before`."""

    first: Version = (0,)
    before: Version | None = None

    def __contains__(self, version: Version) -> bool:
        return self.first <= version and (self.before is None or version < self.before)


ALL = Versions()


def since(*first: int) -> Versions:
    return Versions(first)


def until(*before: int) -> Versions:
    return Versions(before=before)


Rows = tuple[tuple[Versions, str], ...]


def _first(rows: Rows, version: Version) -> str | None:
    """The value of the first row whose range holds the version."""
    return next((value for versions, value in rows if version in versions), None)


def _in_force(table: dict[str, dict[str, Versions]], product: Product) -> frozenset[str]:
    return frozenset(
        option
        for option, families in table.items()
        if product.family in families and product.version in families[product.family]
    )


# --- Identifying a server binary -----------------------------------------------------------

# "mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)"
# "mysqld  Ver 8.0.39-30 for Linux on x86_64 (Percona Server (GPL), Release '30', ...)"
_VERSION_LINE = re.compile(
    r"\bVer\s+(?P<text>(?P<number>\d+(?:\.\d+)+)\S*)(?P<rest>.*)$", re.MULTILINE
)


def parse_version_output(text: str) -> Product:
    """The product behind a `--version` output. MariaDB always tags its version string; Percona
    names itself in the comment. Anything else is MySQL (Ubuntu's "8.0.36-0ubuntu0.22.04.1" has
    a numeric suffix too, so the suffix alone cannot identify Percona)."""
    match = _VERSION_LINE.search(text)
    if match is None:
        first_line = text.strip().splitlines()[0] if text.strip() else "(nothing)"
        raise UserError(f"no 'Ver X.Y.Z' in its --version output: {first_line[:120]}")
    version_text = match["text"]
    if "mariadb" in version_text.lower():
        name = "mariadb"
    elif "percona" in match["rest"].lower():
        name = "percona"
    else:
        name = "mysql"
    return Product(name, tuple(int(part) for part in match["number"].split(".")), version_text)


def probe(server_binary: Path) -> Product:
    """Run `<server_binary> --version` (no datadir needed) and identify the product."""
    try:
        result = subprocess.run(
            [str(server_binary), "--version"],
            check=False,
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UserError(f"{server_binary}: cannot run it to read its version: {exc}") from exc
    try:
        return parse_version_output(result.stdout + result.stderr)
    except UserError as exc:
        raise UserError(f"{server_binary} (exit {result.returncode}): {exc}") from None


def find_binaries(basedir: Path) -> tuple[Path, Path | None]:
    """The server binary and the MariaDB installer of a basedir; MySQL and Percona initialise
    with the server itself, so a missing installer is only an error for MariaDB (init_argv)."""
    server = _first_executable(basedir, SERVER_CANDIDATES)
    if server is None:
        hint = " (Debian package 'mariadb-server')" if basedir == Path("/usr") else ""
        raise UserError(f"{basedir}: no mariadbd or mysqld in sbin/, bin/ or libexec/{hint}")
    return server, _first_executable(basedir, INSTALL_DB_CANDIDATES)


def _first_executable(basedir: Path, candidates: tuple[str, ...]) -> Path | None:
    for relative in candidates:
        path = basedir / relative
        if path.is_file() and os.access(path, os.X_OK):
            return path
    return None


# --- Creating a datadir ---------------------------------------------------------------------

# mariadb-install-db flags by the version that has them. From 10.4.3 root is created for
# unix_socket login only unless told otherwise (before, password login was the default);
# --skip-test-db exists from 10.3. Both as used by the official image:
# https://github.com/MariaDB/mariadb-docker/pull/297
_MARIADB_INSTALL_FLAGS = (
    (since(10, 4), "--auth-root-authentication-method=normal"),
    (since(10, 3), "--skip-test-db"),
)
# mysqld --initialize-insecure exists from MySQL 5.7.6:
# https://dev.mysql.com/doc/refman/5.7/en/data-directory-initialization-mysqld.html
_MYSQL_INITIALIZE = since(5, 7, 6)


def init_argv(
    product: Product, server_binary: Path, install_db: Path | None, defaults_file: Path
) -> list[str]:
    """The command that creates an empty datadir from defaults_file (which names the datadir),
    so that options fixed at creation take the variant's values."""
    if product.family == "mariadb":
        if install_db is None:
            raise UserError(
                f"{server_binary}: {product.label} needs mariadb-install-db (or mysql_install_db)"
                " in bin/ or scripts/ of its basedir to create a datadir"
            )
        flags = [flag for versions, flag in _MARIADB_INSTALL_FLAGS if product.version in versions]
        return [str(install_db), f"--defaults-file={defaults_file}", *flags]
    if product.version not in _MYSQL_INITIALIZE:
        raise UserError(
            f"{server_binary}: {product.label} predates mysqld --initialize-insecure (5.7.6);"
            " not supported"
        )
    return [str(server_binary), f"--defaults-file={defaults_file}", "--initialize-insecure"]


# --- Options the datadir depends on ---------------------------------------------------------

# Written into the files when the datadir is created; another value needs a new datadir, not a
# restart. Checked on MariaDB 10.11.19 by restarting an initialised datadir with another value:
# each of these refuses to start, while innodb_undo_tablespaces 0 -> 3 and
# innodb_checksum_algorithm were accepted.
_INIT_TIME: dict[str, dict[str, Versions]] = {
    # Read back from every tablespace ("uses page size 16384, but ... is 8192").
    "innodb_page_size": {"mariadb": ALL, "mysql": ALL},
    # Must describe the existing system tablespace files ("is of a different size").
    "innodb_data_file_path": {"mariadb": ALL, "mysql": ALL},
    # Locations of files made at creation: pointed elsewhere, the server does not find the
    # system tablespace, ib_logfile0 / #innodb_redo, or the undo tablespaces.
    "innodb_data_home_dir": {"mariadb": ALL, "mysql": ALL},
    "innodb_log_group_home_dir": {"mariadb": ALL, "mysql": ALL},
    "innodb_undo_directory": {"mariadb": ALL, "mysql": ALL},
    # Fixed for the instance on MySQL 5.7 (8.0 adds and drops undo tablespaces with SQL) and on
    # MariaDB before 10.11 (MDEV-19229 lets a restart change it while the undo logs are empty).
    # https://dev.mysql.com/doc/refman/5.7/en/innodb-undo-tablespaces.html
    "innodb_undo_tablespaces": {"mariadb": until(10, 11), "mysql": until(8, 0)},
    # MySQL 8.0 stores it in the data dictionary at --initialize and refuses another value.
    # https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_lower_case_table_names
    "lower_case_table_names": {"mysql": since(8, 0)},
}


def init_time_options(product: Product) -> frozenset[str]:
    return _in_force(_INIT_TIME, product)


# Options under which the loaded tables come out different, so variants differing in them
# cannot restore the same pristine copy of a loaded datadir (a restart would not undo them).
_DATA_SHAPING: dict[str, dict[str, Versions]] = {
    # The sysbench schema and its tables inherit the server's character set and collation.
    "character_set_server": {"mariadb": ALL, "mysql": ALL},
    "collation_server": {"mariadb": ALL, "mysql": ALL},
    # Engine of tables created without ENGINE= (sysbench names one; other loaders may not).
    "default_storage_engine": {"mariadb": ALL, "mysql": ALL},
    # Row format of tables created without ROW_FORMAT=.
    "innodb_default_row_format": {"mariadb": ALL, "mysql": ALL},
    # Own .ibd file per table, or rows inside the system tablespace.
    "innodb_file_per_table": {"mariadb": ALL, "mysql": ALL},
    # sysbench prepare creates the k_N index after loading: a sorted index build that leaves
    # this share of every page filled.
    "innodb_fill_factor": {"mariadb": ALL, "mysql": ALL},
    # New tables become PAGE_COMPRESSED; written pages keep the algorithm they were written with.
    "innodb_compression_default": {"mariadb": ALL},
    "innodb_compression_algorithm": {"mariadb": ALL},
    # New tablespaces are created encrypted; existing ones are only converted by background
    # threads, and innodb_encryption_threads defaults to 0.
    "innodb_encrypt_tables": {"mariadb": ALL},
    # full_crc32 (10.4+) is a format flag of each file, chosen when the file is created; a
    # restart with another value is accepted and old files keep their format.
    # https://mariadb.com/docs/server/ref/mdb/system-variables/innodb_checksum_algorithm
    "innodb_checksum_algorithm": {"mariadb": since(10, 4)},
    # New schemas and tables are created encrypted (MySQL 8.0.16+).
    "default_table_encryption": {"mysql": since(8, 0, 16)},
}


def data_shaping_options(product: Product) -> frozenset[str]:
    return _in_force(_DATA_SHAPING, product)


# --- Defaults that differ between products --------------------------------------------------


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
        topic: _first(default.values.get(product.family, ()), product.version)
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


# --- Renamed and removed options ------------------------------------------------------------

_REMOVED_FROM_MYSQL_80 = "removed in MySQL 8.0; drop the option"
_DOES_NOTHING_IN_MARIADB = "removed from MariaDB: it does nothing; drop it"

# By family, then option. Only entries checked against the cited page or, for MariaDB, against
# `mariadbd --no-defaults --<option> --verbose --help` on 10.11.19 and 11.4.5 (where the first
# version that behaves so was not checked, the range starts at 10.11).
_HINTS: dict[str, dict[str, Rows]] = {
    "mysql": {
        # https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-0.html
        **{
            name: ((since(8, 0), "MySQL 8.0 removed the query cache; drop the option"),)
            for name in (
                "query_cache_limit",
                "query_cache_min_res_unit",
                "query_cache_size",
                "query_cache_type",
                "query_cache_wlock_invalidate",
            )
        },
        "tx_isolation": ((since(8, 0), "renamed transaction_isolation in MySQL 8.0"),),
        "tx_read_only": ((since(8, 0), "renamed transaction_read_only in MySQL 8.0"),),
        "log_warnings": ((since(8, 0), "removed in MySQL 8.0; use log_error_verbosity"),),
        "innodb_file_format": ((since(8, 0), _REMOVED_FROM_MYSQL_80),),
        "innodb_large_prefix": ((since(8, 0), _REMOVED_FROM_MYSQL_80),),
        # https://docs.percona.com/percona-server/8.0/upgrade-changes-removed.html
        "innodb_locks_unsafe_for_binlog": (
            (since(8, 0), "removed in MySQL 8.0; use transaction_isolation = READ-COMMITTED"),
        ),
        # https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-2.html
        "expire_logs_days": (
            (since(8, 2), "removed in MySQL 8.2; use binlog_expire_logs_seconds"),
        ),
        # https://dev.mysql.com/doc/mysqld-version-reference/en/optvar-changes-8-4.html
        "default_authentication_plugin": (
            (since(8, 4), "removed in MySQL 8.4; use authentication_policy"),
        ),
        "binlog_transaction_dependency_tracking": (
            (since(8, 4), "removed in MySQL 8.4; drop the option"),
        ),
        # https://dev.mysql.com/doc/refman/8.0/en/innodb-redo-log.html
        "innodb_log_file_size": (
            (
                since(8, 0, 30),
                "deprecated in MySQL 8.0.30, ignored once innodb_redo_log_capacity is set",
            ),
        ),
        "innodb_log_files_in_group": (
            (
                since(8, 0, 30),
                "deprecated since MySQL 8.0.30; size the redo log with innodb_redo_log_capacity",
            ),
        ),
        "innodb_redo_log_capacity": (
            (
                until(8, 0, 30),
                "added in MySQL 8.0.30; use innodb_log_file_size x innodb_log_files_in_group",
            ),
        ),
    },
    "mariadb": {
        # https://mariadb.com/kb/en/changes-improvements-in-mariadb-105/
        "innodb_locks_unsafe_for_binlog": (
            (since(10, 5), "removed in MariaDB 10.5; use transaction_isolation = READ-COMMITTED"),
        ),
        # https://mariadb.com/docs/server/ref/mdb/cli/mariadbd/innodb-buffer-pool-instances
        # https://mariadb.com/docs/server/ref/mdb/cli/mariadbd/innodb-page-cleaners
        **{
            name: ((since(10, 5), "no effect since MariaDB 10.5, removed in 10.6; drop it"),)
            for name in ("innodb_buffer_pool_instances", "innodb_page_cleaners")
        },
        # "was removed. It does nothing now" from 10.11.19 and 11.4.5.
        **{
            name: ((since(10, 11), _DOES_NOTHING_IN_MARIADB),)
            for name in (
                "innodb_thread_concurrency",
                "innodb_commit_concurrency",
                "innodb_undo_logs",
                "innodb_file_format",
                "innodb_large_prefix",
            )
        },
        "innodb_log_files_in_group": (
            (
                since(10, 11),
                "ignored by MariaDB: one redo log file (ib_logfile0) of innodb_log_file_size",
            ),
        ),
        # Unknown to 10.11.19 and 11.4.5.
        "innodb_support_xa": (
            (since(10, 11), "removed from MariaDB: XA support is always on; drop it"),
        ),
        # https://mariadb.com/kb/en/innodb-change-buffering/
        "innodb_change_buffering": (
            (since(10, 9), "ignored since MariaDB 10.9; the change buffer is gone from 11.0"),
        ),
        "innodb_change_buffer_max_size": (
            (since(11, 0), "MariaDB 11.0 removed the change buffer; drop the option"),
        ),
        # MySQL-only options, unknown to 10.11.19 and 11.4.5.
        "innodb_redo_log_capacity": (
            (ALL, "a MySQL option; MariaDB sizes its redo log with innodb_log_file_size"),
        ),
        "default_table_encryption": (
            (
                ALL,
                "a MySQL option; MariaDB encrypts new tables with innodb_encrypt_tables",
            ),
        ),
        "innodb_dedicated_server": (
            (ALL, "a MySQL option; set innodb_buffer_pool_size and innodb_log_file_size"),
        ),
    },
}

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
    hint = _first(_HINTS[product.family].get(key, ()), product.version)
    return f"{key}: {hint}" if hint else None


# RESET MASTER became RESET BINARY LOGS AND GTIDS in MySQL 8.2 and was removed in 8.4:
# https://dev.mysql.com/doc/refman/8.4/en/reset-binary-logs-and-gtids.html
_BINLOG_RESET: dict[str, Rows] = {
    "mariadb": ((ALL, "RESET MASTER"),),
    "mysql": ((until(8, 2), "RESET MASTER"), (since(8, 2), "RESET BINARY LOGS AND GTIDS")),
}


def binlog_reset_statement(product: Product) -> str:
    statement = _first(_BINLOG_RESET[product.family], product.version)
    assert statement is not None  # every version of both families has a row
    return statement
