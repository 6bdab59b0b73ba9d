"""The rule for a stranger's my.cnf, by option-name shape: each spelling the server accepts for
an option that names a file is placed in the sandbox, flags shaped like names are left alone,
and every section counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.errors import UserError
from harness.servers.confined_options import confine, directories

FILES = Path("/sandbox/files")


def placed(line: str, section: str = "mysqld") -> str:
    text, _ = confine(f"[{section}]\n{line}\n", "my.cnf", FILES)
    return text.splitlines()[1]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("general_log_file = /etc/cron.d/job", "general_log_file = /sandbox/files/job"),
        ("General-Log-File=/etc/cron.d/job", "General-Log-File = /sandbox/files/job"),
        ("loose_maximum_slow_query_log_file = '/root/.ssh/x y'", None),
        ("log_bin = ../../var/lib/mysql/ib", "log_bin = /sandbox/files/ib"),
        (
            "innodb_undo_directory = /",
            "innodb_undo_directory = /sandbox/files/innodb_undo_directory",
        ),
        ("ssl-key = C:\\keys\\..\\.server.pem", "ssl-key = /sandbox/files/server.pem"),
        ("secure_file_priv = ''", "secure_file_priv = /sandbox/files/secure_file_priv"),
        (
            "innodb_data_file_path = /etc/passwd:12M;../ib2:10M:autoextend",
            "innodb_data_file_path = passwd:12M;ib2:10M:autoextend",
        ),
    ],
)
def test_a_file_name_keeps_only_its_safe_base_name_in_the_sandbox(line, expected):
    if expected is None:  # quoted, prefixed twice, a space and a leading dot in the name
        expected = "loose_maximum_slow_query_log_file = /sandbox/files/x_y"
    assert placed(line) == expected


@pytest.mark.parametrize("section", ["mariadb-11.4", "galera", "mysql_install_db", "client"])
def test_every_section_counts(section):
    assert placed("pid-file = /run/evil.pid", section) == "pid-file = /sandbox/files/evil.pid"
    with pytest.raises(UserError, match="extra-file is refused"):
        confine(f"[{section}]\nextra-file = /tmp/owned.sql\n", "my.cnf")


@pytest.mark.parametrize(
    "line",
    ["core_file = 1", "innodb_status_file = ON", "aria_sync_log_dir = NEWFILE", "log_bin",
     "skip-log-bin", "ssl_cipher = ECDHE-RSA-AES256-GCM-SHA384", "innodb_buffer_pool_size = 64M"],
)  # fmt: skip
def test_flags_and_values_that_name_no_file_are_left_alone(line):
    assert placed(line) == line


def test_directories_are_listed_for_the_sandbox_to_create():
    text, rewrites = confine(
        "[mysqld]\ntmpdir = /tmp\ninnodb_log_group_home_dir = /mnt/redo/\ngeneral_log_file = /x/g\n",
        "my.cnf",
        FILES,
    )
    assert directories(text) == ["/sandbox/files/tmp", "/sandbox/files/redo"]
    assert [rewrite.option for rewrite in rewrites] == [
        "tmpdir",
        "innodb_log_group_home_dir",
        "general_log_file",
    ]


@pytest.mark.parametrize(
    "line",
    ["init_replica = DROP DATABASE x", "enable-init-file = /tmp/x.sql", "plugin-dir = /tmp",
     "plugin_load = a=/tmp/evil.so", "wsrep_provider = /tmp/libevil.so", "builddir = /tmp",
     "srcdir = /tmp", "debug = d:t:o,/etc/x", "!include /etc/shadow"],
)  # fmt: skip
def test_options_that_load_code_or_run_sql_are_refused(line):
    name = line.split("=")[0].split()[0].strip()
    with pytest.raises(UserError, match=f"^my.cnf: {name} is refused"):
        confine(f"[mysqld]\n{line}\n", "my.cnf", FILES)
