"""Checks on the GitHub Actions workflows and the CI entry point.

actionlint (pinned in tools/go.mod, run with `go tool`) validates the workflows,
and through shellcheck the shell in their `run:` steps. Missing tools make these
tests fail rather than skip: a lint that quietly stops running looks exactly
like a lint that passes.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers.paths import REPO, TOOLS_DIR
from tests.helpers.tools import GO_TOOL_TIMEOUT_S, required_tool

WORKFLOWS_DIR = REPO / ".github" / "workflows"
CI_RUN = REPO / ".ci" / "run"

# `uses: owner/repo[/path]@<40-hex sha> # vX.Y.Z`
PINNED_USES = re.compile(
    r"^(?P<action>[\w.-]+/[\w.-]+(?:/[\w./-]+)?)@(?P<sha>[0-9a-f]{40})"
    r"\s+#\s+(?P<tag>v\d+\.\d+\.\d+)$"
)
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<ref>.*?)\s*$")
# A step's `run:` always has a value on its own line (`|`, `>` or the command);
# `defaults: run:` has none, its body is a mapping.
RUN_KEY = re.compile(r"^(?P<indent>\s*)(?:-\s+)?run:\s*(?P<inline>\S.*)$")


def workflow_files() -> list[Path]:
    files = sorted([*WORKFLOWS_DIR.glob("*.yml"), *WORKFLOWS_DIR.glob("*.yaml")])
    assert files, f"no workflow files under {WORKFLOWS_DIR}"
    return files


# Where each tool comes from, for the failure message.
def actionlint(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run the actionlint pinned in tools/go.mod; shellcheck must be found."""
    go = required_tool("go")
    shellcheck = required_tool("shellcheck")
    return subprocess.run(
        [go, "tool", "actionlint", "-verbose", "-shellcheck", shellcheck, *map(str, args)],
        cwd=TOOLS_DIR,
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=GO_TOOL_TIMEOUT_S,
        check=False,
    )


def uses_refs(workflow: Path) -> list[str]:
    return [
        match["ref"]
        for line in workflow.read_text(encoding="utf-8").splitlines()
        if (match := USES_LINE.match(line))
    ]


def run_scripts(workflow: Path) -> list[str]:
    """The text of every `run:` value (inline or block scalar) in a workflow."""
    lines = workflow.read_text(encoding="utf-8").splitlines()
    scripts = []
    for number, line in enumerate(lines):
        match = RUN_KEY.match(line)
        if not match:
            continue
        key_indent = len(match["indent"])
        body = [match["inline"]]
        for following in lines[number + 1 :]:
            if following.strip() and len(following) - len(following.lstrip()) <= key_indent:
                break
            body.append(following)
        scripts.append("\n".join(body))
    return scripts


def test_actionlint_finds_nothing() -> None:
    result = actionlint(*workflow_files())

    assert result.returncode == 0, f"actionlint:\n{result.stdout}{result.stderr}"
    # With -verbose, actionlint names every rule it had to switch off.
    assert 'Rule "shellcheck" was disabled' not in result.stderr, result.stderr


def test_actionlint_reports_shellcheck_findings(tmp_path: Path) -> None:
    # Canary: an unquoted expansion (SC2086) must fail the lint; if it does not,
    # the shellcheck integration has silently gone away.
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    canary = workflows / "canary.yml"
    canary.write_text(
        "on: push\n"
        "jobs:\n"
        "  canary:\n"
        "    runs-on: ubuntu-24.04\n"
        "    steps:\n"
        "      - run: echo $GREETING\n",
        encoding="utf-8",
    )

    result = actionlint(canary)

    assert result.returncode == 1, f"actionlint:\n{result.stdout}{result.stderr}"
    assert "SC2086" in result.stdout, result.stdout


def test_every_action_is_pinned_to_a_commit_with_its_tag() -> None:
    sha_by_action: dict[str, set[str]] = {}
    for workflow in workflow_files():
        refs = uses_refs(workflow)
        assert refs, f"{workflow.name} uses no actions"
        for ref in refs:
            match = PINNED_USES.match(ref)
            assert match, (
                f"{workflow.name}: `uses: {ref}` is not pinned as "
                "`owner/repo@<40-hex sha> # vX.Y.Z`"
            )
            sha_by_action.setdefault(match["action"], set()).add(f"{match['sha']} {match['tag']}")

    drift = {action: pins for action, pins in sha_by_action.items() if len(pins) > 1}
    assert not drift, f"one action pinned to several commits: {drift}"


@pytest.mark.parametrize("workflow", workflow_files(), ids=lambda path: path.name)
def test_run_steps_take_expressions_through_env(workflow: Path) -> None:
    # `${{ }}` is pasted into the script before the shell sees it, so any value
    # reaches `run:` through `env:` and is quoted as a shell variable.
    inline = [script for script in run_scripts(workflow) if "${{" in script]

    assert not inline, f"{workflow.name}: expressions inside run: {inline}"


def test_ci_runs_make_test() -> None:
    ci = (WORKFLOWS_DIR / "ci.yml").read_text(encoding="utf-8")

    assert any(
        re.fullmatch(r"make test", script.strip())
        for script in run_scripts(WORKFLOWS_DIR / "ci.yml")
    ), "ci.yml has no `run: make test` step"
    assert "permissions:\n  contents: read\n" in ci


def test_pages_builds_with_make_and_uploads_site_public() -> None:
    pages_yml = WORKFLOWS_DIR / "pages.yml"
    pages = pages_yml.read_text(encoding="utf-8")

    assert any(
        script.strip().startswith("make build BASE_URL=") for script in run_scripts(pages_yml)
    ), "pages.yml does not build with `make build BASE_URL=...`"
    assert "path: site/public\n" in pages
    assert "concurrency:\n  group: pages\n  cancel-in-progress: false\n" in pages


def test_ci_entry_point_runs_make_test() -> None:
    assert CI_RUN.is_file(), f"{CI_RUN} is missing"
    assert os.access(CI_RUN, os.X_OK), f"{CI_RUN} is not executable"
    lines = [
        line.strip()
        for line in CI_RUN.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]

    assert "set -euo pipefail" in lines
    assert lines[-1] == "exec make test"


def test_ci_entry_point_passes_shellcheck() -> None:
    result = subprocess.run(
        [required_tool("shellcheck"), str(CI_RUN)],
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 0, result.stdout + result.stderr
