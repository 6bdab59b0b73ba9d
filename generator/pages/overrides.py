"""The options of a run's my.cnf that the harness replaced with its own value (the placement
block it appends to every sandbox's my.cnf: port, socket, datadir ...), shown beside the my.cnf
so a reader does not take a variant's `port` for the one the server used. Runs recorded before
the harness noted them get them derived from their my.cnf, and the page says so."""

from __future__ import annotations

from typing import Any

from contract import RunDocument
from generator.replay.commands import placement


def harness_overrides(run: RunDocument) -> dict[str, Any]:
    """{"options": [{name, set, used}], "derived": bool}; options is empty when the harness
    replaced nothing (and for a server it did not start: it wrote no placement there)."""
    server = run["server"]
    asked = server.get("my_cnf_options", {})
    recorded = server.get("harness_overrides")
    if recorded is None and "my_cnf" not in server:  # an imported run given no my.cnf
        found = {}
    elif recorded is None:
        used = {name: value.strip("\"'") for name, value in placement(server["my_cnf"]).items()}
        found = {name: value for name, value in used.items() if asked.get(name, value) != value}
    else:
        found = recorded
    return {
        "options": [
            {"name": name, "set": asked.get(name, ""), "used": value}
            for name, value in sorted(found.items())
        ],
        "derived": recorded is None,
    }
