"""A run page names, beside its my.cnf, the options the harness replaced with its own value:
recorded ones as they are, derived ones for older runs with a word saying so (real Hugo)."""

from __future__ import annotations

import copy
import json
from html import unescape

import pytest

from generator.replay.commands import placement
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.repeated_runs import write_runs
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site


def with_port(run: dict, run_id: str, recorded: dict | None) -> dict:
    changed = copy.deepcopy(run)
    changed["id"] = run_id
    server = changed["server"]
    server["my_cnf_options"]["port"] = "3307"
    server["my_cnf"] = server["my_cnf"].replace("[mysqld]\n", "[mysqld]\nport = 3307\n", 1)
    if recorded is not None:
        server["harness_overrides"] = recorded
    return changed


def test_run_page_names_the_options_the_harness_replaced(tmp_path):
    (source, *_) = sorted((FIXTURE_RUNS / "runs").glob("*.json"))
    original = json.loads(source.read_text())
    used = placement(original["server"]["my_cnf"])["port"]
    recorded = with_port(original, f"{original['id']}.recorded", {"port": "40123"})
    older = with_port(original, f"{original['id']}.older", None)
    write_runs([original, recorded, older], tmp_path / "data")
    public = build_with_article(tmp_path, "No figures here.", [tmp_path / "data"])

    def page(run: dict) -> str:
        text = (public / "runs" / run["id"] / "index.html").read_text()
        return " ".join(unescape(text).split())

    replaced = "The harness replaced an option of the base my.cnf or the variant"
    assert replaced not in page(original)
    html = page(recorded)
    assert replaced in html and "derived from this my.cnf" not in html
    assert (
        "<code>port</code>: set to <code>3307</code>, the server used <code>40123</code>" in html
    )
    html = page(older)
    assert replaced in html and "derived from this my.cnf, since the run predates" in html
    assert f"the server used <code>{used}</code>" in html
