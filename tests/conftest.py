"""Shared fixtures. Site fixtures (generator/site/browser tests) first; others append below."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA_DIR = REPO / "data"


@pytest.fixture(scope="session", autouse=True)
def ctrl_c_reaches_the_code_under_test():
    """A shell starts background jobs with SIGINT ignored, and an ignored signal stays ignored
    across exec: `make test &` would fail every Ctrl-C test. A Python handler is reset to the
    default in each child at exec, so the harness processes under test get Ctrl-C again."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def own_cache_home(tmp_path_factory: pytest.TempPathFactory):
    """The harness caches what it measures of a host (the storage's fio figures) under
    $XDG_CACHE_HOME: the tests' campaigns share one cache of their own, measured once per
    session, and never read or write the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache-home")))
        yield


@pytest.fixture(scope="session")
def committed_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generator's cache of the committed data/, derived once per session: every build of
    data/ (alone or with more runs) is seeded with it (tests/helpers/site_build.seed_cache) and
    derives only what it lacks."""
    from generator.hugo import site_contract as site
    from generator.hugo.build import generate

    build = tmp_path_factory.mktemp("committed-cache") / "build"
    generate([DATA_DIR], build)
    return build / site.CACHE_DIR


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, committed_cache: Path):
    """The site built once per session from the repo's committed data/, every article required
    as `make build` requires it: (report, public dir)."""
    import generator
    from tests.helpers.site_build import seed_cache

    root = tmp_path_factory.mktemp("site")
    seed_cache(root / "build", committed_cache)
    report = generator.build_site(
        [DATA_DIR], root / "build", root / "public", base_url="/", require_articles=True
    )
    return report, root / "public"


# Where a GitHub Pages project site lives: every link must stay under its sub-path.
SUBPATH_BASE_URL = "https://user.github.io/repo/"


@pytest.fixture(scope="session")
def subpath_site(tmp_path_factory: pytest.TempPathFactory, committed_cache: Path) -> Path:
    """public/ of the committed data/ built at SUBPATH_BASE_URL, once per session (the only
    build with feeds: a build without a host in its base URL has none)."""
    import generator
    from tests.helpers.site_build import seed_cache

    root = tmp_path_factory.mktemp("subpath-site")
    seed_cache(root / "build", committed_cache)
    generator.build_site(
        [DATA_DIR], root / "build", root / "public", SUBPATH_BASE_URL, require_articles=True
    )
    return root / "public"


@pytest.fixture(scope="session")
def long_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """public/ of the runs at the schema's size limits (tests/helpers/long_runs.py), built once
    for the site and browser tests of size limits: read it, never change it."""
    from tests.helpers.long_runs import long_data
    from tests.helpers.site_build import build_with_article

    root = tmp_path_factory.mktemp("long-runs")
    return build_with_article(root, "A probe.", [long_data(root)])


@pytest.fixture(scope="session")
def committed_runs() -> list:
    """The RunFiles of data/runs, for tests about the committed data (the generator's unit tests use tests/fixtures/runs)."""
    from generator.hugo.load import load_runs

    run_files = load_runs([DATA_DIR])
    assert run_files, f"no run documents in {DATA_DIR / 'runs'}"
    return run_files
