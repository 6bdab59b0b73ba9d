"""From a question to a published article, the way the guide tells a newcomer to go: `campaign
new` with the test the question is about, commit, `run` into the project's data/, the `article
new` the run names, `build`. Each command's printed next step is the one taken, and the
campaign file is never edited by hand.

In a throwaway copy of the project (tests/helpers/project_copy.py) with the site's templates
and content, so the commit, the data/ refusal and the build happen as in a fresh clone.
"""

from __future__ import annotations

import re
import shlex
import shutil

import pytest

from tests.helpers.paths import REPO
from tests.helpers.project_copy import git, project_copy, run_in

pytestmark = [pytest.mark.server, pytest.mark.site]

# What a build reads beside what project_copy brings for a run: the site's sources, and the
# tools whose files key the build cache.
SITE = ("layouts", "content", "site/assets", "site/hugo.toml", "tools")
TINY_CNF = """[mysqld]
innodb_buffer_pool_size = 64M
innodb_log_file_size = 48M
skip_log_bin
"""


def _with_site(copy):
    for name in SITE:
        source, target = REPO / name, copy / name
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            shutil.copy(source, target)
    (copy / "campaigns" / "mycnf" / "tiny.cnf").write_text(TINY_CNF)
    git(copy, "add", "-A")
    git(copy, "commit", "-q", "-m", "site sources and a tiny my.cnf")
    return copy


def _next_commands(output: str) -> list[list[str]]:
    """The commands a `next:` block names (numbered steps or indented lines starting mybench)."""
    block = output.split("next:", 1)[1]
    found = re.findall(r"^\s+(?:[0-9]+\. )?(mybench [^(\n]+?)\s*(?:\(|$)", block, re.MULTILINE)
    return [shlex.split(command) for command in found]


def test_a_question_becomes_an_article(tmp_path):
    copy = _with_site(project_copy(tmp_path))
    new = run_in(
        copy, "campaign", "new", "flush-at-commit", "--preset", "config",
        "--server", "debian=/usr", "--mycnf", "campaigns/mycnf/tiny.cnf",
        "--variant", "flush-2:innodb_flush_log_at_trx_commit=2",
        "--test", "oltp_update_index", "--title", "Flushing at commit \u2014 2 against 1",
        "--threads", "1", "--step-seconds", "2", "--warmup-seconds", "0", "--repeats", "1",
        "--table-size", "2000",
    )  # fmt: skip
    assert new.returncode == 0, new.stderr
    campaign = copy / "campaigns" / "flush-at-commit.toml"
    text = campaign.read_text(encoding="utf-8")
    assert 'title = "Flushing at commit \u2014 2 against 1"' in text  # UTF-8, not \u2014
    assert "[workloads.update-index]" in text and 'test = "oltp_update_index"' in text
    assert "measured steps: about" in new.stdout and "1 pass:" in new.stdout
    assert "commit it (git add campaigns/flush-at-commit.toml" in new.stdout
    assert _next_commands(new.stdout) == [["mybench", "run", "campaigns/flush-at-commit.toml"]]

    git(copy, "add", "campaigns/flush-at-commit.toml")
    git(copy, "commit", "-q", "-m", "the campaign")
    ran = run_in(copy, "run", "campaigns/flush-at-commit.toml")
    assert ran.returncode == 0, ran.stderr + ran.stdout
    article_new, serve = _next_commands(ran.stdout + ran.stderr)
    assert article_new[:3] == ["mybench", "article", "new"]
    assert article_new[3].startswith("flush-at-commit-")
    assert serve == ["mybench", "serve"]
    assert len(list((copy / "data" / "runs").glob("flush-at-commit-*.json"))) == 2

    drafted = run_in(copy, *article_new[1:])
    assert drafted.returncode == 0, drafted.stderr
    article = next((copy / "content" / "posts").glob("flush-at-commit*/index.md"))
    assert "oltp_update_index" in article.read_text() or "update-index" in article.read_text()

    built = run_in(copy, "build")
    assert built.returncode == 0, built.stderr + built.stdout
    page = copy / "site" / "public" / "posts" / article.parent.name / "index.html"
    assert page.is_file(), built.stderr
    assert "Flushing at commit" in page.read_text()
