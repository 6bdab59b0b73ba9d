"""The secret rule (contract/_secrets.py): which names hold a credential, what redaction does to
recorded text, and the validator refusing a hand-edited document with a password in clear."""

import copy
import json
import random

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
        # environment variables and options of other tools
        "DB_PASS",
        "replica-pass",
        "APP_PASSWD",
        "MYSQL_PW",
        "pw",
        "password1",
        "mysql-password3",
        "AWS_ACCESS_KEY",
        "stripe-api-key",
        "OPENAI_APIKEY",
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
        "no-password",
        "skip_password",
        "ask-password",
        "password-file",
        "key_buffer_size",
        "delay_key_write",
        "innodb_default_encryption_key_id",
        "ft_stopword_file",
        "bypass",
        "passes",
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


# Every spelling a credential can take, each with a variation: (text, what redaction makes of it).
SPELLINGS = [
    # a client's -p inside a command substitution, a subshell, backticks, a wrapped command
    (
        f"echo $(mysql -uroot -p{PLANTED} -e 'SELECT 1')",
        "echo $(mysql -uroot -p<redacted> -e 'SELECT 1')",
    ),
    (
        f"v=\"$(mariadb-admin -u root -p'{PLANTED}' ping)\"",
        "v=\"$(mariadb-admin -u root -p'<redacted>' ping)\"",
    ),
    (f"(mysqladmin -p{PLANTED} shutdown)", "(mysqladmin -p<redacted> shutdown)"),
    (f"x=`mysql -p{PLANTED} -N`; y=1", "x=`mysql -p<redacted> -N`; y=1"),
    (
        f"ssh db 'sudo mariadb -p{PLANTED} -e \"SELECT 1\"' && true",
        "ssh db 'sudo mariadb -p<redacted> -e \"SELECT 1\"' && true",
    ),
    (f"true|mysql -p{PLANTED}", "true|mysql -p<redacted>"),
    # a credential option with its value in the next word
    (f"restart.sh --password {PLANTED} now", "restart.sh --password <redacted> now"),
    (f"gh-ost -password '{PLANTED}' -execute", "gh-ost -password '<redacted>' -execute"),
    (f"sysbench --pgsql-password {PLANTED} run", "sysbench --pgsql-password <redacted> run"),
    (f"mariadbd --report-password {PLANTED} &", "mariadbd --report-password <redacted> &"),
    # tools whose -p takes the password in the next word as well
    (f"mydumper -u root -p {PLANTED} -B db", "mydumper -u root -p <redacted> -B db"),
    (f"myloader -p{PLANTED} -d dump", "myloader -p<redacted> -d dump"),
    (f"pt-table-checksum -p '{PLANTED}' h=db", "pt-table-checksum -p '<redacted>' h=db"),
    (
        f"sshpass -p {PLANTED} ssh -p 2222 db restart",
        "sshpass -p <redacted> ssh -p 2222 db restart",
    ),
    # an environment assignment whose name holds a credential word
    (f"DB_PASS={PLANTED} ./restart.sh", "DB_PASS=<redacted> ./restart.sh"),
    (f"export REPL_PASSWD='{PLANTED}'; go", "export REPL_PASSWD='<redacted>'; go"),
    (f"env MYSQL_PW={PLANTED} bench", "env MYSQL_PW=<redacted> bench"),
    (f"AWS_ACCESS_KEY={PLANTED} aws s3 ls", "AWS_ACCESS_KEY=<redacted> aws s3 ls"),
    # curl's user:password
    (f"curl -u admin:{PLANTED} https://ctl/", "curl -u admin:<redacted> https://ctl/"),
    (
        f"curl -sS --user 'ops:{PLANTED}' -X POST https://ctl/",
        "curl -sS --user 'ops:<redacted>' -X POST https://ctl/",
    ),
    (f"curl -uops:{PLANTED} ctl", "curl -uops:<redacted> ctl"),
    (f"curl --proxy-user p:{PLANTED} ctl", "curl --proxy-user p:<redacted> ctl"),
    # URLs and DSNs
    (f"bench:{PLANTED}@tcp(127.0.0.1:3306)/sbtest", "bench:<redacted>@tcp(127.0.0.1:3306)/sbtest"),
    (
        f'dsn = "root:{PLANTED}@unix(/run/mysqld/mysqld.sock)/db?tls=false"',
        'dsn = "root:<redacted>@unix(/run/mysqld/mysqld.sock)/db?tls=false"',
    ),
    (f"mysql://u:{PLANTED}@db:3306/x", "mysql://u:<redacted>@db:3306/x"),
    (
        f"pt-online-schema-change h=db,u=root,p={PLANTED},D=s,t=t1 --execute",
        "pt-online-schema-change h=db,u=root,p=<redacted>,D=s,t=t1 --execute",
    ),
    (f"pt-kill p={PLANTED},h=db", "pt-kill p=<redacted>,h=db"),
    # SQL, also inside a my.cnf option that runs it (init_connect)
    (
        f"init_connect = \"SET PASSWORD FOR 'bench'@'%' = '{PLANTED}'\"",
        "init_connect = \"SET PASSWORD FOR 'bench'@'%' = '<redacted>'\"",
    ),
    (
        f"SET PASSWORD FOR bench@localhost = PASSWORD('{PLANTED}')",
        "SET PASSWORD FOR bench@localhost = PASSWORD('<redacted>')",
    ),
    (
        f"ALTER USER u IDENTIFIED VIA ed25519 USING PASSWORD('{PLANTED}')",
        "ALTER USER u IDENTIFIED VIA ed25519 USING PASSWORD('<redacted>')",
    ),
    (
        f"CREATE USER u IDENTIFIED VIA ed25519 USING 'a' OR unix_socket USING '{PLANTED}'",
        "CREATE USER u IDENTIFIED VIA ed25519 USING '<redacted>' OR unix_socket USING '<redacted>'",
    ),
    (
        f"GRANT ALL ON *.* TO u IDENTIFIED BY PASSWORD '*{PLANTED}'",
        "GRANT ALL ON *.* TO u IDENTIFIED BY PASSWORD '<redacted>'",
    ),
    (
        f"CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD '{PLANTED}')",
        "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD '<redacted>')",
    ),
    (
        f"CHANGE MASTER TO MASTER_HOST='db', MASTER_PASSWORD='{PLANTED}'",
        "CHANGE MASTER TO MASTER_HOST='db', MASTER_PASSWORD='<redacted>'",
    ),
    (
        f'CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = "{PLANTED}"',
        'CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = "<redacted>"',
    ),
    (f"SELECT OLD_PASSWORD('{PLANTED}')", "SELECT OLD_PASSWORD('<redacted>')"),
    # a credential option under a quoted or dotted TOML key, or in an inline table
    (f'"report_password" = "{PLANTED}"', '"report_password" = "<redacted>"'),
    (f"'wsrep-sst-auth' = 'sst:{PLANTED}'", "'wsrep-sst-auth' = '<redacted>'"),
    (
        f'variants.base.options."report_password" = "{PLANTED}"',
        'variants.base.options."report_password" = "<redacted>"',
    ),
    (
        f'options = {{ "report-password" = "{PLANTED}", port = 1 }}',
        'options = { "report-password" = "<redacted>", port = 1 }',
    ),
    # a diff line adding one
    (f'+"report_password" = "{PLANTED}"', '+"report_password" = "<redacted>"'),
    (
        f"+restart_command = \"sh -c 'echo $(mysql -p{PLANTED})'\"",
        "+restart_command = \"sh -c 'echo $(mysql -p<redacted>)'\"",
    ),
]


@pytest.mark.parametrize(("text", "redacted"), SPELLINGS)
def test_every_spelling_is_redacted(text: str, redacted: str) -> None:
    assert redact_text(text) == redacted
    assert redact_text(redacted) == redacted


@pytest.mark.parametrize(
    "text",
    [
        # -p and -P of commands other than the password tools: ports and flags
        "ssh -p 2222 db uptime",
        "docker run -p 8080:80 -p3306:3306 mariadb:11.4",
        "redis-cli -p 6379 ping && psql -p 5432 -U bench",
        "sshpass -e ssh -p 2222 db",  # sshpass's own options end at the command it runs
        "sshpass -f /run/pw ssh -p2222 db",
        # a client's -p with a space prompts; --password with a space too
        "mysql -u bench -p sbtest",
        "mariadb-dump --password sbtest > dump.sql",
        "mariadb -P 3306 -p",
        # flags about passwords, and names that only look like one
        "psql --no-password sbtest",
        "mariadb-dump --password-file /etc/pw sbtest",
        "docker run -u 1000:1000 img",
        "chown mysql:mysql /srv && curl -o out https://example.org/",
        # MySQL's own error text, an image digest, an ssh remote, a join
        "Access denied for user 'root'@'localhost' (using password: YES)",
        "image mariadb:11.4@sha256:0f3c",
        "git clone git@github.com:org/repo.git",
        "SELECT a FROM t JOIN u USING (id)",
        # plain my.cnf settings
        "innodb_ft_max_token_size = 84",
        "ssl_key = /etc/mysql/server-key.pem",
        "key_buffer_size = 8M\\ndelay_key_write = ON",
        # where the secret comes from
        'sshpass -p "$SSHPASS" ssh db',
        "mydumper --password ${DUMP_PW} -B db",
        "DB_PASS=$PW ./run.sh",
        'curl -u "ops:$TOKEN" ctl',
    ],
)
def test_what_the_spellings_leave_alone(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize(("text", "redacted"), SPELLINGS)
def test_the_validator_refuses_every_spelling(text: str, redacted: str) -> None:
    doc = copy.deepcopy(_fixture())
    doc["reproduce"]["commands"].append({"purpose": "restart", "command": text})
    doc["status_reason"] = f"restart failed: {text}"
    where = f"$.reproduce.commands[{len(doc['reproduce']['commands']) - 1}].command"
    leaks = contract.credential_leaks(doc)
    assert sorted(path for path, _ in leaks) == sorted([where, "$.status_reason"])
    assert all(PLANTED not in why for _, why in leaks)
    doc["reproduce"]["commands"][-1]["command"] = redacted
    doc["status_reason"] = f"restart failed: {redacted}"
    assert contract.credential_leaks(doc) == []


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


def test_redacted_text_is_left_as_it_is() -> None:
    """The validator refuses text redaction would change, so whatever the harness recorded
    redacted must stay as it is: random mixes of every reading's pieces, as words and glued."""
    pieces = [
        "mysql", "mariadb-admin", "sshpass", "mydumper", "pt-kill", "curl", "ssh", "-p", "-pX",
        "-p'Y'", "--password", "--password=Z", "-u", "u:pw", "a:b@tcp(h)/d", "h=a,p=q", "SET",
        "PASSWORD", "FOR", "'u'@'%'", "=", "=#", "'s'", '"d"', "PASSWORD('w')", "IDENTIFIED",
        "BY", "VIA", "USING", "OR", "$(", "(", ")", "`", ";", "&&", "|", "'", '"', "\\", "#",
        "<redacted>", "<x y>", "$PW", "DB_PASS=v", "report_password", "wsrep_sst_auth", "\n",
        "https://u:p@h/", "OPTIONS", "token", "--no-password", "'--password'", '"$(mysql -pQ)"',
    ]  # fmt: skip
    draw = random.Random(33)
    for _ in range(3000):
        text = draw.choice(["", " ", "'", "+"]).join(draw.choices(pieces, k=draw.randint(1, 12)))
        redacted = redact_text(text)
        assert redact_text(redacted) == redacted, text
