"""Campaign files: the shipped ones load; typos and wrong types fail with one line."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from harness.campaign.load import load_campaign, with_host_label
from harness.errors import UserError
from tests.helpers.campaign_files import HEAD, write
from tests.helpers.paths import REPO

CAMPAIGNS = sorted((REPO / "campaigns").glob("*.toml"))

MINIMAL = (
    HEAD
    + """[sweep]
threads = [1, 2]
step_seconds = 2
[workloads.ps]
test = "oltp_point_select"
"""
)


@pytest.mark.parametrize("path", CAMPAIGNS, ids=lambda p: p.name)
def test_shipped_campaigns_load(path):
    try:
        campaign = load_campaign(path)
    except UserError as refused:  # a release this machine has not fetched: says how to
        assert "mybench server fetch" in str(refused) and "release" in str(refused)
        return
    assert campaign.variants and campaign.workloads
    assert all(workload.sweep.threads for workload in campaign.workloads)
    assert "[mysqld]" in campaign.base_mycnf


def test_minimal_campaign_gets_defaults(tmp_path):
    campaign = load_campaign(write(tmp_path, MINIMAL))
    assert campaign.servers[0].basedir == Path("/usr")
    assert campaign.workloads[0].sweep.sleep_seconds == 0
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


@pytest.mark.parametrize("name", ["page", "index"])
def test_a_workload_named_as_a_list_page_is_refused(tmp_path, name):
    path = write(tmp_path, MINIMAL.replace("[workloads.ps]", f"[workloads.{name}]"))
    with pytest.raises(UserError) as caught:
        load_campaign(path)
    assert str(caught.value) == (
        f"{path}: [workloads.{name}]: cannot name a page: {name!r} becomes the path segment "
        f"{name!r}, the name of a list page's own file or folder"
    )


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
    assert campaign.repeats == 3
    assert campaign.servers[0].datadir_root == tmp_path / "nvme"
    assert load_campaign(write(tmp_path, MINIMAL)).repeats == 1


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


def test_mycnf_is_needed_only_by_sandboxes(tmp_path):
    without = MINIMAL.replace('[mycnf]\nbase = "[mysqld]\\n"\n', "")
    assert "[mycnf]" not in without
    with pytest.raises(UserError, match=r"top level: 'mycnf' is a required property"):
        load_campaign(write(tmp_path, without))
    existing = 'kind = "existing"\nhost = "db1"\nuser = "bench"'
    campaign = load_campaign(write(tmp_path, without.replace('kind = "sandbox"', existing)))
    assert campaign.servers[0].kind == "existing" and campaign.base_mycnf == ""
    mixed = without.replace("[variants.a]", f"[servers.db]\n{existing}\n[variants.a]")
    with pytest.raises(UserError, match=r"'mycnf' is a required property"):
        load_campaign(write(tmp_path, mixed))


PRESETS = (
    HEAD
    + """[workloads.micro]
preset = "callaghan"
[workloads.rw]
preset = "dimitri.oltp_rw"
table_size = 1000
"""
)


def test_presets_bring_the_references_sizes_and_sweeps(tmp_path):
    campaign = load_campaign(write(tmp_path, PRESETS))
    labels = [w.label for w in campaign.workloads]
    assert labels[0] == "point-query-pre-r100" and labels[-3:] == [
        "delete-r100", "insert-r100", "oltp-rw"
    ]  # fmt: skip
    micro, rw = campaign.workloads[0], campaign.workloads[-1]
    assert (micro.tables, micro.table_size, micro.sweep.threads) == (1, 50_000_000, [1])
    assert micro.sweep.step_seconds == 630 and campaign.workloads[2].sweep.step_seconds == 930
    assert (rw.tables, rw.table_size, rw.test) == (8, 1000, "oltp_read_write")
    assert rw.sweep.threads == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert (rw.sweep.step_seconds, rw.sweep.sleep_seconds) == (300, 60)
    assert rw.options["skip-trx"] == "off" and rw.suite.group == "write"


def test_sweep_overrides_presets_and_plain_tests_need_it(tmp_path):
    text = PRESETS + "[sweep]\nthreads = [1, 2]\nstep_seconds = 5\n"
    campaign = load_campaign(write(tmp_path, text))
    assert {(w.sweep.step_seconds, tuple(w.sweep.threads)) for w in campaign.workloads} == {
        (5, (1, 2))
    }
    plain = MINIMAL.replace("[sweep]\nthreads = [1, 2]\nstep_seconds = 2\n", "")
    with pytest.raises(UserError, match=r"\[sweep\]: threads and step_seconds are needed"):
        load_campaign(write(tmp_path, plain))


def test_preset_subset_and_unknown_names(tmp_path):
    subset = PRESETS + 'tests = ["oltp-rw"]\n'
    assert [w.label for w in load_campaign(write(tmp_path, subset)).workloads][-1] == "oltp-rw"
    wrong = PRESETS.replace('preset = "callaghan"', 'preset = "callaghan"\ntests = ["nope"]')
    with pytest.raises(UserError, match=r"\[workloads.micro.tests\]: nope is not a test of"):
        load_campaign(write(tmp_path, wrong))
    unknown = PRESETS.replace('"dimitri.oltp_rw"', '"dimitri.oltp_xx"')
    with pytest.raises(UserError, match=r"\[workloads.rw.preset\]: unknown preset"):
        load_campaign(write(tmp_path, unknown))


def test_tpcc_tables_are_table_sets_and_options_are_checked(tmp_path):
    tpcc = MINIMAL.replace('test = "oltp_point_select"', 'test = "tpcc"\ntables = 4')
    with_options = tpcc + 'options = { scale = 2, tpcc_mode = "spec", use_fk = false }\n'
    workload = load_campaign(write(tmp_path, with_options)).workloads[0]
    assert (workload.tpcc.tables, workload.tpcc.scale, workload.tpcc.mode) == (4, 2, "spec")
    assert workload.tpcc.use_fk is False
    bad_mode = tpcc + 'options = { tpcc_mode = "audited" }\n'
    with pytest.raises(UserError, match=r"\[workloads.ps.options\]: tpcc mode must be one of"):
        load_campaign(write(tmp_path, bad_mode))
    unknown = tpcc + "options = { warehouses = 10 }\n"
    with pytest.raises(UserError, match=r"unknown tpcc option\(s\): warehouses"):
        load_campaign(write(tmp_path, unknown))
    with pytest.raises(UserError, match=r"\[workloads.ps.table_size\]: not a tpcc option"):
        load_campaign(write(tmp_path, tpcc + "table_size = 10\n"))


def test_trim_seconds_is_kept_for_the_statistics(tmp_path):
    assert load_campaign(write(tmp_path, MINIMAL)).workloads[0].sweep.trim_seconds is None
    trimmed = MINIMAL.replace("step_seconds = 2\n", "step_seconds = 2\ntrim_seconds = 0\n")
    assert load_campaign(write(tmp_path, trimmed)).workloads[0].sweep.trim_seconds == 0


def test_host_label_is_optional_and_must_name_something(tmp_path):
    assert load_campaign(write(tmp_path, MINIMAL)).host_label is None
    labelled = MINIMAL + '[host]\nlabel = "rack 3 box (2)"\n'
    assert load_campaign(write(tmp_path, labelled)).host_label == "rack 3 box (2)"
    for label in ("   ", " rack 3", "../runs", "a/b"):  # blank, padded, path characters
        path = write(tmp_path, MINIMAL + f'[host]\nlabel = "{label}"\n')
        with pytest.raises(
            UserError, match=rf"\[host.label\]: '{re.escape(label)}' does not"
        ) as caught:
            load_campaign(path)
        assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)


def test_host_label_given_on_the_command_line_replaces_the_files(tmp_path):
    labelled = load_campaign(write(tmp_path, MINIMAL + '[host]\nlabel = "from the file"\n'))
    assert with_host_label(labelled, "bench-2s").host_label == "bench-2s"
    with pytest.raises(UserError, match=r"^--host-label: '\.\./runs' does not match"):
        with_host_label(labelled, "../runs")


def test_run_refuses_a_bad_host_label_before_anything_starts(tmp_path):
    campaign = write(tmp_path, MINIMAL)
    args = ["run", str(campaign), "--data", str(tmp_path / "data"), "--host-label", "a/b"]
    result = CliRunner().invoke(main, [*args, "--workdir", str(tmp_path / "work")])
    assert result.exit_code == 2
    assert "error: --host-label: 'a/b' does not match" in result.output
    assert not (tmp_path / "data").exists() and not (tmp_path / "work").exists()
