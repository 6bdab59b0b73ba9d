"""The secret rule (contract/_secrets.py): which names hold a credential, what redaction does to
recorded text, and the validator refusing a hand-edited document with a password in clear."""

import copy
import json

import pytest

import contract
from contract import REDACTED, is_secret_name, redact_options, redact_text
from tests.helpers.paths import REPO

FIXTURE_RUNS = sorted((REPO / "tests/fixtures/runs/runs").glob("*.json"))
PLANTED = "Hunter2-planted"


@pytest.mark.parametrize(
    "name",
    [
        "report_password",
        "report-password",
        "wsrep_sst_auth",
        "mysql-password",
        "MYSQL_PWD",
        "keyring_encrypted_file_password",
        "authentication_ldap_sasl_bind_root_pwd",
        "hashicorp_key_management_token",
        "file_key_management_filekey",
        "keyring_hashicorp_secret_id",
        "ssl_passphrase",
        "GLOBAL.report_password",
    ],
)
def test_credential_names(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "secure_auth",
        "disconnect_on_expired_password",
        "old_passwords",
        "strict_password_validation",
        "default_password_lifetime",
        "max_password_errors",
        "validate_password.policy",
        "validate_password_length",
        "simple_password_check_digits",
        "caching_sha2_password_private_key_path",
        "show_slave_auth_info",
        "ssl_key",
        "innodb_force_primary_key",
        "innodb_ft_max_token_size",
        "password_env",
        "report_user",
    ],
)
def test_plain_settings_are_not_credentials(name: str) -> None:
    assert not is_secret_name(name)


def test_credentials_in_variables_are_redacted_when_set():
    variables = {
        "report_password": "s3cret",
        "wsrep_sst_auth": "sst:pw",
        "old_passwords": "OFF",  # a policy switch, not a credential
        "strict_password_validation": "ON",
        "secure_auth": "ON",
        "disconnect_on_expired_password": "OFF",
        "report_user": "",
        "innodb_buffer_pool_size": "536870912",
    }
    redacted = redact_options(variables)
    assert redacted["report_password"] == REDACTED
    assert redacted["wsrep_sst_auth"] == REDACTED
    assert redacted["old_passwords"] == "OFF"
    assert redacted["strict_password_validation"] == "ON"
    assert redacted["secure_auth"] == "ON"
    assert redacted["disconnect_on_expired_password"] == "OFF"
    assert redacted["innodb_buffer_pool_size"] == "536870912"


def test_empty_credential_stays_empty():
    assert redact_options({"report_password": ""}) == {"report_password": ""}


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        # my.cnf and TOML lines: the value to the end of the line, or inside its quotes
        (f"report_password = {PLANTED} too", "report_password = <redacted>"),
        (f'report-password = "{PLANTED}" # why', 'report-password = "<redacted>" # why'),
        (f"+wsrep_sst_auth=sst:{PLANTED}", "+wsrep_sst_auth=<redacted>"),
        # a plain option whose (quoted) value holds a credential option
        (
            f'restart_command = "sh restart.sh --password={PLANTED}"',
            'restart_command = "sh restart.sh --password=<redacted>"',
        ),
        # statements: SET GLOBAL, a restore of the value read back, accounts
        (f"SET GLOBAL report_password = '{PLANTED}'", "SET GLOBAL report_password = '<redacted>'"),
        (f"SET @@GLOBAL.report_password='{PLANTED}'", "SET @@GLOBAL.report_password='<redacted>'"),
        (f"CREATE USER u IDENTIFIED BY '{PLANTED}'", "CREATE USER u IDENTIFIED BY '<redacted>'"),
        (
            f"ALTER USER u IDENTIFIED WITH ed25519 AS '{PLANTED}'",
            "ALTER USER u IDENTIFIED WITH ed25519 AS '<redacted>'",
        ),
        (f"SET PASSWORD = PASSWORD('{PLANTED}')", "SET PASSWORD = <redacted>"),
        (f"SELECT PASSWORD('{PLANTED}')", "SELECT PASSWORD('<redacted>')"),
        # command lines
        (f"mysql -uroot -p{PLANTED} -e 'SELECT 1'", "mysql -uroot -p<redacted> -e 'SELECT 1'"),
        (f"mariadb-admin -p'{PLANTED}' shutdown", "mariadb-admin -p'<redacted>' shutdown"),
        (f"mysqladmin --password={PLANTED} shutdown", "mysqladmin --password=<redacted> shutdown"),
        (f"sshpass -p {PLANTED} ssh db sudo", "sshpass -p <redacted> ssh db sudo"),
        (f"sshpass -p{PLANTED} ssh db", "sshpass -p<redacted> ssh db"),
        (f"MYSQL_PWD={PLANTED} mysqladmin shutdown", "MYSQL_PWD=<redacted> mysqladmin shutdown"),
        (
            f"curl -X POST https://ops:{PLANTED}@ctl/restart",
            "curl -X POST https://ops:<redacted>@ctl/restart",
        ),
        (f"mariadbd --report-password={PLANTED} &", "mariadbd --report-password=<redacted> &"),
    ],
)
def test_redact_text(text: str, redacted: str) -> None:
    assert redact_text(text) == redacted
    assert redact_text(redacted) == redacted  # once redacted, it stays as it is


@pytest.mark.parametrize(
    "text",
    [
        "secure_auth = ON",
        "disconnect_on_expired_password = OFF",
        "validate_password.policy = STRONG",
        "mkdir -p /srv/x && cp -pr a b",  # -p of other commands is not a password
        'mariadb -h 127.0.0.1 -P 3306 -u bench -p -e "SELECT 1"',  # prompts for it
        '--mysql-password="$MYBENCH_PW"',  # names where the secret is
        "'--mysql-password=<password from /home/u/.my.cnf>'",
        "http://[::1]:3306/status",
        "SET GLOBAL wsrep_sst_auth = NULL",  # unset: no value to hide
        "SET GLOBAL report_password = DEFAULT",
        'password_env = "MYBENCH_PW"',
    ],
)
def test_what_redaction_leaves_alone(text: str) -> None:
    assert redact_text(text) == text


def _fixture() -> dict:
    return json.loads(FIXTURE_RUNS[0].read_text())


@pytest.mark.parametrize(
    ("plant", "path"),
    [
        (
            lambda d: d["server"].__setitem__(
                "my_cnf", d["server"]["my_cnf"] + f"report_password = {PLANTED}\n"
            ),
            "$.server.my_cnf",
        ),
        (
            lambda d: d["server"]["my_cnf_options"].__setitem__("report_password", PLANTED),
            "$.server.my_cnf_options.report_password",
        ),
        (
            lambda d: d["server"]["variables"].__setitem__("wsrep_sst_auth", f"sst:{PLANTED}"),
            "$.server.variables.wsrep_sst_auth",
        ),
        (
            lambda d: d["reproduce"]["commands"].append(
                {"purpose": "restart", "command": f"sshpass -p {PLANTED} ssh db restart"}
            ),
            f"$.reproduce.commands[{len(_fixture()['reproduce']['commands'])}].command",
        ),
        (
            lambda d: d["reproduce"]["commands"][0].__setitem__(
                "command", f"mariadb -u root -e \"SET GLOBAL report_password = '{PLANTED}'\""
            ),
            "$.reproduce.commands[0].command",
        ),
        (
            lambda d: d["workload"]["options"].__setitem__("mysql-password", PLANTED),
            "$.workload.options.mysql-password",
        ),
        (
            lambda d: d.__setitem__("status_reason", f"mysql -p{PLANTED} refused"),
            "$.status_reason",
        ),
        # Non-ASCII text is searched apart from the rest (contract/_secrets.py _holding).
        (
            lambda d: d.__setitem__("status_reason", f"mysql · -p{PLANTED} refused"),
            "$.status_reason",
        ),
        (
            lambda d: d["reproduce"]["commands"][-1].__setitem__(
                "command", f"mariadb -e \"CREATE USER u IDENTIFIED BY '{PLANTED}'\""
            ),
            f"$.reproduce.commands[{len(_fixture()['reproduce']['commands']) - 1}].command",
        ),
    ],
)
def test_validator_refuses_a_credential_in_clear(plant, path: str) -> None:
    doc = copy.deepcopy(_fixture())
    plant(doc)
    file = f"runs/{doc['id']}.json"
    problems = contract.validate_document(doc, file)
    assert [(problem.file, problem.path) for problem in problems] == [(file, path)]
    assert "credential" in problems[0].message and PLANTED not in str(problems[0])


def test_validator_refuses_a_hand_edited_file_naming_it(tmp_path) -> None:
    doc = _fixture()
    doc["server"]["variables"]["report_password"] = PLANTED
    path = tmp_path / f"{doc['id']}.json"
    path.write_text(json.dumps(doc))
    loaded, problems = contract.load_run(path)
    assert loaded is None
    message = f"report_password holds a credential: record it as {REDACTED}"
    assert [str(problem) for problem in problems] == [
        f"{path}: $.server.variables.report_password: {message}"
    ]


def test_redacted_and_placeholder_values_pass() -> None:
    doc = _fixture()
    doc["server"]["variables"]["report_password"] = REDACTED
    doc["server"]["my_cnf_options"]["report_password"] = REDACTED
    doc["workload"]["options"]["mysql-password"] = '"$MYBENCH_PW"'
    doc["server"]["variables"]["secure_auth"] = REDACTED  # as an earlier harness recorded it
    assert contract.validate_document(doc) == []
