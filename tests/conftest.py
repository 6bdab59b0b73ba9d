"""Shared fixtures. Site fixtures (generator/site/browser tests) first; others append below."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA_DIR = REPO / "data"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory):
    """The site built once per session from the repo's committed data/: (report, public dir)."""
    import generator

    root = tmp_path_factory.mktemp("site")
    report = generator.build_site([DATA_DIR], root / "build", root / "public", base_url="/")
    return report, root / "public"


@pytest.fixture(scope="session")
def committed_runs() -> list:
    """The RunFiles of data/runs; the generator tests need real results to be committed."""
    from generator._load import load_runs

    run_files = load_runs([DATA_DIR])
    assert run_files, f"no run documents in {DATA_DIR / 'runs'}"
    return run_files
