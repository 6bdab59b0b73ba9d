"""A run's replay.sh (templates/replay.sh.j2) and what its run page lists: the variables a reader
edits and the commands in them (commands.py).

A run that ran after others on its server start (analysis/server_starts.py) is replayed after
them, on one start, as it ran (commands.start_commands); both take those runs as `earlier`.

A run on a server mybench did not start cannot be replayed by a script: its configuration came
from that server's own files, and its commands name that server. The script then says so and
exits, and the page says why.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import TypedDict

from contract import RunDocument
from contract.replay_variables import PRISTINE, reference
from contract.text_templates import text_templates
from generator.replay.commands import (
    ReplayCommand,
    admin_client,
    start_commands,
    tuned_my_cnf,
)

_TEMPLATES = text_templates(Path(__file__).parent / "templates")
# A basedir inside a checkout (fetched by `mybench server fetch`) is found under the reader's REPO.
_IN_CHECKOUT = re.compile(r".*/(\.servers/.+)")


class EarlierRun(TypedDict):
    id: str
    workload: str


class ReplayPage(TypedDict):
    """data/replay/<run>.json: the run page's Reproduce list."""

    replayable: bool
    reason: str
    variables: str  # the top of replay.sh: what to edit, and what follows from it
    commands: list[ReplayCommand]
    derived: bool  # some commands were added for a document that did not record them
    earlier: list[EarlierRun]  # the runs replayed before it on its server start


def not_replayable(run: RunDocument) -> str:
    """Why no script can replay the run; empty when one can."""
    server = run.get("server")
    if server is None:
        return "the run failed before the server could be described"
    if not server.get("sandbox", False):
        return "it measured a server mybench did not start, with that server's own configuration"
    return ""


def _variables_context(run: RunDocument, commands: list[ReplayCommand]) -> dict[str, object]:
    server = run["server"]
    basedir = server.get("basedir", "/usr")
    in_checkout = _IN_CHECKOUT.fullmatch(basedir)
    return {
        "run_id": run["id"],
        "commit": run["harness"].get("git_commit") or "the commit of the run page",
        "server_label": f"{server['product']} {server['version']}",
        "server_binary": Path(server.get("binary", "mariadbd")).name,
        "basedir_default": f"$REPO/{in_checkout[1]}" if in_checkout else shlex.quote(basedir),
        "uses_pristine": any(reference(PRISTINE) in c["command"] for c in commands),
    }


def _earlier(earlier: list[RunDocument]) -> list[EarlierRun]:
    return [{"id": other["id"], "workload": other["workload"]["name"]} for other in earlier]


def replay_script(run: RunDocument, earlier: list[RunDocument] | None = None) -> str:
    """The whole replay.sh of a run (earlier: the runs before it on its server start)."""
    reason = not_replayable(run)
    context: dict[str, object] = {
        "run_id": run["id"],
        "campaign": run["campaign"]["id"],
        "variant": run["variant"],
        "harness_command": run["reproduce"]["harness_command"],
        "replayable": not reason,
        "reason": reason,
        "earlier": _earlier(earlier or []),
    }
    if not reason:
        commands = start_commands(run, earlier or [])
        context |= _variables_context(run, commands)
        context |= {
            "tuned_my_cnf": tuned_my_cnf(run["server"]["my_cnf"]),
            "admin": admin_client(run),
            "commands": commands,
            "derived": any(command["derived"] for command in commands),
        }
    return _TEMPLATES.get_template("replay.sh.j2").render(context)


def replay_page(run: RunDocument, earlier: list[RunDocument] | None = None) -> ReplayPage:
    """The run page's Reproduce list: the same variables and commands as its replay.sh."""
    reason = not_replayable(run)
    if reason:
        return {
            "replayable": False,
            "reason": reason,
            "variables": "",
            "commands": [],
            "derived": False,
            "earlier": [],
        }
    commands = start_commands(run, earlier or [])
    context = _variables_context(run, commands)
    variables = _TEMPLATES.get_template("variables.sh.j2").render(context)
    return {
        "replayable": True,
        "reason": "",
        "variables": variables,
        "commands": commands,
        "derived": any(command["derived"] for command in commands),
        "earlier": _earlier(earlier or []),
    }
