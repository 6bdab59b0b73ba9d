"""Every SQL statement of the benchmark, as text (tables are pi1..piN in one database)."""

from __future__ import annotations

import random

from harness.workloads.ibench import rows

# name -> columns, in the current reference's definitions (pin these when comparing runs).
INDEXES = {
    "marketsegment": ("productid", "customerid", "price"),
    "registersegment": ("cashregisterid", "customerid", "price"),
    "pdc": ("price", "dateandtime", "customerid"),
}
# Range queries: a covering scan of one index from a uniform X in its first column's domain.
RANGE_QUERIES = (
    ("marketsegment", "productid", ">=", rows.PRODUCTS),
    ("registersegment", "cashregisterid", ">", rows.CASHREGISTERS),
    ("pdc", "price", ">=", rows.PRICES),
)


def create_table(table: str, engine: str) -> str:
    return (
        f"CREATE TABLE {table} (transactionid BIGINT NOT NULL AUTO_INCREMENT,"
        " dateandtime DATETIME, cashregisterid INT NOT NULL, customerid INT NOT NULL,"
        " productid INT NOT NULL, price INT NOT NULL, data VARCHAR(4000),"
        f" PRIMARY KEY (transactionid)) ENGINE={engine}"
    )


def add_indexes(table: str) -> str:
    """The three secondary indexes, created together by one ALTER."""
    adds = ", ".join(f"ADD INDEX {name} ({', '.join(cols)})" for name, cols in INDEXES.items())
    return f"ALTER TABLE {table} {adds}"


def insert(table: str, values: str) -> str:
    return f"INSERT INTO {table} ({rows.COLUMNS}) VALUES {values}"


def delete_oldest(table: str, min_id: int, count: int) -> str:
    """The oldest `count` rows; min_id is a lower bound that skips purged-but-present ids."""
    return (
        f"DELETE FROM {table} WHERE transactionid >= {int(min_id)}"
        f" ORDER BY transactionid LIMIT {int(count)}"
    )


def min_max(table: str) -> str:
    return f"SELECT MIN(transactionid), MAX(transactionid) FROM {table}"


def range_query(table: str, rng: random.Random, limit: int, force_index: bool) -> str:
    index, column, op, domain = RANGE_QUERIES[int(rng.random() * len(RANGE_QUERIES))]
    cols = ", ".join(INDEXES[index])
    force = f" FORCE INDEX ({index})" if force_index else ""
    return (
        f"SELECT {cols} FROM {table}{force} WHERE {column} {op} {int(rng.random() * domain)}"
        f" ORDER BY {cols} LIMIT {limit}"
    )


def point_query(table: str, rng: random.Random, low: int, high: int, count: int) -> str:
    """`count` distinct random ids in [low, high) (fewer when the range is smaller)."""
    span = range(low, max(low + 1, high))
    ids = rng.sample(span, min(count, len(span)))
    listed = ",".join(str(i) for i in ids)
    return f"SELECT transactionid, productid, data FROM {table} WHERE transactionid IN ({listed})"


def schema_bytes() -> str:
    return (
        "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables"
        " WHERE table_schema = %s"
    )


def index_names() -> str:
    return (
        "SELECT table_name, index_name FROM information_schema.statistics"
        " WHERE table_schema = %s GROUP BY table_name, index_name"
    )


# InnoDB's file-per-table tablespaces of the database (the reference's data-dir size):
# MariaDB names the view INNODB_SYS_TABLESPACES, MySQL 8 INNODB_TABLESPACES.
TABLESPACE_VIEWS = ("INNODB_SYS_TABLESPACES", "INNODB_TABLESPACES")


def tablespace_bytes(view: str) -> str:
    return (
        f"SELECT COALESCE(SUM(file_size), 0) FROM information_schema.{view}"
        " WHERE name LIKE CONCAT(%s, '/%%')"
    )
