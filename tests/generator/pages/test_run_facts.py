"""The run page's facts (generator/pages/run_facts.py) that need no other module's analysis."""

from __future__ import annotations

import copy

from contract import REDACTED, load_run
from generator.pages.run_facts import redacted_plain_settings
from tests.helpers.paths import FIXTURE_RUNS


def test_plain_settings_recorded_as_redacted_are_named() -> None:
    path = min((FIXTURE_RUNS / "runs").glob("*.json"))
    run, problems = load_run(path)
    assert run is not None, problems
    assert redacted_plain_settings(run) == ["disconnect_on_expired_password", "secure_auth"]
    current = copy.deepcopy(run)
    current["server"]["variables"].update(
        secure_auth="ON", disconnect_on_expired_password="OFF", report_password=REDACTED
    )
    assert redacted_plain_settings(current) == []  # a credential redacted is no plain setting
