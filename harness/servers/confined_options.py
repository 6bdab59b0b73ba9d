"""The my.cnf of a run document read from elsewhere (a URL, a file outside the data
directories) is a stranger's: this module decides, by the option's name, what such a file may
do in a sandbox.

- Refused, with a line naming the option: options that load code or run SQL or commands at
  start. By shape: `init_*` (init_file, init_connect, init_slave, init_replica ...: SQL), a
  name holding `plugin_load` or `plugin_dir` (plugin_load_add, early_plugin_load ...: code),
  `*_cmd` (wsrep_notify_cmd: a command); and REFUSED, which no shape catches. The `!include`
  and `!includedir` directives are refused too: they read the host's files.
- Placed in the sandbox: options that name a file or a directory keep only a safe base name
  (letters, digits, `. _ + -`, no leading dot), under the sandbox's own folder. By shape: a
  name ending in `dir`, `directory`, `directories`, `path`, `_file`, `filename`, or `ssl_ca`,
  `ssl_cert`, `ssl_key`, `ssl_crl`; and NAMED, which no shape catches. NOT_NAMES are flags
  shaped like file names; InnoDB's file lists (DATA_FILE_LISTS) keep base names only, which
  InnoDB places under innodb_data_home_dir or the datadir.

Names are compared as the server reads them: `-` and `_` alike, in any case, and without the
`loose-`, `maximum-`, `enable-`, `skip-` and `disable-` prefixes. Every section counts (a
server reads [mariadb-11.4], [galera] ..., the installer [mysql_install_db]). A server also
takes an unambiguous prefix of an option's name (`init-fil`); the sandbox turns that off
(exact_names), so such a name is an unknown option the server refuses. MySQL 8.0 matches
exact names only; MySQL 5.7 still takes prefixes and has no switch for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UserError
from harness.servers import mycnf

PREFIXES = ("loose_", "maximum_", "enable_", "skip_", "disable_")
_REFUSED_SHAPE = re.compile(r"^init_|plugin_load|plugin_dir|_cmd$")
REFUSED = {
    "wsrep_provider": "loads a library",
    "extra_file": "runs its SQL when the installer creates the datadir",
    "srcdir": "makes the installer run scripts from there",
    "builddir": "makes the installer run programs from there",
    "debug": "its trace spec names a file to write",
}
_NAME_SHAPE = re.compile(r"(dir|directory|directories|path|_file|filename|ssl_(ca|cert|key|crl))$")
NAMED = {
    "log_bin", "log_bin_index", "relay_log", "relay_log_index", "log_tc", "log_ddl_recovery",
    "log_error", "log_isam", "log_basename", "socket", "mysqlx_socket", "secure_file_priv",
    "chroot", "language",
}  # fmt: skip
NOT_NAMES = {"core_file", "innodb_status_file", "aria_sync_log_dir"}  # flags and an enum
DATA_FILE_LISTS = {"innodb_data_file_path", "innodb_temp_data_file_path"}  # name:size;...
_DIRECTORY_SHAPE = re.compile(r"(dir|directory|directories|dir_path|capath|crlpath)$")
DIRECTORIES = {"secure_file_priv", "chroot", "language"}
BASE_NAME_MAX = 64


@dataclass(frozen=True)
class Rewrite:
    option: str  # as the file spells it
    value: str  # the stranger's
    placed: str  # what the sandbox uses instead


def canonical(name: str) -> str:
    key = mycnf.option_key(name)
    while stripped := next((key[len(p) :] for p in PREFIXES if key.startswith(p)), None):
        key = stripped
    return key


def refusal(name: str) -> str | None:
    """Why a stranger's option is refused, or None."""
    key = canonical(name)
    if key in REFUSED:
        return REFUSED[key]
    if _REFUSED_SHAPE.search(key):
        return "loads code or runs SQL or a command at start"
    return None


def names_a_path(name: str) -> bool:
    key = canonical(name)
    if key in NOT_NAMES:
        return False
    return key in NAMED or key in DATA_FILE_LISTS or bool(_NAME_SHAPE.search(key))


def names_a_directory(name: str) -> bool:
    key = canonical(name)
    return key in DIRECTORIES or bool(_DIRECTORY_SHAPE.search(key) and names_a_path(name))


def base_name(value: str, fallback: str) -> str:
    """The last path component, with only safe characters and no leading dot."""
    last = next((part for part in reversed(re.split(r"[/\\]", value)) if part), "")
    safe = re.sub(r"[^A-Za-z0-9._+-]", "_", last).lstrip(".")[:BASE_NAME_MAX]
    return safe or fallback


def _data_file_list(value: str) -> str:
    """innodb_data_file_path's `name:size[:autoextend...];...` with each name a base name."""
    specs = []
    for spec in value.split(";"):
        name, sep, rest = spec.partition(":")
        specs.append(base_name(name, "ibdata") + sep + rest)
    return ";".join(specs)


def refuse_code(text: str, where: str) -> None:
    """UserError naming the first option or directive of text that loads code or runs SQL."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("!"):
            directive = stripped.split()[0]
            raise UserError(f"{where}: {directive} is refused: it reads the host's files")
        match = mycnf.OPTION.match(stripped.split("#", 1)[0])
        if match and (why := refusal(match["name"])):
            raise UserError(
                f"{where}: {match['name']} is refused in a run document from elsewhere: {why}"
            )


def confine(text: str, where: str, folder: Path | None = None) -> tuple[str, list[Rewrite]]:
    """text with every option naming a file or directory placed in folder (None: the base
    name alone); UserError when an option loads code or runs SQL. Bare flags stay as they are
    (`log_bin` alone names no file)."""
    refuse_code(text, where)
    out: list[str] = []
    rewrites: list[Rewrite] = []
    for line in text.splitlines():
        stripped = line.split("#", 1)[0].strip()
        match = mycnf.OPTION.match(stripped)  # a [section] line does not match
        if match is None or match["value"] is None or not names_a_path(match["name"]):
            out.append(line)
            continue
        name, value = match["name"], match["value"].strip("\"'")
        if canonical(name) in DATA_FILE_LISTS:
            placed = _data_file_list(value)
        else:
            placed = base_name(value, canonical(name))
            placed = str(folder / placed) if folder is not None else placed
        if placed != value:
            rewrites.append(Rewrite(name, value, placed))
        out.append(mycnf.render_option(name, placed))
    return "\n".join(out) + "\n", rewrites


def exact_names(family: str) -> dict[str, str]:
    """Placement options that make the server match option names exactly, not by prefix."""
    return {"getopt_prefix_matching": "OFF"} if family == "mariadb" else {}


def directories(text: str) -> list[str]:
    """The values of the options of text that name a directory (for the sandbox to create)."""
    found = []
    for line in text.splitlines():
        stripped = line.split("#", 1)[0].strip()
        match = mycnf.OPTION.match(stripped)
        if match and match["value"] is not None and names_a_directory(match["name"]):
            found.append(match["value"].strip("\"'"))
    return found
