"""Variant option values: the SQL literal SET GLOBAL gets and whether the server shows a wanted
value."""

from __future__ import annotations

from harness.servers.existing.option_values import same_value, sql_value


def test_values_compare_as_the_server_shows_them() -> None:
    assert same_value("128M", "134217728") and same_value(True, "ON") and same_value(1, "ON")
    assert same_value("O_DIRECT", "O_DIRECT") and same_value("o_direct", "O_DIRECT")
    assert same_value("index_merge=off", "index_merge=off,mrr=on")
    assert not same_value("64M", "134217728") and not same_value(False, "ON")
    assert sql_value("1G") == "1073741824" and sql_value(False) == "DEFAULT"
    assert sql_value("it's") == "'it\\'s'"
