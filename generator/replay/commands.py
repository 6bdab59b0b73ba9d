"""A run's recorded commands in the replay variables (contract.replay_variables), one socket,
datadir and my.cnf throughout, with the steps a reader needs between the load and the run.

Runs recorded since the harness writes its commands in those variables are taken as they are,
but for the write-debt wait of older documents, which now fails loudly (contract.settle_wait),
and the pause between thread levels, which documents recorded before it was a command get from
the campaign file their provenance snapshot keeps, marked derived (contract.sweep_pause).
Older documents hold the measuring machine's paths: the sockets of two sandboxes (the one that
loaded the data and the one that measured on a copy), the basedir, a relative my.cnf. Those are
turned into the variables here, and the loading server's shutdown, the datadir copy and the
start on the copy, which the harness did but did not record then, are added and marked derived.
"""

from __future__ import annotations

import re
from typing import TypedDict

from contract import RunDocument
from contract.fields import data_origin_method
from contract.replay_variables import (
    BASEDIR,
    DATADIR,
    MYCNF,
    PRISTINE,
    SOCKET,
    in_variables,
    reference,
)
from contract.settle_wait import loud_wait
from contract.sweep_pause import PAUSE_PURPOSE, pause_command, snapshot_pause

PLACEMENT_MARK = "# sandbox placement, set by the harness"
# Every sandbox socket the harness ever made: a mkdtemp directory under /tmp.
_SANDBOX_SOCKET = re.compile(r"/tmp/mybench-\w+/mysqld\.sock")
_RELATIVE_MYCNF = "--defaults-file=my.cnf"
_START_PURPOSE = "start the server"
_MEASURE_PURPOSE = "measure at "  # one thread level's step (harness/workloads/sysbench/driver.py)
_INIT_PURPOSE = "initialise a datadir"


class ReplayCommand(TypedDict):
    purpose: str
    command: str
    derived: bool  # added from what the harness did, not recorded by it


def placement(my_cnf: str) -> dict[str, str]:
    """The options of the block the harness appends to every sandbox's my.cnf."""
    _, marked, block = my_cnf.partition(PLACEMENT_MARK)
    if not marked:
        return {}
    pairs = (line.split("=", 1) for line in block.splitlines() if "=" in line)
    return {name.strip(): value.strip() for name, value in pairs}


def tuned_my_cnf(my_cnf: str) -> str:
    """The configuration that was measured: the my.cnf without the harness's placement block."""
    before, marked, _ = my_cnf.partition(PLACEMENT_MARK)
    if not marked:
        return my_cnf
    return before.rstrip().removesuffix("[mysqld]").rstrip() + "\n"


def admin_client(run: RunDocument) -> str:
    return "mariadb-admin" if run["server"]["product"] == "mariadb" else "mysqladmin"


def recorded_in_variables(run: RunDocument) -> bool:
    """Whether the harness wrote this run's commands in the replay variables itself."""
    return any(reference(SOCKET) in c["command"] for c in run["reproduce"]["commands"])


def replay_commands(run: RunDocument) -> list[ReplayCommand]:
    """The commands of a sandboxed run as replay.sh runs them."""
    recorded = _with_pauses(
        run,
        [
            ReplayCommand(
                purpose=entry["purpose"],
                command=loud_wait(entry["command"], entry["purpose"]),
                derived=False,
            )
            for entry in run["reproduce"]["commands"]
        ],
    )
    if recorded_in_variables(run):
        return recorded
    server = run["server"]
    measured_socket = placement(server["my_cnf"]).get("socket", "")
    values = {BASEDIR: server.get("basedir", ""), SOCKET: measured_socket}
    commands: list[ReplayCommand] = []
    restored = data_origin_method(run) == "restored"
    loading = restored  # until the first command through the measuring server's socket
    start = ""  # the loading server's start: the start on the copy is the same command
    for entry in recorded:
        text = _SANDBOX_SOCKET.sub(reference(SOCKET), in_variables(entry["command"], values))
        text = text.replace(_RELATIVE_MYCNF, f"--defaults-file={reference(MYCNF)}")
        if loading and measured_socket in entry["command"]:
            loading = False
            commands += _derived_copy(run, start)
        if entry["purpose"].startswith(_START_PURPOSE):
            start = text
        if entry["purpose"].startswith((_INIT_PURPOSE, _START_PURPOSE)):
            text = _with_datadir(text, reference(PRISTINE if loading else DATADIR))
        commands.append({**entry, "command": text})
    if loading and commands:  # a restored run that failed before its first command
        commands += _derived_copy(run, start)
    return commands


def _with_pauses(run: RunDocument, recorded: list[ReplayCommand]) -> list[ReplayCommand]:
    """The recorded commands with the campaign's pause after every thread level's step but the
    last, where the harness paused, when the document predates recording it."""
    if any(entry["purpose"] == PAUSE_PURPOSE for entry in recorded):
        return recorded
    seconds = snapshot_pause(run)
    if not seconds:
        return recorded
    pause = ReplayCommand(purpose=PAUSE_PURPOSE, command=pause_command(seconds), derived=True)
    steps = [
        i for i, entry in enumerate(recorded) if entry["purpose"].startswith(_MEASURE_PURPOSE)
    ]
    paused_after = set(steps[:-1])
    with_pauses: list[ReplayCommand] = []
    for index, entry in enumerate(recorded):
        with_pauses += [entry, pause] if index in paused_after else [entry]
    return with_pauses


def _with_datadir(command: str, datadir: str) -> str:
    """An init or start command naming its datadir (the background '&' stays last)."""
    body, background, _ = command.partition(" &")
    return f"{body} --datadir={datadir}{background}"


def _derived_copy(run: RunDocument, start: str) -> list[ReplayCommand]:
    """What the harness did between the load and the run without recording it then."""
    socket = f"--socket={reference(SOCKET)}"
    client = "mariadb" if run["server"]["product"] == "mariadb" else "mysql"
    slow = "SET GLOBAL innodb_fast_shutdown = 0"
    derived: list[tuple[str, str]] = [
        (
            "ask for a slow shutdown (purge done before the copy)",
            f'{client} {socket} -u root -e "{slow}"',
        ),
        ("shut the server down", f"{admin_client(run)} {socket} -u root shutdown"),
        (
            "copy the loaded datadir (every variant starts on its own copy)",
            f"cp -a {reference(PRISTINE)} {reference(DATADIR)}",
        ),
        (_START_PURPOSE, _with_datadir(start, reference(DATADIR))),
    ]
    return [
        {"purpose": purpose, "command": command, "derived": True} for purpose, command in derived
    ]


# The last commands of a server start that every run on it records: the start on the copy of the
# loaded data and the sampled metrics it enabled.
_START_ENDS = (_START_PURPOSE, "enable a sampled InnoDB metric")


def _shared_start(first: list[ReplayCommand], own: list[ReplayCommand]) -> int:
    """How many leading commands two runs of one server start share: the load and the start,
    up to the last start or metric enable both recorded alike (after it, a settle wait may
    read the same in both and still be each run's own)."""
    shared = 0
    for index, (one, other) in enumerate(zip(first, own, strict=False)):
        if one != other:
            break
        if one["purpose"].startswith(_START_ENDS):
            shared = index + 1
    return shared


def start_commands(run: RunDocument, earlier: list[RunDocument]) -> list[ReplayCommand]:
    """The commands of a run as it ran on its server start, earlier: the runs that ran on that
    start before it, in order (analysis/server_starts.py). Each run records the load and the
    start as if it were alone on the server; the harness started it once. So the replay runs
    the load and the start once, then each earlier run's own commands (its workload named in
    their purposes), then this run's: a replay measures the server in the state the run found."""
    own = replay_commands(run)
    theirs = [replay_commands(other) for other in earlier]
    shares = [_shared_start(commands, own) for commands in theirs]
    if not earlier or 0 in shares:  # alone, or not the same recorded start: the run alone
        return own
    commands = own[: shares[0]]
    for other, recorded, shared in zip(earlier, theirs, shares, strict=True):
        name = other["workload"]["name"]
        commands += [
            {**command, "purpose": f"before this run, {name}: {command['purpose']}"}
            for command in recorded[shared:]
        ]
    return commands + own[shares[0] :]
