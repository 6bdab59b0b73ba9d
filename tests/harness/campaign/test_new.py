"""`mybench campaign new`: every preset writes a campaign file that loads as `mybench run` loads
it, with the servers and variants given; a file that would not load is never left behind."""

from __future__ import annotations

import tomllib

import pytest
from click.testing import CliRunner

import contract
from cli.main import main
from harness.campaign.load import load_campaign
from harness.campaign.new import PRESETS, Overrides, parse_variant, write_campaign
from harness.errors import UserError
from tests.helpers.cli_runs import run_cli
from tests.helpers.paths import CAMPAIGNS_DIR

SMALL_VM = CAMPAIGNS_DIR / "mycnf" / "small-vm.cnf"
SERVERS = ["mariadb-10-11=/usr", "mariadb-11-4=../.servers/mariadb-11.4.5"]
BINLOG = "binlog:log_bin=binlog,sync_binlog=1,server_id=1,skip_log_bin=false"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_loads_with_two_servers_and_a_variant(tmp_path, preset):
    out = write_campaign(tmp_path / "c" / "new.toml", SMALL_VM, "new", preset, SERVERS, [BINLOG])
    campaign = load_campaign(out)
    assert [server.label for server in campaign.servers] == ["mariadb-10-11", "mariadb-11-4"]
    labels = [variant.label for variant in campaign.variants]
    expected = ["base", "base-again", "binlog"] if preset == "aa" else ["base", "binlog"]
    assert labels == expected
    binlog = campaign.variants[-1].options
    assert binlog == {"log_bin": "binlog", "sync_binlog": 1, "server_id": 1, "skip_log_bin": False}
    assert "sync_binlog = 1" in campaign.variants[-1].description
    assert campaign.base_mycnf == SMALL_VM.read_text()
    text = out.read_text()
    assert text.startswith("# ") and f"--preset {preset}" in text


def test_presets_bring_what_their_reference_runs(tmp_path):
    def loaded(preset: str) -> object:
        out = tmp_path / f"{preset}.toml"
        return load_campaign(write_campaign(out, SMALL_VM, preset, preset, SERVERS[:1], [BINLOG]))

    dimitri = loaded("dimitri")
    assert [w.label for w in dimitri.workloads] == [
        "point-selects", "oltp-ro", "oltp-rw", "update-nokey"
    ]  # fmt: skip
    assert dimitri.repeats == 3 and dimitri.workloads[0].sweep.threads == [1, 2, 4, 8, 16, 32]
    callaghan = loaded("callaghan")
    assert len(callaghan.workloads) > 30 and all(w.suite for w in callaghan.workloads)
    tpcc = loaded("tpcc")
    assert all(w.tpcc for w in tpcc.workloads) and len(tpcc.workloads) == 2
    assert all(w.ibench for w in loaded("ibench").workloads)


def test_overrides_make_a_quick_try(tmp_path):
    quick = Overrides(threads=[1, 2], step_seconds=2, repeats=1, table_size=2000, warmup_seconds=0)
    out = write_campaign(tmp_path / "q.toml", SMALL_VM, "q", "aa", SERVERS[:1], [], None, quick)
    campaign = load_campaign(out)
    assert campaign.repeats == 1
    for workload in campaign.workloads:
        assert (workload.sweep.threads, workload.sweep.step_seconds) == ([1, 2], 2)
        assert workload.sweep.warmup_seconds == 0
        assert workload.table_size == 2000


def test_variant_label_defaults_to_its_options():
    assert parse_variant("sync_binlog=1").label == "sync_binlog-1"
    assert parse_variant("innodb_flush_method=O_DIRECT").options == {
        "innodb_flush_method": "O_DIRECT"
    }
    with pytest.raises(UserError, match="NAME=VALUE"):
        parse_variant("sync_binlog")


def test_config_study_needs_a_variant_and_nothing_is_written(tmp_path):
    with pytest.raises(UserError, match="at least one --variant"):
        write_campaign(tmp_path / "c.toml", SMALL_VM, "c", "config", SERVERS[:1], [])
    assert not (tmp_path / "c.toml").exists()


def test_a_file_that_does_not_load_is_removed(tmp_path):
    with pytest.raises(UserError, match="Bad Name"):
        write_campaign(tmp_path / "c.toml", SMALL_VM, "Bad Name", "aa", SERVERS[:1], [])
    assert not (tmp_path / "c.toml").exists()


def test_never_overwrites(tmp_path):
    out = write_campaign(tmp_path / "c.toml", SMALL_VM, "c", "aa", SERVERS[:1], [])
    before = out.read_text()
    with pytest.raises(UserError, match="exists"):
        write_campaign(out, SMALL_VM, "c", "dimitri", SERVERS[:1], [])
    assert out.read_text() == before


def test_cli_help_lists_every_preset_and_writes_a_valid_file(tmp_path):
    result = CliRunner().invoke(main, ["campaign", "new", "--help"])
    assert result.exit_code == 0
    for name, preset in PRESETS.items():
        assert f"  {name} " in result.output
        assert preset.brings.split()[0] in result.output
    out = tmp_path / "cli.toml"
    args = ["campaign", "new", "cli", "--preset", "config", "--server", SERVERS[0],
            "--variant", "sync_binlog=1", "--out", str(out), "--title", "A \"quoted\" title"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert tomllib.loads(out.read_text())["title"] == 'A "quoted" title'
    assert load_campaign(out).variants[1].label == "sync_binlog-1"


@pytest.mark.server
def test_a_new_campaign_runs_against_a_sandbox(tmp_path):
    """The A/A preset, made tiny by the overrides, as `mybench run` runs it: every planned run
    complete and valid."""
    tiny_cnf = tmp_path / "tiny.cnf"
    tiny_cnf.write_text(
        "[mysqld]\ninnodb_buffer_pool_size = 64M\ninnodb_log_file_size = 48M\nskip_log_bin\n"
    )
    campaign = tmp_path / "campaigns" / "tiny-aa.toml"
    args = ["campaign", "new", "tiny-aa", "--preset", "aa", "--server", "debian=/usr",
            "--mycnf", str(tiny_cnf), "--out", str(campaign), "--threads", "1",
            "--step-seconds", "2", "--warmup-seconds", "1", "--repeats", "1",
            "--table-size", "2000"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output

    ran = run_cli(tmp_path, campaign)
    assert ran.returncode == 0, ran.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    cells = sorted((run["variant"], run["workload"]["name"]) for run in runs)
    assert cells == [
        ("base", "point-select"), ("base", "update-nokey"),
        ("base-again", "point-select"), ("base-again", "update-nokey"),
    ]  # fmt: skip
    for run in runs:
        assert run["status"] == "complete"
        assert run["workload"]["rows_after_prepare"] == 4 * 2000
        assert [step["threads"] for step in run["steps"]] == [1]
        assert run["steps"][0]["tps"] > 0


def test_the_guide_documents_every_preset():
    guide = (CAMPAIGNS_DIR.parent / "content" / "guide" / "campaigns.md").read_text()
    assert "## Start from a preset: `mybench campaign new`" in guide
    for name in PRESETS:
        assert f"| `{name}` |" in guide, f"the guide's preset table lacks {name}"


def test_tests_chosen_replace_the_presets_workloads(tmp_path):
    chosen = Overrides(tests=("oltp_update_index", "oltp_insert"))
    out = write_campaign(tmp_path / "t.toml", SMALL_VM, "t", "config", SERVERS[:1], [BINLOG],
                         None, chosen)  # fmt: skip
    workloads = load_campaign(out).workloads
    assert [(w.label, w.test) for w in workloads] == [
        ("update-index", "oltp_update_index"), ("insert", "oltp_insert")
    ]  # fmt: skip
    assert {(w.tables, w.table_size) for w in workloads} == {(4, 100_000)}  # the preset's tables
    with pytest.raises(UserError, match=r"preset 'tpcc' runs workloads of its own.*dimitri"):
        write_campaign(tmp_path / "p.toml", SMALL_VM, "p", "tpcc", SERVERS[:1], [], None, chosen)
    assert not (tmp_path / "p.toml").exists()


def test_text_is_written_as_utf8_toml(tmp_path):
    title = "Flushing \u2014 2 against 1, caf\u00e9 \x7f"
    out = write_campaign(tmp_path / "u.toml", SMALL_VM, "u", "aa", SERVERS[:1], [], title)
    raw = out.read_bytes().decode("utf-8")
    assert "Flushing \u2014 2 against 1, caf\u00e9 \\u007f" in raw
    assert tomllib.loads(raw)["title"] == title


def test_the_cli_prints_the_length_the_repeats_and_the_next_steps(tmp_path):
    out = tmp_path / "next.toml"
    args = ["campaign", "new", "next", "--preset", "config", "--server", SERVERS[0],
            "--variant", "sync_binlog=1", "--out", str(out), "--repeats", "2",
            "--test", "oltp_update_index", "--threads", "1,2,4"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    # 2 passes x 2 variants x (10 s warm-up + 3 levels x (120 s + 2 s pause)) = 25 min
    assert "measured steps: about 25 min (2 passes of 2 server variants" in result.output
    assert "2 passes: a ratio's interval comes from 2 runs a side" in result.output
    assert "commit it (git add" in result.output and f"mybench run {out}" in result.output
    bad = CliRunner().invoke(main, [*args[:-4], "--test", "oltp_nope"])
    assert bad.exit_code == 2 and "oltp_nope" in bad.output


def test_the_opening_comment_counts_the_passes_the_file_runs(tmp_path):
    once = write_campaign(tmp_path / "1.toml", SMALL_VM, "o", "aa", SERVERS[:1], [], None,
                          Overrides(repeats=1))  # fmt: skip
    assert "; one pass." in once.read_text().split("\nname =")[0]
    for preset in PRESETS:
        text = write_campaign(tmp_path / f"{preset}.toml", SMALL_VM, preset, preset, SERVERS[:1],
                              [BINLOG]).read_text()  # fmt: skip
        assert "three interleaved passes" in text.split("\nname =")[0], preset
