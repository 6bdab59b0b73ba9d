"""A build from a data dir that holds only some runs (real Hugo): the articles that need a
campaign or run it lacks are left out, named one line each, and no page, list, term page or feed
of the built site knows them, their page bundle's files included; an article whose runs are
all there is built. With --require-articles each one is an error naming it and the id it lacks,
and nothing is published. `mybench build` and `mybench serve` do the same on the committed
articles."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

import generator
from cli.main import main
from generator import articles
from generator.hugo.left_out import article_pages
from tests.helpers.paths import FIXTURE_RUNS, REPO
from tests.helpers.site_build import content_with_posts

pytestmark = pytest.mark.site

CAMPAIGN = "binlog-sync-policies-20261123-133014"
RUNS = [f"{CAMPAIGN}.binlog-off.oltp-rw.p1", f"{CAMPAIGN}.sync-1.oltp-rw.p1"]
BASE_URL = "https://user.github.io/repo/"  # a host: the feeds are built too
GONE_CAMPAIGN, GONE_RUN = "gone-20260101-000000", "gone-20260101-000000.base.oltp-rw.p1"

KEPT = f"""---
title: Kept
date: 2026-01-03
campaign: {CAMPAIGN}
workloads: [oltp-rw]
---
Server {{{{< fact run="{RUNS[0]}" key="server.version" >}}}}.
{{{{< chart campaign="{CAMPAIGN}" workload="oltp-rw" fig="tps" >}}}}
{{{{< compare runs="{RUNS[0]},{RUNS[1]}" >}}}}
{{{{< trust >}}}}
[The disclosure](/campaigns/{CAMPAIGN}/#disclosure), [a run](/runs/{RUNS[1]}/).
The guide writes {{{{</* value campaign="{GONE_CAMPAIGN}" */>}}}} as an example.
"""
# Each left out for one kind of reference to what the data lacks.
LEFT_OUT = {
    # front matter and a shortcode's list of campaigns; a bundle with a resource, own terms
    "needs-campaign/index.md": f"""---
title: Needs a campaign
date: 2026-01-02
campaign: {GONE_CAMPAIGN}
workloads: [left-out-workload]
hosts: [left-out-host]
---
{{{{< trust campaign="{CAMPAIGN},gone-too-20260101-000000" >}}}}
""",
    # a run reached only by a Markdown link
    "needs-run/index.md": f"""---
title: Needs a run
date: 2026-01-02
---
Server {{{{< fact run="{RUNS[0]}" key="server.version" >}}}}; [that run](/runs/{GONE_RUN}/).
""",
    # a page file, not a bundle
    "needs-runs.md": f"""---
title: Needs runs
date: 2026-01-02
---
{{{{< compare runs="{RUNS[0]},{GONE_RUN}" >}}}}
""",
}
REASONS = {
    "needs-campaign/index.md": f"its campaign {GONE_CAMPAIGN} is not in {{runs}} (and 1 more id)",
    "needs-run/index.md": f"its run {GONE_RUN} is not in {{runs}}",
    "needs-runs.md": f"its run {GONE_RUN} is not in {{runs}}",
}
# A draft is not rendered by Hugo, so it is not checked either.
DRAFT = f"---\ntitle: Draft\ndate: 2026-01-02\ndraft: true\n---\n[x](/runs/{GONE_RUN}/)\n"
SLUGS = ("needs-campaign", "needs-run", "needs-runs")


def write_posts(posts: Path) -> None:
    for name, text in {"kept/index.md": KEPT, **LEFT_OUT, "draft/index.md": DRAFT}.items():
        (posts / name).parent.mkdir(parents=True, exist_ok=True)
        (posts / name).write_text(text)
    # Page resources: Hugo publishes a bundle's files whether or not the page uses them.
    for slug in ("kept", "needs-campaign"):
        (posts / slug / "profiles").mkdir()
        (posts / slug / "profiles" / "flame.svg").write_text("<svg/>\n")


@pytest.fixture(scope="module")
def some_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir of two runs of one campaign (fixture copies of committed runs)."""
    data = tmp_path_factory.mktemp("some-runs") / "data"
    (data / "runs").mkdir(parents=True)
    for run in RUNS:
        shutil.copy(FIXTURE_RUNS / "runs" / f"{run}.json", data / "runs")
    return data


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return content_with_posts(tmp_path_factory.mktemp("content"), write_posts)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, some_runs: Path, content: Path):
    """The site of the probe posts and two runs, built once: (report, public dir)."""
    root = tmp_path_factory.mktemp("left-out")
    report = generator.build_site(
        [some_runs], root / "build", root / "public", BASE_URL, content=content
    )
    return report, root / "public"


def test_each_article_left_out_is_named_with_the_first_id_it_lacks(built, some_runs, content):
    report, _ = built
    runs = str(some_runs / "runs")
    assert [str(article) for article in report.left_out] == [
        f"{content / 'posts' / name}: left out: {REASONS[name].format(runs=runs)}"
        for name in sorted(LEFT_OUT)
    ]


def test_no_page_list_term_page_or_feed_knows_an_article_left_out(built):
    _, public = built
    for slug in SLUGS:
        assert not (public / "posts" / slug).exists(), f"{slug}: built, or its bundle's files"
    mentions = [
        f"{page.relative_to(public)}: {slug}"
        for page in public.rglob("*")
        if page.suffix in (".html", ".xml")
        for slug in (*SLUGS, "left-out-workload", "left-out-host")
        if slug in page.read_text()
    ]
    assert not mentions
    assert not (public / "workloads" / "left-out-workload").exists()
    assert not (public / "draft").exists() and not (public / "posts" / "draft").exists()


def test_the_article_whose_runs_are_all_there_is_built_and_listed(built):
    _, public = built
    page = (public / "posts" / "kept" / "index.html").read_text()
    assert f'href="/repo/campaigns/{CAMPAIGN}/#disclosure"' in page
    assert (public / "posts" / "kept" / "profiles" / "flame.svg").is_file()
    for listing in ("index.html", "posts/index.html", "index.xml", "posts/index.xml"):
        assert "/repo/posts/kept/" in (public / listing).read_text(), listing
    assert "/repo/posts/kept/" in (public / "workloads" / "oltp-rw" / "index.html").read_text()


def test_require_articles_fails_naming_each_article_and_the_id_it_lacks(
    tmp_path, some_runs, content
):
    with pytest.raises(generator.ArticlesLeftOut) as raised:
        generator.build_site(
            [some_runs], tmp_path / "build", tmp_path / "public", content=content,
            require_articles=True,
        )  # fmt: skip
    runs = str(some_runs / "runs")
    assert raised.value.lines == [
        f"{content / 'posts' / name}: {REASONS[name].format(runs=runs)}"
        for name in sorted(LEFT_OUT)
    ]
    assert "--require-articles" in str(raised.value)
    assert not (tmp_path / "public").exists()


def _committed_left_out(runs: list[str]) -> list[str]:
    """The committed articles that need more than these runs (and their one campaign)."""
    return [
        str(page.relative_to(REPO))
        for page in article_pages(REPO / "content")
        if set(articles.needed(page.read_text()).runs) - set(runs)
        or set(articles.needed(page.read_text()).campaigns) - {CAMPAIGN}
    ]


def test_mybench_build_warns_and_require_articles_fails_on_the_committed_articles(
    tmp_path, some_runs, monkeypatch
):
    monkeypatch.chdir(REPO)  # the messages name files as typed from here
    left_out = _committed_left_out(RUNS)
    assert left_out, "every committed article needs more than two runs"
    build = ["build", "--data", str(some_runs), "--out", str(tmp_path / "build")]

    lenient = CliRunner().invoke(main, [*build, "--destination", str(tmp_path / "public")])
    assert lenient.exit_code == 0, lenient.output
    warnings = [line for line in lenient.stderr.splitlines() if ": left out: " in line]
    assert [line.split(":")[0] for line in warnings] == left_out
    home = (tmp_path / "public" / "index.html").read_text()
    assert not [page for page in left_out if f"/posts/{Path(page).parent.name}/" in home]

    failed = CliRunner().invoke(
        main, [*build, "--destination", str(tmp_path / "none"), "--require-articles"]
    )
    assert failed.exit_code == 2
    assert "nothing was published" in failed.stderr
    for page in left_out:
        assert f"  {page}: its " in failed.stderr
    assert not (tmp_path / "none").exists()


def test_make_build_requires_every_article():
    recipe = (REPO / "Makefile").read_text().split("\nbuild: ", 1)[1].split("\n\n", 1)[0]
    assert "mybench build --require-articles" in recipe


def test_mybench_serve_leaves_out_as_build_does(tmp_path, some_runs):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "serve.log"
    argv = [sys.executable, "-m", "cli", "serve", "--data", str(some_runs),
            "--out", str(tmp_path / "build"), "--port", str(port)]  # fmt: skip
    with log.open("w") as out:
        serve = subprocess.Popen(
            argv, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        posts = _served(f"http://127.0.0.1:{port}/posts/", log)
        for page in _committed_left_out(RUNS):
            assert f"{page}: left out: " in log.read_text()
            assert f"/posts/{Path(page).parent.name}/" not in posts
    finally:
        os.killpg(serve.pid, signal.SIGINT)
        assert serve.wait(timeout=60) == 0, log.read_text()[-3000:]


def _served(url: str, log: Path, seconds: float = 120) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return str(response.read().decode())
        except (urllib.error.HTTPError, OSError):  # not listening yet
            time.sleep(0.2)
    pytest.fail(f"{url} never served; serve said:\n{log.read_text()[-3000:]}")


def test_a_published_article_with_a_typed_figure_fails_the_build_naming_file_and_line(
    tmp_path, some_runs
):
    """Only what is published is read: the draft and the article left out may hold figures."""

    def posts_with_figures(posts: Path) -> None:
        write_posts(posts)
        kept = posts / "kept" / "index.md"
        kept.write_text(kept.read_text() + "It is 12 % faster,\nand 1,234 TPS.\n")
        for other in ("draft/index.md", "needs-run/index.md"):
            (posts / other).write_text((posts / other).read_text() + "Typed: 0.47.\n")

    content = content_with_posts(tmp_path / "content", posts_with_figures)
    kept = content / "posts" / "kept" / "index.md"
    line = kept.read_text().count("\n") - 1  # the next-to-last line
    with pytest.raises(generator.TypedFigures) as raised:
        generator.build_site([some_runs], tmp_path / "build", tmp_path / "public", content=content)
    advice = "is typed into the prose: take it from the data with a shortcode"
    assert raised.value.lines == [
        f"{kept}:{line}: '12 %' {advice} ({{{{< value >}}}}, {{{{< fact >}}}})",
        f"{kept}:{line + 1}: '1,234' {advice} ({{{{< value >}}}}, {{{{< fact >}}}})",
    ]
    assert "2 result figures are typed into article prose" in str(raised.value)
    assert not (tmp_path / "public").exists()
