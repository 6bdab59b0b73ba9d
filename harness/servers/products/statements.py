"""SQL statements the harness runs that are spelled differently by product and version."""

from __future__ import annotations

from harness.servers.products.identity import Product
from harness.servers.products.versions import ALL, Rows, first_value, since, until

# RESET MASTER became RESET BINARY LOGS AND GTIDS in MySQL 8.2 and was removed in 8.4:
# https://dev.mysql.com/doc/refman/8.4/en/reset-binary-logs-and-gtids.html
_BINLOG_RESET: dict[str, Rows] = {
    "mariadb": ((ALL, "RESET MASTER"),),
    "mysql": ((until(8, 2), "RESET MASTER"), (since(8, 2), "RESET BINARY LOGS AND GTIDS")),
}


def binlog_reset_statement(product: Product) -> str:
    statement = first_value(_BINLOG_RESET[product.family], product.version)
    assert statement is not None  # every version of both families has a row
    return statement
