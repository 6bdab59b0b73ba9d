"""Options the datadir or the loaded data depend on: variants that differ in them cannot share
a datadir, or a pristine copy of a loaded one."""

from __future__ import annotations

from harness.servers.products.identity import Product
from harness.servers.products.versions import ALL, Versions, in_force, since, until

_EVERY_VERSION = {"mariadb": ALL, "mysql": ALL}

# Written into the files when the datadir is created; another value needs a new datadir, not a
# restart. Checked on MariaDB 10.11.19 by restarting an initialised datadir with another value:
# each of these refuses to start, while innodb_undo_tablespaces 0 -> 3 and
# innodb_checksum_algorithm were accepted.
_INIT_TIME: dict[str, dict[str, Versions]] = {
    # Read back from every tablespace ("uses page size 16384, but ... is 8192").
    "innodb_page_size": _EVERY_VERSION,
    # Must describe the existing system tablespace files ("is of a different size").
    "innodb_data_file_path": _EVERY_VERSION,
    # Locations of files made at creation: pointed elsewhere, the server does not find the
    # system tablespace, ib_logfile0 / #innodb_redo, or the undo tablespaces.
    "innodb_data_home_dir": _EVERY_VERSION,
    "innodb_log_group_home_dir": _EVERY_VERSION,
    "innodb_undo_directory": _EVERY_VERSION,
    # Fixed for the instance on MySQL 5.7 (8.0 adds and drops undo tablespaces with SQL) and on
    # MariaDB before 10.11 (MDEV-19229 lets a restart change it while the undo logs are empty).
    # https://dev.mysql.com/doc/refman/5.7/en/innodb-undo-tablespaces.html
    "innodb_undo_tablespaces": {"mariadb": until(10, 11), "mysql": until(8, 0)},
    # MySQL 8.0 stores it in the data dictionary at --initialize and refuses another value.
    # https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_lower_case_table_names
    "lower_case_table_names": {"mysql": since(8, 0)},
}


def init_time_options(product: Product) -> frozenset[str]:
    return in_force(_INIT_TIME, product.family, product.version)


# Options under which the loaded tables come out different, so variants differing in them
# cannot restore the same pristine copy of a loaded datadir (a restart would not undo them).
_DATA_SHAPING: dict[str, dict[str, Versions]] = {
    # The sysbench schema and its tables inherit the server's character set and collation.
    "character_set_server": _EVERY_VERSION,
    "collation_server": _EVERY_VERSION,
    # Engine of tables created without ENGINE= (sysbench names one; other loaders may not).
    "default_storage_engine": _EVERY_VERSION,
    # Row format of tables created without ROW_FORMAT=.
    "innodb_default_row_format": _EVERY_VERSION,
    # Own .ibd file per table, or rows inside the system tablespace.
    "innodb_file_per_table": _EVERY_VERSION,
    # sysbench prepare creates the k_N index after loading: a sorted index build that leaves
    # this share of every page filled.
    "innodb_fill_factor": _EVERY_VERSION,
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
    return in_force(_DATA_SHAPING, product.family, product.version)
