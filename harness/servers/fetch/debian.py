"""A release from Debian's archive: the server and client packages of one suite with every package
they depend on, unpacked into a root of their own.

Why a root of its own: a newer suite's server needs a newer glibc than the host may have (trixie's
mariadbd needs glibc 2.38, Debian 12 has 2.36) and an older suite's needs libraries the host no
longer ships (bullseye's needs OpenSSL 1.1). So every fetched release runs on its own suite's
loader and libraries whatever the host, sharing only the kernel: patchelf points each executable's
interpreter at the root's ld-linux and its RPATH (which, unlike RUNPATH, also serves the
libraries those load and the plugins the server opens) at the root's library folders, and the
fetch then checks with that loader that every library resolves inside the root. The binary runs
directly, not under `ld.so --library-path`, so /proc/<pid>/exe, the process name and perf's
symbols stay those of mariadbd. A chroot made with mmdebstrap would work too, but needs root or
user namespaces to enter and a few hundred MB per suite.

apt downloads, with a private state folder (its own sources list, lists and cache) so the
system's sources stay untouched while its apt.conf (proxies) still applies. The mirror is the one
the system's sources name for Debian, with the suite changed, or $MYBENCH_DEBIAN_MIRROR and
$MYBENCH_DEBIAN_SECURITY_MIRROR. apt checks every package against the suite's signed index."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from harness.errors import UserError
from harness.servers.fetch.catalog import Debian, Release
from harness.servers.fetch.folders import message_folders

KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
SOURCES = (Path("/etc/apt/sources.list"), Path("/etc/apt/sources.list.d"))
TRIPLETS = {"amd64": "x86_64-linux-gnu", "arm64": "aarch64-linux-gnu"}
LOADERS = {"amd64": "ld-linux-x86-64.so.2", "arm64": "ld-linux-aarch64.so.1"}
EXECUTABLE_DIRS = ("usr/sbin", "usr/bin", "sbin", "bin")
INSTALL = re.compile(r"^Inst (?P<package>\S+) \((?P<version>\S+) ", re.MULTILINE)


def _source_entries() -> list[tuple[list[str], list[str]]]:
    """(URIs, suites) of every deb entry in the system's apt sources, both formats."""
    entries = []
    files = [SOURCES[0]] if SOURCES[0].is_file() else []
    if SOURCES[1].is_dir():
        files += sorted(SOURCES[1].glob("*.list")) + sorted(SOURCES[1].glob("*.sources"))
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".sources":
            for stanza in re.split(r"\n\s*\n", text):
                fields = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", stanza, re.MULTILINE))
                if "deb" in fields.get("Types", "").split() and fields.get("Enabled") != "no":
                    entries.append(
                        (fields.get("URIs", "").split(), fields.get("Suites", "").split())
                    )
        else:
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", "", line.split("#", 1)[0]).split()
                if len(words) >= 3 and words[0] == "deb":
                    entries.append(([words[1]], [words[2]]))
    return entries


def mirrors() -> tuple[str, str]:
    """The Debian archive and security mirrors the system's apt sources use."""
    archive = os.environ.get("MYBENCH_DEBIAN_MIRROR")
    security = os.environ.get("MYBENCH_DEBIAN_SECURITY_MIRROR")
    for uris, suites in _source_entries():
        debian = [uri for uri in uris if uri.rstrip("/").endswith("/debian")]
        secure = [uri for uri in uris if uri.rstrip("/").endswith("/debian-security")]
        if archive is None and debian and any("-security" not in suite for suite in suites):
            archive = debian[0]
        if security is None and secure:
            security = secure[0]
    if archive is None:
        raise UserError(
            f"no Debian archive in {SOURCES[0]} or {SOURCES[1]}: set MYBENCH_DEBIAN_MIRROR"
            " to a Debian mirror (and MYBENCH_DEBIAN_SECURITY_MIRROR to its security archive)"
        )
    return archive, security or archive.rstrip("/") + "-security"


class PrivateApt:
    """apt-get with a state folder of its own: one suite, nothing installed."""

    def __init__(self, state: Path, suite: str):
        self.state = state
        for folder in ("lists/partial", "cache/archives/partial", "sources.list.d", "prefs.d"):
            (state / folder).mkdir(parents=True, exist_ok=True)
        (state / "status").touch()
        archive, security = mirrors()
        signed = f"[signed-by={KEYRING}]"
        (state / "sources.list").write_text(
            f"deb {signed} {archive} {suite} main\n"
            f"deb {signed} {archive} {suite}-updates main\n"
            f"deb {signed} {security} {suite}-security main\n"
        )
        self.options = [
            f"-oDir::State={state}",
            f"-oDir::State::Lists={state / 'lists'}",
            f"-oDir::State::status={state / 'status'}",
            f"-oDir::Cache={state / 'cache'}",
            f"-oDir::Etc::SourceList={state / 'sources.list'}",
            f"-oDir::Etc::SourceParts={state / 'sources.list.d'}",
            f"-oDir::Etc::PreferencesParts={state / 'prefs.d'}",
            "-oDebug::NoLocking=true",
        ]
        if os.geteuid() == 0:  # a private folder _apt cannot enter: download as ourselves
            self.options.append("-oAPT::Sandbox::User=root")

    def run(self, *args: str, cwd: Path | None = None, tool: str = "apt-get") -> str:
        result = subprocess.run(
            [tool, "-q", *self.options, *args],
            capture_output=True,
            text=True,
            cwd=cwd,
            check=False,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
        )
        if result.returncode != 0:
            errors = [line for line in result.stderr.splitlines() if line.startswith("E:")]
            raise UserError(f"{tool} {args[0]} ({self.state}): {' / '.join(errors[-3:])}")
        return result.stdout

    def closure(self, packages: dict[str, str]) -> dict[str, str]:
        """package -> version of everything the packages need, as apt would install them on
        an empty system (no recommends)."""
        wanted = [f"{package}={version}" for package, version in packages.items()]
        try:
            plan = self.run("install", "--simulate", "--no-install-recommends", *wanted)
        except UserError as error:
            policy = self.run("policy", *packages, tool="apt-cache")
            raise UserError(f"{error}; the suite now carries: {_candidates(policy)}") from None
        return {match["package"]: match["version"] for match in INSTALL.finditer(plan)}


def _candidates(policy: str) -> str:
    found = re.findall(r"^(\S+):\n\s+Installed: .*\n\s+Candidate: (\S+)", policy, re.MULTILINE)
    return ", ".join(f"{package} {version}" for package, version in found) or "nothing"


def _architecture() -> str:
    return subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
    ).stdout.strip()


def _real_file(root: Path, name: str, folders: list[Path]) -> Path:
    """The regular file behind name in one of the root's folders, following symlinks inside the
    root (a package's absolute link, /lib64/ld-linux-x86-64.so.2 -> /lib/..., would otherwise
    point at the host's file)."""
    for folder in folders:
        path = folder / name
        for _ in range(8):
            if not path.is_symlink():
                break
            target = Path(os.readlink(path))
            path = root / target.relative_to("/") if target.is_absolute() else path.parent / target
        if path.is_file() and not path.is_symlink():
            return path
    raise UserError(f"{root}: no {name} in {', '.join(str(f) for f in folders)}")


def _elf_executables(root: Path) -> list[Path]:
    found = []
    for folder in EXECUTABLE_DIRS:
        for path in sorted((root / folder).glob("*")) if (root / folder).is_dir() else []:
            if path.is_file() and not path.is_symlink() and path.read_bytes()[:4] == b"\x7fELF":
                found.append(path)
    return found


def _has_interpreter(path: Path) -> bool:
    result = subprocess.run(
        ["patchelf", "--print-interpreter", str(path)], capture_output=True, check=False
    )
    return result.returncode == 0


def _check_libraries(loader: Path, binary: Path, root: Path) -> None:
    """Every library the binary loads resolves inside root."""
    listing = subprocess.run(
        [str(loader), "--list", str(binary)], capture_output=True, text=True, check=False
    )
    resolved = re.findall(r"=> (\S+) \(", listing.stdout)
    outside = [path for path in resolved if not Path(path).resolve().is_relative_to(root)]
    missing = re.findall(r"^\s*(\S+) => not found", listing.stdout, re.MULTILINE)
    if listing.returncode != 0 or outside or missing:
        raise UserError(
            f"{binary}: libraries not found in {root}: {missing or outside or listing.stderr}"
        )


def unpack(release: Release, target: Path, apt_state: Path) -> dict[str, object]:
    """Download and unpack the release into target (the root); what the manifest records."""
    assert isinstance(release.origin, Debian)
    for tool in ("apt-get", "dpkg-deb", "patchelf"):
        if shutil.which(tool) is None:
            raise UserError(f"{tool} not found on PATH, needed for {release.name}")
    arch = _architecture()
    if arch not in TRIPLETS:
        raise UserError(f"{release.name}: no loader known for architecture {arch}")
    apt = PrivateApt(apt_state / release.origin.suite, release.origin.suite)
    apt.run("update")
    closure = apt.closure(release.origin.packages)
    downloads = target.parent / f".{target.name}.debs"
    downloads.mkdir(parents=True, exist_ok=True)
    apt.run("download", *(f"{p}={v}" for p, v in closure.items()), cwd=downloads)
    packages = []
    for deb in sorted(downloads.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(target)], check=True)
        name, version = deb.name.split("_")[:2]
        digest = hashlib.sha256(deb.read_bytes()).hexdigest()
        packages.append({"package": name, "version": closure.get(name, version), "sha256": digest})
    shutil.rmtree(downloads)
    triplet = TRIPLETS[arch]
    libraries = [
        folder
        for folder in (target / "lib" / triplet, target / "usr" / "lib" / triplet)
        if folder.is_dir()
    ]
    loader = _real_file(target, LOADERS[arch], libraries)
    rpath = ":".join(str(folder) for folder in libraries)
    for executable in _elf_executables(target):
        if _has_interpreter(executable):
            subprocess.run(
                ["patchelf", "--set-interpreter", str(loader), "--force-rpath", "--set-rpath",
                 rpath, str(executable)],
                check=True,
            )  # fmt: skip
    server = target / "usr" / "sbin" / "mariadbd"
    _check_libraries(loader, server, target)
    server_package = next(iter(release.origin.packages.items()))
    return {
        "suite": release.origin.suite,
        "server_package": {"package": server_package[0], "version": server_package[1]},
        "packages": packages,
        "loader": str(loader.relative_to(target)),
        "basedir": "usr",
        "server_options": _own_folders(target),
    }


def _own_folders(root: Path) -> dict[str, str]:
    """The options that point the server at its own messages, character sets and plugins: its
    compiled defaults name folders under /usr, which are the host's (and differ between Debian
    releases: /usr/share/mysql or /usr/share/mariadb, a plugin folder per library ABI)."""
    options = message_folders(root)
    plugins = next((p.parent for p in root.glob("usr/lib/**/plugin/ha_*.so")), None)
    if plugins is None:  # the packages ship none: an empty folder, never the host's plugins
        plugins = root / "usr" / "lib" / "mysql" / "plugin"
        plugins.mkdir(parents=True, exist_ok=True)
    return {**options, "plugin_dir": str(plugins)}
