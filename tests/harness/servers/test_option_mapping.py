"""One my.cnf on every release of a series (harness/servers/products/option_mapping.py): what is
mapped for an older release, recorded with its reason and written into the my.cnf it starts
with; nothing for a release that reads the options as meant."""

from __future__ import annotations

from harness.servers import mycnf
from harness.servers.products.identity import Product
from harness.servers.products.option_mapping import map_options

MARIADB_10_2 = Product("mariadb", (10, 2, 11), "10.2.11-MariaDB")
MARIADB_10_5 = Product("mariadb", (10, 5, 23), "10.5.23-MariaDB-0+deb11u1")
MYSQL_5_7 = Product("mysql", (5, 7, 44), "5.7.44")
TUNED = "[mysqld]\ninnodb_buffer_pool_size = 512M\ninnodb_log_file_size = 256M\n"


def test_a_release_before_10_5_gets_one_redo_file_so_its_capacity_is_the_same():
    tuned, mapped = map_options(MARIADB_10_2, TUNED)
    assert mycnf.server_options(tuned)["innodb_log_files_in_group"] == "1"
    assert mycnf.server_options(tuned)["innodb_log_file_size"] == "256M"
    assert mapped == [
        {"option": "innodb_log_files_in_group", "value": "1", "reason": mapped[0]["reason"]}
    ]
    assert "before 10.5" in mapped[0]["reason"]
    assert "# set by mybench for MariaDB 10.2.11: MariaDB 10.5" in tuned  # the reason, in place


def test_nothing_is_mapped_where_the_options_mean_what_they_say():
    assert map_options(MARIADB_10_5, TUNED) == (TUNED, [])
    assert map_options(MYSQL_5_7, TUNED) == (TUNED, [])


def test_a_my_cnf_that_sets_the_file_count_itself_is_left_alone():
    own = TUNED + "innodb_log_files_in_group = 3\n"
    assert map_options(MARIADB_10_2, own) == (own, [])
    without_size = "[mysqld]\ninnodb_buffer_pool_size = 512M\n"
    assert map_options(MARIADB_10_2, without_size) == (without_size, [])
