"""A basedir's binaries: where the server and the MariaDB installer are, and the command that
creates an empty datadir with each product's own tool."""

from __future__ import annotations

import os
from pathlib import Path

from harness.errors import UserError
from harness.servers.products.identity import Product
from harness.servers.products.versions import since

# Where a basedir keeps its binaries: Debian puts the server in sbin/ and the installer in bin/,
# tarballs use bin/ and scripts/; mysql_install_db is the MariaDB < 10.5 name of the installer
# (a MySQL 5.7 tarball's own bin/mysql_install_db is found too, and not used).
SERVER_CANDIDATES = tuple(
    f"{directory}/{name}"
    for name in ("mariadbd", "mysqld")
    for directory in ("sbin", "bin", "libexec")
)
INSTALL_DB_CANDIDATES = (
    "bin/mariadb-install-db",
    "scripts/mariadb-install-db",
    "bin/mysql_install_db",
    "scripts/mysql_install_db",
)


def find_binaries(basedir: Path) -> tuple[Path, Path | None]:
    """The server binary and the MariaDB installer of a basedir; MySQL and Percona initialise
    with the server itself, so a missing installer is only an error for MariaDB (init_argv)."""
    server = _first_executable(basedir, SERVER_CANDIDATES)
    if server is None:
        hint = " (Debian package 'mariadb-server')" if basedir == Path("/usr") else ""
        raise UserError(f"{basedir}: no mariadbd or mysqld in sbin/, bin/ or libexec/{hint}")
    return server, _first_executable(basedir, INSTALL_DB_CANDIDATES)


def _first_executable(basedir: Path, candidates: tuple[str, ...]) -> Path | None:
    for relative in candidates:
        path = basedir / relative
        if path.is_file() and os.access(path, os.X_OK):
            return path
    return None


# mariadb-install-db flags by the version that has them. From 10.4.3 root is created for
# unix_socket login only unless told otherwise (before, password login was the default);
# --skip-test-db exists from 10.3. Both as used by the official image:
# https://github.com/MariaDB/mariadb-docker/pull/297
_MARIADB_INSTALL_FLAGS = (
    (since(10, 4), "--auth-root-authentication-method=normal"),
    (since(10, 3), "--skip-test-db"),
)
# mysqld --initialize-insecure exists from MySQL 5.7.6:
# https://dev.mysql.com/doc/refman/5.7/en/data-directory-initialization-mysqld.html
_MYSQL_INITIALIZE = since(5, 7, 6)


def init_argv(
    product: Product, server_binary: Path, install_db: Path | None, defaults_file: Path
) -> list[str]:
    """The command that creates an empty datadir from defaults_file (which names the datadir),
    so that options fixed at creation take the variant's values."""
    if product.family == "mariadb":
        if install_db is None:
            raise UserError(
                f"{server_binary}: {product.label} needs mariadb-install-db (or mysql_install_db)"
                " in bin/ or scripts/ of its basedir to create a datadir"
            )
        flags = [flag for versions, flag in _MARIADB_INSTALL_FLAGS if product.version in versions]
        return [str(install_db), f"--defaults-file={defaults_file}", *flags]
    if product.version not in _MYSQL_INITIALIZE:
        raise UserError(
            f"{server_binary}: {product.label} predates mysqld --initialize-insecure (5.7.6);"
            " not supported"
        )
    return [str(server_binary), f"--defaults-file={defaults_file}", "--initialize-insecure"]
