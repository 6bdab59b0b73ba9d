"""What a draft's tl;dr says beside the coloured cells: a column whose ratios beyond ±5 % read
"within noise" only because two passes a side make the interval wide is named as too thin to
judge, not as alike."""

from __future__ import annotations

import pytest

from generator.drafts.differences import few_passes, findings, quiet
from generator.pages.campaign import summarize_campaign
from tests.helpers.fit_runs import fit
from tests.helpers.repeated_runs import as_repeat, two_variants


def _campaign(fixture_runs: list, scales: tuple[tuple[float, ...], tuple[float, ...]]):
    base, other = map(fit, two_variants([run_file.doc for run_file in fixture_runs]))
    passes = [
        as_repeat(run, index + 1, len(scaled), scale)
        for run, scaled in ((base, scales[0]), (other, scales[1]))
        for index, scale in enumerate(scaled)
    ]
    return summarize_campaign(passes)


@pytest.mark.parametrize(
    ("scales", "thin"),
    [
        (((1.0, 1.3), (1.5, 3.0)), True),  # far beyond the band, on two passes a side: too wide
        (((1.0, 1.02, 0.98), (1.0, 1.01, 0.99)), False),  # three passes, no difference
    ],
)
def test_a_wide_interval_from_two_passes_is_said_to_be_too_thin(fixture_runs, scales, thin):
    summary = _campaign(fixture_runs, scales)
    assert few_passes(summary) is thin
    if thin:
        assert not findings(summary) and quiet(summary, [])  # nothing coloured, yet not alike
