"""The my.cnf options the harness replaced (generator/pages/overrides.py): recorded by newer
runs, derived from the my.cnf's placement block for older ones."""

import copy

from generator.pages.overrides import harness_overrides
from generator.replay.commands import placement


def with_port(run: dict, asked: str) -> dict:
    """A copy of a sandbox run whose base my.cnf or variant had set `port = asked`."""
    changed = copy.deepcopy(run)
    changed["server"]["my_cnf_options"]["port"] = asked
    changed["server"]["my_cnf"] = changed["server"]["my_cnf"].replace(
        "[mysqld]\n", f"[mysqld]\nport = {asked}\n", 1
    )
    return changed


def test_older_runs_get_them_derived_from_the_placement_block(fixture_runs):
    run = next(
        run for run in (f.doc for f in fixture_runs) if run["server"].get("kind") == "sandbox"
    )
    used = placement(run["server"]["my_cnf"])["port"]
    assert "harness_overrides" not in run["server"]
    assert harness_overrides(run) == {"options": [], "derived": True}
    assert harness_overrides(with_port(run, "3307")) == {
        "options": [{"name": "port", "set": "3307", "used": used}],
        "derived": True,
    }


def test_recorded_ones_are_shown_as_recorded(fixture_runs):
    run = with_port(fixture_runs[0].doc, "3307")
    run["server"]["harness_overrides"] = {"port": "40123"}
    assert harness_overrides(run) == {
        "options": [{"name": "port", "set": "3307", "used": "40123"}],
        "derived": False,
    }
    run["server"]["harness_overrides"] = {}
    assert harness_overrides(run) == {"options": [], "derived": False}
