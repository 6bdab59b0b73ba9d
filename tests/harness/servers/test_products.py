"""Product awareness: identifying MariaDB / MySQL / Percona binaries and what differs between them.

The `--version` outputs under fixtures/products/ are recorded: the two MariaDB ones from the
binaries on this host, the MySQL and Percona ones as those servers print them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from harness.errors import UserError
from harness.servers.products.basedir import find_binaries, init_argv
from harness.servers.products.data_options import data_shaping_options, init_time_options
from harness.servers.products.differing_defaults import default_differences, misleading_defaults
from harness.servers.products.identity import Product, parse_version_output, probe
from harness.servers.products.option_hints import option_hint
from harness.servers.products.statements import binlog_reset_statement
from tests.helpers import paths
from tests.helpers.paths import REPO

FIXTURES = paths.FIXTURES / "products"
DEBIAN_MARIADBD = Path("/usr/sbin/mariadbd")
TARBALL_MARIADBD = REPO / ".servers/mariadb-11.4.5/bin/mariadbd"

MARIADB_10_11 = Product("mariadb", (10, 11, 19), "10.11.19-MariaDB-0+deb12u1")
MARIADB_11_4 = Product("mariadb", (11, 4, 5), "11.4.5-MariaDB")
MYSQL_5_7 = Product("mysql", (5, 7, 44), "5.7.44")
MYSQL_8_0 = Product("mysql", (8, 0, 36), "8.0.36")
MYSQL_8_4 = Product("mysql", (8, 4, 3), "8.4.3")
PERCONA_8_0 = Product("percona", (8, 0, 39), "8.0.39-30")
PERCONA_QUOTED_RELEASE = "mysqld  Ver 8.0.39-30 for Linux on x86_64 (Percona Server (GPL), Release '30', Revision '...')"
UNDO_SENTENCE = (
    "innodb_undo_tablespaces: server old (MariaDB 10.11.19) defaults to 0, server new"
    " (MariaDB 11.4.5) to 3; set it in [mycnf] base to compare like with like"
)


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("mariadbd-10.11.19-debian12.txt", MARIADB_10_11),
        ("mariadbd-11.4.5-tarball.txt", MARIADB_11_4),
        ("mysqld-8.0.36.txt", MYSQL_8_0),
        ("mysqld-8.4.3.txt", MYSQL_8_4),
        ("mysqld-5.7.44-glibc2.12.txt", MYSQL_5_7),
        ("percona-8.0.18-9.txt", Product("percona", (8, 0, 18), "8.0.18-9")),
    ],
)
def test_recorded_version_outputs(fixture, expected):
    assert parse_version_output((FIXTURES / fixture).read_text()) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # Percona 8.0's quoted release form (revision elided as in the brief).
        (PERCONA_QUOTED_RELEASE, PERCONA_8_0),
        # Ubuntu's MySQL has a numeric suffix too; it is still MySQL.
        (
            "/usr/sbin/mysqld  Ver 8.0.36-0ubuntu0.22.04.1 for Linux on x86_64 ((Ubuntu))",
            Product("mysql", (8, 0, 36), "8.0.36-0ubuntu0.22.04.1"),
        ),
        # A warning before the version line does not hide it.
        (
            "2026-01-01 0 [Warning] something\nmysqld  Ver 8.4.3 for Linux on x86_64 (x)\n",
            MYSQL_8_4,
        ),
    ],
)
def test_other_version_line_shapes(line, expected):
    assert parse_version_output(line) == expected


@pytest.mark.parametrize("text", ["", "mysqld: command not found", "Ver x.y for Linux"])
def test_unparsable_output_is_a_user_error(text):
    with pytest.raises(UserError, match=re.escape("no 'Ver X.Y.Z'")):
        parse_version_output(text)


def test_probe_of_debians_mariadbd():
    product = probe(DEBIAN_MARIADBD)
    assert product.name == "mariadb"
    assert product.version[:2] == (10, 11)


@pytest.mark.skipif(not TARBALL_MARIADBD.exists(), reason="`make servers` not run")
def test_probe_of_the_11_4_5_tarball():
    assert probe(TARBALL_MARIADBD) == MARIADB_11_4


def _executable(path: Path, body: str = "exit 0") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def test_probe_runs_the_binary_and_names_it_when_it_fails(tmp_path):
    fake = _executable(
        tmp_path / "mysqld",
        "echo 'mysqld  Ver 8.4.3 for Linux on x86_64 (MySQL Community Server - GPL)'",
    )
    assert probe(fake) == MYSQL_8_4
    silent = _executable(
        tmp_path / "broken", "echo 'error while loading shared libraries' >&2\nexit 127"
    )
    with pytest.raises(
        UserError,
        match=re.escape(
            f"{silent} (exit 127): no 'Ver X.Y.Z' in its --version output: error while"
        ),
    ):
        probe(silent)
    with pytest.raises(UserError, match=re.escape(f"{tmp_path / 'absent'}: cannot run it")):
        probe(tmp_path / "absent")


def test_init_argv_per_product():
    server, install_db, cnf = (
        Path("/b/bin/mariadbd"),
        Path("/b/scripts/mariadb-install-db"),
        Path("/w/my.cnf"),
    )
    assert init_argv(MARIADB_10_11, server, install_db, cnf) == [
        "/b/scripts/mariadb-install-db",
        "--defaults-file=/w/my.cnf",
        "--auth-root-authentication-method=normal",
        "--skip-test-db",
    ]
    mariadb_10_3 = Product("mariadb", (10, 3, 39), "10.3.39-MariaDB")
    assert init_argv(mariadb_10_3, server, install_db, cnf) == [
        "/b/scripts/mariadb-install-db",
        "--defaults-file=/w/my.cnf",
        "--skip-test-db",
    ]
    mysqld = Path("/m/bin/mysqld")
    for product in (MYSQL_5_7, MYSQL_8_0, PERCONA_8_0):
        assert init_argv(product, mysqld, None, cnf) == [
            "/m/bin/mysqld",
            "--defaults-file=/w/my.cnf",
            "--initialize-insecure",
        ]


def test_init_argv_refusals():
    with pytest.raises(UserError, match=re.escape("MariaDB 10.11.19 needs mariadb-install-db")):
        init_argv(MARIADB_10_11, Path("/b/bin/mariadbd"), None, Path("my.cnf"))
    with pytest.raises(UserError, match="predates mysqld --initialize-insecure"):
        init_argv(Product("mysql", (5, 6, 51), "5.6.51"), Path("/m/bin/mysqld"), None, Path("c"))


@pytest.mark.parametrize(
    ("layout", "server", "install_db"),
    [
        (["sbin/mariadbd", "bin/mariadb-install-db"], "sbin/mariadbd", "bin/mariadb-install-db"),
        (
            ["bin/mariadbd", "scripts/mariadb-install-db"],
            "bin/mariadbd",
            "scripts/mariadb-install-db",
        ),
        (["libexec/mariadbd", "bin/mysql_install_db"], "libexec/mariadbd", "bin/mysql_install_db"),
        (["bin/mysqld", "scripts/mysql_install_db"], "bin/mysqld", "scripts/mysql_install_db"),
        (["bin/mysqld"], "bin/mysqld", None),
        # mariadbd wins over a mysqld compatibility link in any directory.
        (["sbin/mysqld", "bin/mariadbd"], "bin/mariadbd", None),
    ],
)
def test_find_binaries_layouts(tmp_path, layout, server, install_db):
    for relative in layout:
        _executable(tmp_path / relative)
    found_server, found_install_db = find_binaries(tmp_path)
    assert found_server == tmp_path / server
    assert found_install_db == (tmp_path / install_db if install_db else None)


def test_find_binaries_skips_non_executables_and_says_what_is_missing(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin/mysqld").write_text("not executable")
    with pytest.raises(UserError, match=re.escape(f"{tmp_path}: no mariadbd or mysqld")):
        find_binaries(tmp_path)


def test_find_binaries_on_debian_usr():
    server, install_db = find_binaries(Path("/usr"))
    assert server == Path("/usr/sbin/mariadbd")
    assert install_db == Path("/usr/bin/mariadb-install-db")
    assert os.access(install_db, os.X_OK)


def test_init_time_options_follow_product_and_version():
    common = {
        "innodb_page_size",
        "innodb_data_file_path",
        "innodb_data_home_dir",
        "innodb_log_group_home_dir",
        "innodb_undo_directory",
    }
    assert init_time_options(MARIADB_10_11) == common
    assert init_time_options(Product("mariadb", (10, 6, 20), "")) == common | {
        "innodb_undo_tablespaces"
    }
    assert init_time_options(MYSQL_5_7) == common | {"innodb_undo_tablespaces"}
    assert init_time_options(MYSQL_8_0) == common | {"lower_case_table_names"}
    assert init_time_options(PERCONA_8_0) == init_time_options(MYSQL_8_0)


def test_data_shaping_options():
    mariadb, mysql = data_shaping_options(MARIADB_11_4), data_shaping_options(MYSQL_8_0)
    shared = {"character_set_server", "collation_server", "innodb_default_row_format"}
    assert shared <= mariadb and shared <= mysql
    assert {"innodb_encrypt_tables", "innodb_checksum_algorithm"} <= mariadb - mysql
    assert "default_table_encryption" in mysql - mariadb
    assert "default_table_encryption" not in data_shaping_options(MYSQL_5_7)
    assert not init_time_options(MARIADB_11_4) & mariadb


def test_misleading_defaults_per_version():
    assert misleading_defaults(MARIADB_10_11)["log_bin"] == "OFF"
    assert misleading_defaults(MYSQL_5_7)["log_bin"] == "OFF"
    assert misleading_defaults(MYSQL_8_0)["log_bin"] == "ON"
    assert misleading_defaults(MYSQL_8_0)["redo_log_size"] == "100M"
    assert misleading_defaults(Product("mysql", (8, 0, 29), ""))["redo_log_size"] == "96M"
    assert misleading_defaults(MARIADB_10_11)["redo_log_size"] == "96M"
    assert misleading_defaults(MYSQL_8_4)["innodb_flush_method"] == "O_DIRECT"
    # Values read from `mariadbd --no-defaults --verbose --help` on both MariaDB binaries.
    assert misleading_defaults(MARIADB_10_11)["innodb_undo_tablespaces"] == "0"
    assert misleading_defaults(MARIADB_11_4)["innodb_undo_tablespaces"] == "3"
    assert misleading_defaults(MARIADB_11_4)["character_set_server"] == "latin1"
    # A range nobody checked is left out, not guessed.
    assert "innodb_change_buffering" not in misleading_defaults(Product("mariadb", (10, 6, 3), ""))


def test_default_differences_between_mariadb_and_mysql():
    products = {"a": MARIADB_10_11, "b": MYSQL_8_0}
    sentences = default_differences(products, set())
    assert (
        "log_bin: server a (MariaDB 10.11.19) defaults to OFF, server b (MySQL 8.0.36) to ON;"
        " set it in [mycnf] base to compare like with like"
    ) in sentences
    assert (
        "redo_log_size: server a (MariaDB 10.11.19) defaults to 96M, server b (MySQL 8.0.36)"
        " to 100M; set innodb_log_file_size or innodb_log_files_in_group or"
        " innodb_redo_log_capacity in [mycnf] base to compare like with like"
    ) in sentences
    topics = {sentence.split(":")[0] for sentence in sentences}
    assert {"performance_schema", "sync_binlog", "character_set_server"} <= topics
    assert "innodb_io_capacity" not in topics  # both 200


def test_default_differences_are_silent_for_settings_the_campaign_sets():
    products = {"a": MARIADB_10_11, "b": MYSQL_8_0}
    for spelling in ("skip-log-bin", "skip_log_bin", "disable_log_bin", "log_bin", "LOG-BIN"):
        topics = {s.split(":")[0] for s in default_differences(products, {spelling})}
        assert "log_bin" not in topics, spelling
        assert "sync_binlog" in topics
    settled = {"innodb_redo_log_capacity", "loose-performance-schema", "character-set-server"}
    topics = {s.split(":")[0] for s in default_differences(products, settled)}
    assert not topics & {"redo_log_size", "performance_schema", "character_set_server"}


def test_default_differences_between_two_mariadb_versions():
    sentences = default_differences({"old": MARIADB_10_11, "new": MARIADB_11_4}, set())
    assert sentences == [UNDO_SENTENCE]
    assert default_differences({"one": MYSQL_8_0}, set()) == []


@pytest.mark.parametrize(
    ("product", "name", "expected"),
    [
        (MYSQL_8_0, "query_cache_size", "query_cache_size: MySQL 8.0 removed the query cache"),
        (
            MYSQL_8_4,
            "default-authentication-plugin=mysql_native_password",
            "authentication_policy",
        ),
        (PERCONA_8_0, "tx_isolation", "renamed transaction_isolation"),
        (MYSQL_8_0, "innodb_log_file_size", "innodb_redo_log_capacity"),
        (MYSQL_8_0, "expire_logs_days", None),  # still there until 8.2
        (Product("mysql", (8, 2, 0), ""), "expire_logs_days", "binlog_expire_logs_seconds"),
        (MYSQL_5_7, "query_cache_size", None),
        (MYSQL_5_7, "innodb_redo_log_capacity", "added in MySQL 8.0.30"),
        (MARIADB_11_4, "innodb-redo-log-capacity=1G", "MariaDB sizes its redo log"),
        (MARIADB_10_11, "innodb_buffer_pool_instances", "removed in 10.6"),
        (MARIADB_10_11, "innodb_change_buffer_max_size", None),
        (MARIADB_11_4, "innodb_change_buffer_max_size", "removed the change buffer"),
        (MARIADB_10_11, "query_cache_size", None),  # MariaDB still has the query cache
        (MARIADB_10_11, "innodb_buffer_pool_size", None),
        (MYSQL_8_0, "log_bin=OFF", "log_bin = OFF enables the binary log as OFF.000001"),
        (MARIADB_10_11, "log-bin = 'OFF'", "disable it with skip_log_bin"),
        (MARIADB_10_11, "log_bin=binlog", None),
    ],
)
def test_option_hint(product, name, expected):
    hint = option_hint(product, name)
    if expected is None:
        assert hint is None
    else:
        assert hint is not None and expected in hint


@pytest.mark.parametrize(
    ("product", "statement"),
    [
        (MARIADB_11_4, "RESET MASTER"),
        (MYSQL_8_0, "RESET MASTER"),
        (Product("mysql", (8, 2, 0), ""), "RESET BINARY LOGS AND GTIDS"),
        (MYSQL_8_4, "RESET BINARY LOGS AND GTIDS"),
        (Product("percona", (8, 4, 2), "8.4.2-2"), "RESET BINARY LOGS AND GTIDS"),
    ],
)
def test_binlog_reset_statement(product, statement):
    assert binlog_reset_statement(product) == statement
