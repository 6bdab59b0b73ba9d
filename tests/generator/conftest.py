"""The generator's unit tests read the run documents of tests/fixtures/runs (see its README),
not the committed data/: a newly published result cannot change what they see."""

from __future__ import annotations

import pytest

from generator.hugo.load import RunFile, load_runs
from tests.helpers.paths import FIXTURE_RUNS


@pytest.fixture(scope="session")
def fixture_runs() -> list[RunFile]:
    """The RunFiles of tests/fixtures/runs, sorted by id."""
    return load_runs([FIXTURE_RUNS])
