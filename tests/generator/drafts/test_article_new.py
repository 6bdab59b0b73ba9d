"""`mybench article new` as a user runs it: the draft lands in the content folder given, an
existing article is never overwritten, an unknown campaign is one line; and the templates'
environment fails on a value the code did not pass instead of writing an empty string."""

from __future__ import annotations

import copy

import jinja2
import pytest
from click.testing import CliRunner

from cli.main import main
from contract.text_templates import text_templates
from generator.drafts.article import PLACEHOLDER, render_draft, write_draft
from tests.helpers.paths import REPO
from tests.helpers.site_build import data_of
from tests.helpers.suite_runs import SERIES_CAMPAIGN, release_series, template_run

CAMPAIGN = "trust-aa-binlog-20261123-111553"


@pytest.fixture
def data(tmp_path, committed_runs):
    return data_of(tmp_path, committed_runs, lambda run: run["campaign"]["id"] == CAMPAIGN)


def test_writes_the_draft_and_never_over_an_article(tmp_path, data):
    content = tmp_path / "content"
    args = ["article", "new", CAMPAIGN, "--data", str(data), "--content", str(content)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    article = content / "posts" / "trust-aa-binlog" / "index.md"
    assert f"wrote {article}" in result.output
    text = article.read_text()
    assert f'campaign: "{CAMPAIGN}"\n' in text and PLACEHOLDER in text

    article.write_text("the author's edits")
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 2 and "exists" in again.output
    assert article.read_text() == "the author's edits"

    other = CliRunner().invoke(main, [*args, "--slug", "aa-again"])
    assert other.exit_code == 0, other.output
    assert (content / "posts" / "aa-again" / "index.md").read_text() == text


def test_a_waits_pass_is_no_pass_of_the_draft(tmp_path, committed_runs):
    """A campaign's performance_schema waits run (a copy of one of its runs, marked as such)
    changes nothing in the draft: its throughput is not a measurement."""
    of_campaign = [run.doc for run in committed_runs if run.doc["campaign"]["id"] == CAMPAIGN]
    waits = {**copy.deepcopy(of_campaign[0]), "purpose": "waits", "id": "aa-waits"}
    waits["steps"] = [{**step, "tps": step["tps"] / 2} for step in waits["steps"]]
    alone = write_draft(of_campaign, CAMPAIGN, tmp_path / "a", None, "2026-11-28")
    beside = write_draft([*of_campaign, waits], CAMPAIGN, tmp_path / "b", None, "2026-11-28")
    assert alone.read_text() == beside.read_text()


def test_unknown_campaign_is_one_line(tmp_path, data):
    result = CliRunner().invoke(
        main, ["article", "new", "nope", "--data", str(data), "--content", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "no run of campaign 'nope'" in result.output
    assert not (tmp_path / "posts").exists()


def test_a_missing_value_fails_the_render(tmp_path):
    (tmp_path / "t.j2").write_text("title = {{ title }} & <{{ name }}>\n")
    templates = text_templates(tmp_path)
    with pytest.raises(jinja2.UndefinedError, match="name"):
        templates.get_template("t.j2").render(title="x")
    assert templates.get_template("t.j2").render(title="a", name="b") == "title = a & <b>\n"


def test_the_guide_starts_from_article_new():
    guide = (REPO / "content" / "guide" / "articles.md").read_text()
    first_section = guide.split("\n## ", 2)[1]
    assert first_section.startswith("Start from a draft: `mybench article new`")
    for option in ("--slug", "--data", "--content"):
        assert f"`{option}" in first_section, f"the guide documents {option}"
    assert PLACEHOLDER in first_section, "the guide names the placeholder to replace"


def test_a_release_series_draft_embeds_the_series_view(fixture_runs):
    runs = release_series(template_run([run for _, run in fixture_runs]))
    text = render_draft(runs, "2026-11-28")
    assert f'{{{{< suite campaign="{SERIES_CAMPAIGN}" table="series" >}}}}' in text
    assert f'{{{{< suite campaign="{SERIES_CAMPAIGN}" table="efficiency" >}}}}' in text
