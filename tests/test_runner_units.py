"""Pure parts of the runner: secrets never recorded, product detection."""

from harness.runner import REDACTED, redact_secrets, server_product


def test_credentials_in_variables_are_redacted_when_set():
    variables = {
        "report_password": "s3cret",
        "wsrep_sst_auth": "sst:pw",
        "old_passwords": "OFF",  # a policy switch, not a credential
        "strict_password_validation": "ON",
        "report_user": "",
        "innodb_buffer_pool_size": "536870912",
    }
    redacted = redact_secrets(variables)
    assert redacted["report_password"] == REDACTED
    assert redacted["wsrep_sst_auth"] == REDACTED
    assert redacted["old_passwords"] == "OFF"
    assert redacted["strict_password_validation"] == "ON"
    assert redacted["innodb_buffer_pool_size"] == "536870912"


def test_empty_credential_stays_empty():
    assert redact_secrets({"report_password": ""}) == {"report_password": ""}


def test_product_from_version_and_comment():
    assert server_product("10.11.19-MariaDB-0+deb12u1", "Debian 12") == "mariadb"
    assert server_product("8.0.40", "MySQL Community Server - GPL") == "mysql"
    assert server_product("8.0.39-30", "Percona Server (GPL), Release 30") == "percona"
