"""The benchmark scripts keep working as the code under them changes.

They run by hand, not in the suite (they print figures and take minutes), so nothing else would
notice when one stops importing, or when the synthetic runs the build benchmarks measure stop
being documents the site accepts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import contract
from tests.helpers.paths import REPO

BENCH = REPO / "bench"
SCRIPTS = sorted(
    path for path in BENCH.glob("*.py") if '__name__ == "__main__"' in path.read_text()
)
IMPORT_TIMEOUT_S = 120


def _import_problem(name: str) -> str:
    """Import one script as it runs (bench/ first on the path); '' or what went wrong."""
    check = (
        f"import sys; sys.path.insert(0, {str(BENCH)!r}); import {name}; "
        f"assert callable({name}.main), 'no main()'"
    )
    done = subprocess.run(
        [sys.executable, "-c", check],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=IMPORT_TIMEOUT_S,
    )
    return "" if done.returncode == 0 else done.stderr.strip().splitlines()[-1]


def test_every_bench_script_imports_and_has_a_main():
    assert SCRIPTS, "no bench script found"
    with ThreadPoolExecutor() as pool:
        problems = pool.map(_import_problem, [path.stem for path in SCRIPTS])
        found = dict(zip((path.name for path in SCRIPTS), problems, strict=True))
    assert not {name: problem for name, problem in found.items() if problem}


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def build_scaling(monkeypatch_module):
    monkeypatch_module.syspath_prepend(str(BENCH))
    import build_scaling

    return build_scaling


def test_the_synthetic_archive_is_made_of_valid_run_documents(build_scaling):
    template = json.loads(build_scaling.DEFAULT_TEMPLATE.read_text())
    campaign_size = build_scaling.CAMPAIGN_VARIANTS * build_scaling.CAMPAIGN_WORKLOADS
    runs = build_scaling.synthetic_runs(template, campaign_size + 1)
    assert len({run["id"] for run in runs}) == len(runs)
    assert len({run["campaign"]["id"] for run in runs}) == 2
    problems = [problem for run in runs for problem in contract.validate_document(run, run["id"])]
    assert not problems
