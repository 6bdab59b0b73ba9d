"""Campaign files: the shipped ones load; typos and wrong types fail with one line."""

from pathlib import Path

import pytest

from harness.campaign import load_campaign
from harness.errors import UserError

CAMPAIGNS = sorted((Path(__file__).parents[1] / "campaigns").glob("*.toml"))

MINIMAL = """
name = "t"
title = "T"
[servers.s]
kind = "sandbox"
[mycnf]
base = "[mysqld]\\n"
[variants.a]
[sweep]
threads = [1, 2]
step_seconds = 2
[workloads.ps]
test = "oltp_point_select"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "campaign.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.name)
def test_shipped_campaigns_load(path):
    campaign = load_campaign(path)
    assert campaign.variants and campaign.workloads and campaign.sweep.threads
    assert "[mysqld]" in campaign.base_mycnf


def test_minimal_campaign_gets_defaults(tmp_path):
    campaign = load_campaign(write(tmp_path, MINIMAL))
    assert campaign.servers[0].basedir == Path("/usr")
    assert campaign.sweep.sleep_seconds == 0
    assert campaign.workloads[0].tables == 8


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("threads = [1, 2]", "thread = [1, 2]"), r"\[sweep\]: .*'thread' was unexpected"),
        (
            ("step_seconds = 2", 'step_seconds = "2"'),
            r"\[sweep.step_seconds\]: '2' is not of type",
        ),
        (('test = "oltp_point_select"', 'test = "oltp_pointselect"'), r"\[workloads.ps.test\]"),
        (("[variants.a]", "[variants.A]"), r"\[variants\]: 'A' does not match"),
    ],
)
def test_bad_campaign_names_file_and_key(tmp_path, change, expected):
    path = write(tmp_path, MINIMAL.replace(*change))
    with pytest.raises(UserError, match=expected) as caught:
        load_campaign(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and "\n" not in message


def test_not_toml(tmp_path):
    with pytest.raises(UserError, match="not valid TOML"):
        load_campaign(write(tmp_path, "name = ["))


def test_missing_file(tmp_path):
    with pytest.raises(UserError, match="campaign file not found"):
        load_campaign(tmp_path / "nope.toml")


def test_harness_owned_sysbench_option_is_refused(tmp_path):
    text = MINIMAL + "options = { rand_type = 'special' }\n"
    with pytest.raises(
        UserError, match=r"\[workloads.ps.options\]: rand-type is set by the harness"
    ):
        load_campaign(write(tmp_path, text))


def test_unreadable_base_file(tmp_path):
    text = MINIMAL.replace('base = "[mysqld]\\n"', 'base_file = "missing.cnf"')
    with pytest.raises(UserError, match=r"\[mycnf.base_file\]: cannot read"):
        load_campaign(write(tmp_path, text))


def test_buffer_pool_is_the_variant_innodb_buffer_pool_size(tmp_path):
    text = MINIMAL.replace("[variants.a]", '[variants.a]\nbuffer_pool = "32M"')
    campaign = load_campaign(write(tmp_path, text))
    assert campaign.variants[0].options == {"innodb_buffer_pool_size": "32M"}
    both = text.replace(
        'buffer_pool = "32M"', 'buffer_pool = "32M"\noptions = { innodb-buffer-pool-size = "1G" }'
    )
    with pytest.raises(UserError, match=r"\[variants.a\]: buffer_pool and .* both set"):
        load_campaign(write(tmp_path, both))


def test_repeats_and_datadir_location(tmp_path):
    text = MINIMAL.replace("step_seconds = 2", "step_seconds = 2\nrepeats = 3")
    text = text.replace('kind = "sandbox"', 'kind = "sandbox"\ndatadir = "nvme"')
    campaign = load_campaign(write(tmp_path, text))
    assert campaign.sweep.repeats == 3
    assert campaign.servers[0].datadir_root == tmp_path / "nvme"
    assert load_campaign(write(tmp_path, MINIMAL)).sweep.repeats == 1


@pytest.mark.parametrize(
    ("server", "expected"),
    [
        ('kind = "existing"\nhost = "db1"', r"'user' is a required property"),
        ('kind = "existing"\nuser = "bench"', r"is not valid under any of the given schemas"),
        ('kind = "existing"\nhost = "db1"\nuser = "b"\nbasedir = "/usr"', r"should not be valid"),
        ('kind = "sandbox"\nhost = "db1"', r"should not be valid"),
    ],
)
def test_server_keys_belong_to_their_kind(tmp_path, server, expected):
    path = write(tmp_path, MINIMAL.replace('kind = "sandbox"', server))
    with pytest.raises(UserError, match=expected):
        load_campaign(path)
