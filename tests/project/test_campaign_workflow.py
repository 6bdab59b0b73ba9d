"""The Campaign workflow (.github/workflows/campaign.yml) against the project it drives: its
matrix, runner labels and artifacts fit together, and every `mybench` and `make` command it
calls exists with the arguments it passes. actionlint checks its syntax (test_workflows.py);
this checks what actionlint cannot know. No runner is involved: the fleet itself is simulated
in tests/site/test_fleet.py."""

from __future__ import annotations

import fnmatch
import re
import shlex
import subprocess
from pathlib import Path

import click
import pytest
import yaml

from cli.main import main
from harness.run.document import fleet_campaign_id
from tests.helpers.paths import REPO
from tests.project.test_workflows import WORKFLOWS_DIR, run_scripts

CAMPAIGN_YML = WORKFLOWS_DIR / "campaign.yml"
MATRIX_HOST = "${{ matrix.host }}"
SAMPLE_HOST = "bench-2s"  # a runner label as a maintainer would give it
SAMPLE_STAMP = "20261126-120000"  # what the plan job's output holds
# `${{ ... }}` with the expression given; `$NAME` / `"$NAME"` in a script.
EXPRESSION = re.compile(r"\$\{\{\s*(?P<expression>.*?)\s*\}\}")
SHELL_VARIABLE = re.compile(r"^\$(?P<name>[A-Z_]+)$")


@pytest.fixture(scope="module")
def workflow() -> dict:
    loaded = yaml.safe_load(CAMPAIGN_YML.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as the boolean true.
    loaded["on"] = loaded.pop(True)
    return loaded


def steps_using(job: dict, action: str) -> list[dict]:
    return [step for step in job["steps"] if step.get("uses", "").startswith(f"{action}@")]


def script_lines(job: dict) -> list[str]:
    """Each command of the job's run: steps, continuation lines joined."""
    lines = []
    for step in job["steps"]:
        if "run" in step:
            lines += step["run"].replace("\\\n", " ").splitlines()
    return [line.strip() for line in lines if line.strip()]


def argv(line: str, env: dict[str, str]) -> list[str]:
    """The command line as the shell would split it, with the job's variables put in."""
    words = shlex.split(line)
    return [
        env[match["name"]] if (match := SHELL_VARIABLE.match(word)) else word for word in words
    ]


def job_env(job: dict, *, host: str) -> dict[str, str]:
    """The job's env: with this host for matrix.host and a sample for the other expressions."""
    samples = {
        "matrix.host": host,
        "inputs.campaign": "campaigns/demo.toml",
        "needs.plan.outputs.campaign": "campaigns/demo.toml",
        "needs.plan.outputs.fleet": SAMPLE_STAMP,
    }
    return {
        name: EXPRESSION.sub(lambda m: samples.get(m["expression"], m["expression"]), value)
        for name, value in job["env"].items()
    }


def parsed_mybench(words: list[str]) -> tuple[click.Command, dict]:
    """The mybench subcommand words name and the parameters click parsed from them: an
    unknown command, option or missing argument raises click's UsageError."""
    command: click.Command = main
    args = words[1:]
    while isinstance(command, click.Group):
        name, args = args[0], args[1:]
        found = command.get_command(click.Context(command), name)
        assert found is not None, f"mybench has no command {name!r} ({shlex.join(words)})"
        command = found
    context = command.make_context(command.name or "", list(args))
    return command, context.params


def mybench_calls(job: dict, env: dict[str, str]) -> list[tuple[click.Command, dict]]:
    """Each mybench command of the job, parsed (its output redirection aside)."""
    return [
        parsed_mybench(["mybench", *argv(line.split(" > ", 1)[0], env)[1:]])
        for line in script_lines(job)
        if line.startswith(".venv/bin/mybench ")
    ]


def make_targets() -> set[str]:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.MULTILINE))


def test_the_dispatch_asks_for_a_campaign_file_and_a_json_list_of_hosts_or_the_nightly(workflow):
    assert set(workflow["on"]) == {"workflow_dispatch", "schedule"}
    inputs = workflow["on"]["workflow_dispatch"]["inputs"]
    assert set(inputs) == {"campaign", "hosts", "nightly"}
    assert (REPO / inputs["campaign"]["default"]).is_file()
    assert isinstance(yaml.safe_load(inputs["hosts"]["default"]), list)
    assert inputs["nightly"] == {**inputs["nightly"], "type": "boolean", "default": False}
    [nightly] = workflow["on"]["schedule"]
    assert len(nightly["cron"].split()) == 5
    # a scheduled run without a nightly campaign configured does nothing
    assert workflow["jobs"]["plan"]["if"] == (
        "github.event_name != 'schedule' || vars.NIGHTLY_CAMPAIGN != ''"
    )


def _plan_outputs(step: dict, tmp_path: Path, **env: str) -> dict[str, str]:
    output = tmp_path / "github_output"
    output.unlink(missing_ok=True)
    done = subprocess.run(
        ["bash", "-c", step["run"]],
        env={"GITHUB_OUTPUT": str(output), **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=10,
    )
    assert done.returncode == 0, done.stdout
    return dict(line.partition("=")[::2] for line in output.read_text().splitlines())


def test_plan_gives_every_host_one_stamp_and_the_campaign_and_hosts(workflow, tmp_path):
    plan = workflow["jobs"]["plan"]
    assert "self-hosted" not in plan["runs-on"]
    (step,) = plan["steps"]
    assert plan["outputs"] == {
        name: f"${{{{ steps.{step['id']}.outputs.{name} }}}}"
        for name in ("fleet", "campaign", "hosts")
    }
    given = {"CAMPAIGN": "campaigns/demo.toml", "HOSTS": '["bench-1"]'}
    nightly = {"NIGHTLY_CAMPAIGN": "campaigns/nightly.toml", "NIGHTLY_HOSTS": '["bench-2"]'}
    outputs = _plan_outputs(step, tmp_path, NIGHTLY="false", **given, **nightly)
    assert fleet_campaign_id("demo", outputs["fleet"]) == f"demo-{outputs['fleet']}"
    assert (outputs["campaign"], outputs["hosts"]) == (given["CAMPAIGN"], given["HOSTS"])
    outputs = _plan_outputs(step, tmp_path, NIGHTLY="true", **given, **nightly)
    assert (outputs["campaign"], outputs["hosts"]) == ("campaigns/nightly.toml", '["bench-2"]')
    refused = subprocess.run(
        ["bash", "-c", step["run"]],
        env={"GITHUB_OUTPUT": str(tmp_path / "refused"), "NIGHTLY": "true", **given},
        capture_output=True,
        text=True,
        check=False,
        timeout=10,
    )
    assert refused.returncode == 1 and "NIGHTLY_CAMPAIGN and NIGHTLY_HOSTS" in refused.stdout


def test_one_run_job_per_host_on_that_hosts_runner_alone(workflow):
    run = workflow["jobs"]["run"]
    assert run["needs"] == "plan"
    assert run["strategy"]["matrix"] == {"host": "${{ fromJSON(needs.plan.outputs.hosts) }}"}
    assert run["strategy"]["fail-fast"] is False
    assert run["runs-on"] == ["self-hosted", MATRIX_HOST]
    assert run["concurrency"] == {
        "group": f"benchmark-host-{MATRIX_HOST}",
        "cancel-in-progress": False,
    }


def test_each_host_runs_validates_and_uploads_its_runs_under_its_label(workflow):
    run = workflow["jobs"]["run"]
    env = job_env(run, host=SAMPLE_HOST)
    assert script_lines(run)[0] == "make system-packages venv"

    (mybench_run, run_params), (validate, validate_params) = mybench_calls(run, env)
    assert (mybench_run.name, validate.name) == ("run", "validate")
    assert run_params["campaign_file"] == Path("campaigns/demo.toml")
    assert run_params["host_label"] == SAMPLE_HOST
    assert run_params["fleet_stamp"] == SAMPLE_STAMP
    results = run_params["data_dir"]
    assert validate_params["data_dir"] == results
    assert results.parts[0] == ".scratch"  # ignored by git: the run records a clean checkout

    (upload,) = steps_using(run, "actions/upload-artifact")
    assert upload["with"]["name"] == f"runs-{MATRIX_HOST}"
    assert Path(EXPRESSION.sub(lambda m: env[m["expression"][4:]], upload["with"]["path"])) == (
        results
    )
    assert upload["with"]["if-no-files-found"] == "error"


def test_collect_merges_every_hosts_artifact_builds_and_opens_a_pull_request(workflow):
    run, collect = workflow["jobs"]["run"], workflow["jobs"]["collect"]
    assert collect["needs"] == ["plan", "run"]
    assert "self-hosted" not in collect["runs-on"]  # merging needs no benchmark host
    env = job_env(collect, host=SAMPLE_HOST)

    (download,) = steps_using(collect, "actions/download-artifact")
    uploaded_name = steps_using(run, "actions/upload-artifact")[0]["with"]["name"]
    for host in (SAMPLE_HOST, "bench-1s"):
        assert fnmatch.fnmatch(
            uploaded_name.replace(MATRIX_HOST, host), download["with"]["pattern"]
        )
    assert "merge-multiple" not in download["with"]  # a folder per host, as its runner wrote it
    artifacts = Path(download["with"]["path"].replace("${{ env.ARTIFACTS }}", env["ARTIFACTS"]))

    calls = mybench_calls(collect, env)
    (imported, import_params), (validate, validate_params), (history, history_params) = calls
    assert (imported.name, validate.name, history.name) == ("runs", "validate", "history")
    assert import_params == {"directories": (artifacts,), "data_dir": Path("data")}
    assert validate_params == {"data_dir": Path("data")}
    # the change points of the runs just imported, in every campaign they belong to
    assert history_params == {
        "campaign": None,
        "data_dirs": (Path("data"),),
        "new_dirs": (artifacts,),
    }

    lines = script_lines(collect)
    assert lines.index("make build") > lines.index(".venv/bin/mybench validate data")
    [listed] = [line for line in lines if line.startswith(".venv/bin/mybench history")]
    assert listed.endswith('> "$RUNNER_TEMP/changes.txt"')
    assert 'cat "$RUNNER_TEMP/changes.txt"' in lines
    assert "git add data" in lines
    (pull_request,) = [line for line in lines if line.startswith("gh pr create ")]
    assert '--head "$BRANCH"' in pull_request
    assert '--body-file "$RUNNER_TEMP/body.md"' in pull_request
    assert lines.index('git push origin "$BRANCH"') < lines.index(pull_request)


def test_every_make_target_called_exists():
    called = {
        target
        for script in run_scripts(CAMPAIGN_YML)
        for line in script.splitlines()
        if (words := line.split()) and words[0] == "make"
        for target in words[1:]
        if "=" not in target
    }
    assert called == {"system-packages", "venv", "build"}
    assert called <= make_targets()


def test_permissions_are_read_only_but_for_the_pull_request(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    assert "permissions" not in workflow["jobs"]["run"]
    assert workflow["jobs"]["collect"]["permissions"] == {
        "contents": "write",
        "pull-requests": "write",
    }
    for job in workflow["jobs"].values():
        for checkout in steps_using(job, "actions/checkout"):
            assert checkout["with"]["persist-credentials"] is False
