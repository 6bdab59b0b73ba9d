"""The campaign file's [profile] table: profiling is on at 99 Hz unless the campaign says
otherwise, and a rate a run document could not record is refused before anything runs."""

import json

import pytest

from harness.campaign.load import load_campaign
from harness.errors import UserError
from harness.model.campaign import Profiling
from tests.helpers.campaign_files import HEAD, write
from tests.helpers.paths import REPO

WORKLOAD = """
[sweep]
threads = [1]
step_seconds = 1
[workloads.ps]
test = "oltp_point_select"
"""


def test_profiling_is_on_at_99_hz_by_default(tmp_path):
    assert load_campaign(write(tmp_path, HEAD + WORKLOAD)).profile == Profiling(True, 99)


def test_the_campaign_turns_profiling_off_or_changes_its_rate(tmp_path):
    off = load_campaign(write(tmp_path, HEAD + "[profile]\nenabled = false\n" + WORKLOAD))
    assert off.profile == Profiling(enabled=False, frequency_hz=99)
    slower = load_campaign(write(tmp_path, HEAD + "[profile]\nfrequency_hz = 49\n" + WORKLOAD))
    assert slower.profile == Profiling(enabled=True, frequency_hz=49)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("frequency_hz = 0", "[profile.frequency_hz]: 0 is less than the minimum of 1"),
        ("enabled = 1", "[profile.enabled]: 1 is not of type 'boolean'"),
        ("rate = 99", "[profile]: Additional properties are not allowed ('rate' was unexpected)"),
    ],
)
def test_a_wrong_profile_option_is_refused_naming_it(tmp_path, table, message):
    path = write(tmp_path, HEAD + f"[profile]\n{table}\n" + WORKLOAD)
    with pytest.raises(UserError) as refused:
        load_campaign(path)
    assert str(refused.value) == f"{path}: {message}"


def test_a_campaign_cannot_ask_for_a_rate_a_run_cannot_record():
    campaign = json.loads((REPO / "harness" / "campaign" / "campaign.schema.json").read_text())
    run = json.loads((REPO / "data" / "schema" / "run-v1.schema.json").read_text())
    asked = campaign["properties"]["profile"]["properties"]["frequency_hz"]["maximum"]
    assert asked <= run["$defs"]["profiler"]["properties"]["frequency_hz"]["maximum"]
