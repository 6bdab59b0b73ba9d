"""Composing a variant's my.cnf from the campaign base."""

from harness.servers.mycnf import apply_variant, server_options, with_placement

BASE = """# base
[client]
port = 1

[mysqld]
innodb_buffer_pool_size = 512M   # cached
skip-log-bin
sync_binlog = 0

[mysqldump]
quick
"""


def test_override_replaces_in_place_whatever_the_spelling():
    text = apply_variant(BASE, "v", {"sync-binlog": 1})
    assert text.count("sync") == 1
    assert "sync-binlog = 1" in text
    assert server_options(text)["sync_binlog"] == "1"


def test_false_removes_and_true_writes_a_flag():
    text = apply_variant(BASE, "binlog-on", {"skip_log_bin": False, "log_bin": "binlog"})
    options = server_options(text)
    assert "skip_log_bin" not in options
    assert options["log_bin"] == "binlog"
    assert "# variant binlog-on" in text
    flagged = apply_variant(BASE, "pfs", {"performance_schema": True})
    assert server_options(flagged)["performance_schema"] == "ON"


def test_new_options_land_in_the_server_section_not_in_mysqldump():
    text = apply_variant(BASE, "v", {"server_id": 7})
    mysqld, mysqldump = text.split("[mysqldump]")
    assert "server_id = 7" in mysqld and "server_id" not in mysqldump


def test_client_section_is_not_a_server_option():
    assert "port" not in server_options(BASE)
    assert server_options(BASE)["innodb_buffer_pool_size"] == "512M"


def test_base_without_server_section_gets_one():
    text = apply_variant("[client]\nuser = x\n", "v", {"innodb_doublewrite": 0})
    assert server_options(text) == {"innodb_doublewrite": "0"}


def test_placement_comes_last_so_it_wins():
    text = with_placement(BASE, {"port": 40000, "datadir": "/tmp/with space"})
    assert text.rstrip().endswith('datadir = "/tmp/with space"')
    assert server_options(text)["port"] == "40000"


def test_without_placement_gives_back_what_with_placement_was_given():
    from harness.servers.mycnf import with_placement, without_placement

    tuned = "[mysqld]\ninnodb_buffer_pool_size = 64M\n# variant a\nsync_binlog = 1\n"
    placed = with_placement(tuned, {"datadir": "/d", "port": 3307})
    assert "port = 3307" in placed
    assert without_placement(placed) == tuned
    assert without_placement(tuned) is None  # not a file the harness started a server with


def test_overridden_names_what_the_placement_replaced_and_what_the_server_used():
    from harness.servers.mycnf import overridden

    tuned = (
        "[mysqld]\nport = 3307\nbind-address = 127.0.0.1\nsocket = /run/my.sock\nsync_binlog = 1\n"
    )
    placement = {"socket": "/tmp/x/mysqld.sock", "port": 40123, "bind_address": "127.0.0.1"}
    # bind_address was set to what the harness uses anyway: not an override
    assert overridden(tuned, placement) == {"port": "40123", "socket": "/tmp/x/mysqld.sock"}
    assert overridden("[mysqld]\nsync_binlog = 1\n", placement) == {}
