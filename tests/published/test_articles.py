"""The articles in content/posts/ as committed: every run and campaign they embed is in data/,
was measured as a published result must be (a clean committed tree, a named host, write debt
settled before every step that writes), their prose carries no typed result figures (those come
from shortcodes), and each follows the seed posts' outline."""

from __future__ import annotations

import re

import pytest

from contract import is_ibench, page_segment
from generator.analysis.hosts import host_of
from generator.analysis.write_debt import writes
from generator.articles import embedded, front_matter, needed, shortcodes
from generator.pages.run_label import PRODUCT_NAMES
from generator.pages.run_terms import TERMS, run_terms
from generator.typed_figures import typed_figures
from tests.helpers.paths import DATA_DIR, REPO

POSTS = REPO / "content" / "posts"
ARTICLES = sorted(POSTS.glob("*/index.md"))
OUTLINE = ("## tl;dr", "## Reproduce")


def _cited_workloads(text: str) -> dict[str, set[str]]:
    """For each campaign an article names together with a workload (tables, charts, values,
    profiles), the workloads it takes figures from; a campaign named only as a whole (trust,
    configuration, front matter) takes none of its runs' figures."""
    cited: dict[str, set[str]] = {}
    for _, params in shortcodes(text):
        if "campaign" in params and "workload" in params:
            cited.setdefault(params["campaign"], set()).add(params["workload"])
    return cited


def _figure_runs(text: str, runs: list[dict]) -> list[dict]:
    """The runs whose figures an article shows: those it names, and those of the workloads it
    cites from a campaign (all of a campaign's runs when it cites no workload of it)."""
    campaigns, ids = embedded(text)
    cited = _cited_workloads(text)

    def shown(run: dict) -> bool:
        campaign, workload = run["campaign"]["id"], run["workload"]["name"]
        return campaign in campaigns and workload in cited.get(campaign, {workload})

    return [run for run in runs if run["id"] in ids or shown(run)]


@pytest.fixture(scope="module")
def known_ids(committed_runs) -> tuple[set[str], set[str]]:
    runs = {run["id"] for _, run in committed_runs}
    campaigns = {run["campaign"]["id"] for _, run in committed_runs}
    return runs, campaigns


def test_there_are_articles():
    assert len(ARTICLES) >= 4, f"expected the published articles in {POSTS}"


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_server_terms_are_spelled_as_run_pages_spell_them(article, committed_runs):
    """A term page takes its title from the first page Hugo meets with the term: an article that
    wrote "mariadb" where run pages write "MariaDB" made the title change between builds."""
    products = {PRODUCT_NAMES[run["server"]["product"]] for _, run in committed_runs}
    versions = {
        f"{PRODUCT_NAMES[run['server']['product']]} {run['server']['version']}"
        for _, run in committed_runs
    }
    text = article.read_text()
    for taxonomy, spellings in (("engines", products), ("versions", versions)):
        for term in front_matter(text).get(taxonomy, []):
            assert term in spellings, f"{article}: {taxonomy} {term!r}, run pages say {spellings}"


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_a_term_on_a_run_term_page_is_spelled_as_the_run_spells_it(article, committed_runs):
    """Hugo puts terms with one path segment on one page (contract.page_segment: "Lab (1)" and
    "lab-1"), titled after whichever it met first: every term of an article that lands on a
    run's term page is spelled as that run's, in every taxonomy."""
    spellings: dict[tuple[str, str], str] = {}  # (taxonomy, segment) -> the runs' term
    for _, run in committed_runs:
        for taxonomy, term in run_terms(run).items():
            spellings[taxonomy, page_segment(term)] = term
    front = front_matter(article.read_text())
    for taxonomy in TERMS:
        for term in front.get(taxonomy, []):
            spelled = spellings.get((taxonomy, page_segment(term)), term)
            assert term == spelled, f"{article}: {taxonomy} {term!r}, run pages say {spelled!r}"


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_hosts_term_names_the_hosts_its_runs_ran_on(article, committed_runs):
    """Two machines both called "vm" made articles share one host term: the term is the host's
    name as run pages give it (generator/analysis/hosts.py), one per machine whose runs the
    article embeds, checked against the data."""
    text = article.read_text()
    assert "hosts" in front_matter(text), f"{article}: front matter hosts"
    terms = set(front_matter(text)["hosts"])
    campaigns, ids = embedded(text)
    hosts = {
        host_of(run)["name"]
        for _, run in committed_runs
        if run["id"] in ids or run["campaign"]["id"] in campaigns
    }
    assert terms == hosts, f"{article}: hosts {sorted(terms)}, its runs come from {sorted(hosts)}"


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_article_embeds_only_committed_runs(article, known_ids):
    """Every campaign and run the article embeds or links is in data/: `make build` refuses
    the committed site otherwise (--require-articles), where a build from other data leaves
    the article out."""
    runs, campaigns = known_ids
    text = article.read_text()
    assert shortcodes(text), f"{article}: embeds no results"
    wanted = needed(text)
    for campaign in wanted.campaigns:
        assert campaign in campaigns, f"{article}: campaign {campaign!r}, not in {DATA_DIR}"
    for run_id in wanted.runs:
        assert run_id in runs, f"{article}: run {run_id!r}, not in {DATA_DIR}"


def _measurement_faults(run: dict) -> list[str]:
    """Why a measured run may not carry an article's claims (empty: it may)."""
    faults = []
    snapshot = run["harness"].get("snapshot")
    if snapshot is None:
        faults.append("no provenance snapshot")
    elif snapshot["changed_files"] != []:
        faults.append(f"uncommitted changes {snapshot['changed_files'][:3]}")
    if not run["host"].get("label"):
        faults.append("no host label")
    if not is_ibench(run) and writes(run) and (unsettled := _unsettled_steps(run)):
        faults.append(f'write debt not settled before steps {unsettled} (settle = "checkpoint")')
    return faults


def _unsettled_steps(run: dict) -> list[int]:
    """The steps that did not start from a caught-up checkpoint: each step needs a settle record
    of its own that did not time out; a run-level record (runs measured before the harness
    settled every level) covers only the first step, since each later one starts with the write
    debt the one before it left."""

    def settled(record: dict | None) -> bool:
        return bool(record) and record["rule"] == "checkpoint" and not record["timed_out"]

    return [
        index
        for index, step in enumerate(run["steps"])
        if not settled(step.get("settle")) and not (index == 0 and settled(run.get("settle")))
    ]


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_embedded_runs_were_measured_as_results_must_be(article, committed_runs):
    """Every run whose figures an article shows that was measured here comes from a clean
    committed tree, on a labelled host, with the write debt settled before every step when it
    writes (an Insert Benchmark run starts on an empty datadir); imported runs say where they
    came from instead."""
    runs = [run for _, run in committed_runs]
    faults = {
        run["id"]: fault
        for run in _figure_runs(article.read_text(), runs)
        if "origin" not in run
        for fault in _measurement_faults(run)
    }
    assert not faults, f"{article}: {len(faults)} embedded runs, e.g. {next(iter(faults.items()))}"


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_article_prose_has_no_typed_figures(article):
    typed = typed_figures(article.read_text(), str(article))
    assert not typed, "\n".join(map(str, typed))


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_article_follows_the_outline(article):
    text = article.read_text()
    for heading in OUTLINE:
        assert heading in text, f"{article}: missing {heading!r}"
    names = {name for name, _ in shortcodes(text)}
    assert "mycnf" in names and "repro" in names, f"{article}: no full my.cnf or replay commands"


def test_typed_figure_check_catches_what_it_should():
    text = (
        "---\ntitle: x\n---\nIt gets 0.47 of the base, 12 % less,\n1,234 TPS, 2\u00d7 faster."
        ' `0.99` and {{< value x="1" >}} are fine; so are 10.11.19, MariaDB 10.11,'
        " sync_binlog=1000, 4 tables and the ±5 % rule with its 95 % interval.\n"
        "```\n0.55 in a code block\n```\n"
    )
    found = [(typed.line, typed.figure) for typed in typed_figures(text, "x.md")]
    assert found == [(4, "0.47"), (4, "12 %"), (5, "1,234"), (5, "2\u00d7")]


def test_settle_check_catches_what_it_should():
    record = {"rule": "checkpoint", "timed_out": False}
    per_level = {"steps": [{"settle": record}, {"settle": {**record, "timed_out": True}}, {}]}
    run_level = {"settle": record, "steps": [{}, {}]}
    assert _unsettled_steps(per_level) == [1, 2]
    assert _unsettled_steps(run_level) == [1]


def test_figure_runs_follow_the_workloads_an_article_cites():
    def run(campaign: str, workload: str) -> dict:
        return {
            "id": f"{campaign}.{workload}",
            "campaign": {"id": campaign},
            "workload": {"name": workload},
        }

    runs = [run("a", "reads"), run("a", "writes"), run("b", "writes"), run("c", "x")]
    text = (
        '{{< value campaign="a" workload="reads" >}} {{< trust campaign="a,b" >}}'
        ' {{< fact run="c.x" key="k" >}}'
    )
    assert [r["id"] for r in _figure_runs(text, runs)] == ["a.reads", "b.writes", "c.x"]


def test_readme_links_and_picture_exist():
    readme = POSTS.parents[1] / "README.md"
    targets = re.findall(r"\]\(([^)#]+)\)", readme.read_text())
    assert "docs/article.png" in targets, "the README shows an article page"
    missing = [target for target in targets if not (readme.parent / target).exists()]
    assert not missing, (
        f"README links to missing files: {missing} (make screenshot draws the picture)"
    )
