"""`mybench article new` on every committed campaign, one of each kind among them: the draft
builds with the site's --panicOnWarning, passes the published articles' checks as generated, and its tl;dr names
exactly the cells the campaign page colours: the ratio cells the built page draws as better or
worse, found in the built campaign summary, not asked of the code that wrote the draft."""

from __future__ import annotations

import json
import re
import shlex
from html import escape, unescape
from pathlib import Path
from typing import Any

import pytest
import yaml

import contract
from generator import articles
from generator.analysis.hosts import host_of
from generator.drafts.article import PLACEHOLDER, write_draft
from generator.hugo.site_contract import campaign_page_file
from tests.helpers.fit_runs import fit
from tests.helpers.paths import DATA_DIR, FIXTURE_RUNS
from tests.helpers.site_build import build_with_posts, seed_cache
from tests.published import test_articles

pytestmark = pytest.mark.site

# A run id starts with its campaign id, which holds no dot.
COMMITTED = sorted({path.name.split(".")[0] for path in (DATA_DIR / "runs").glob("*.json")})
CAMPAIGNS = {
    "sweep": "binlog-sync-policies-20261123-133014",
    "versions": "dimitri-10-11-vs-11-4-20261123-135924",
    "suite": "callaghan-10-11-vs-11-4-20261122-045700",
    "tpcc": "tpcc-sets-vs-warehouses-20261123-131945",
    "ibench": "ibench-performance-schema-20261123-143014",
    "aa": "trust-aa-binlog-20261123-111553",
}
COLOURED_TD = re.compile(r'<td class="(better|worse)"')
# The committed TPC-C-like and Insert Benchmark campaigns colour no cell: copies of them with
# one column's throughput halved do, so those drafts name cells of those tables too. (The suite
# campaign cannot colour one: a single pass of 10 s steps gives no interval.)
SLOWED = {
    "tpcc": lambda run: run["workload"]["name"] == "four-sets-1w",
    "ibench": lambda run: run["variant"] == "ps-on",
}
# Most steps of the committed campaigns carry a flag (write debt, steal, unsteady), so their
# ratio cells are greyed, not coloured: the tests of coloured cells draft from copies of these
# campaigns with every step fit to judge (tests/helpers/fit_runs.py), in the judged site.
FIT = ("sweep", "versions", "aa", "tpcc")
THROUGHPUTS = ("tps", "qps", "inserts_per_s", "queries_per_s", "indexed_rows_per_s")


@pytest.fixture(scope="module")
def drafts(tmp_path_factory, committed_runs, committed_cache) -> dict[str, Any]:
    """One site built from data/ with a draft of every committed campaign as the only posts."""
    root = tmp_path_factory.mktemp("drafts")
    seed_cache(root / "build", committed_cache)
    runs = [run_file.doc for run_file in committed_runs]
    written: dict[str, Path] = {}

    def write(posts: Path) -> None:
        for campaign_id in COMMITTED:
            # two committed campaigns share a name when one was measured again: slug by id
            written[campaign_id] = write_draft(runs, campaign_id, posts, campaign_id, "2026-11-26")

    public = build_with_posts(root, write, [DATA_DIR])
    return {"articles": written, "public": public, "build": root / "build"}


def scaled(run: dict[str, Any], factor: float) -> dict[str, Any]:
    """The run with every throughput of its steps (figures and per-second series) times factor."""
    for step in run["steps"]:
        for figures in (step, step.get("series", {})):
            for name in THROUGHPUTS:
                if isinstance(figures.get(name), list):
                    figures[name] = [value * factor for value in figures[name]]
                elif isinstance(figures.get(name), (int, float)):
                    figures[name] = figures[name] * factor
        if "qps" in step:
            step["qps"] = {key: value * factor for key, value in step["qps"].items()}
    return run


# The sweep campaign as a fleet of two hosts would write it (mybench run --fleet): the second
# host a fifth slower, so the page colours host-against-host cells and the draft names them.
FLEET = "fleet-20261126-120000"
FLEET_HOSTS = {"bench-1": 1.0, "bench-2": 0.8}


def on_host(run: dict[str, Any], label: str) -> dict[str, Any]:
    """A copy of a run of the sweep campaign as host `label` of the FLEET ran it."""
    run = scaled(json.loads(json.dumps(run)), FLEET_HOSTS[label])
    prefix = contract.host_variant_prefix(label)
    campaign = run["campaign"]
    run["id"] = run["id"].replace(f"{campaign['id']}.", f"{FLEET}.{prefix}", 1)
    run["variant"] = prefix + run["variant"]
    campaign["id"] = FLEET
    campaign["variant_order"] = [prefix + variant for variant in campaign["variant_order"]]
    run["host"]["label"] = label
    return run


@pytest.fixture(scope="module")
def slowed_drafts(tmp_path_factory, committed_runs) -> dict[str, Any]:
    """The judged site: the FIT copies of their campaigns, of which the SLOWED copies of the
    TPC-C-like and Insert Benchmark campaigns and the FLEET are made, with their drafts."""
    root = tmp_path_factory.mktemp("slowed")
    runs_dir = root / "data" / "runs"
    runs_dir.mkdir(parents=True)
    runs = []
    fit_ids = {CAMPAIGNS[kind] for kind in FIT}
    as_fit = fit_ids - {CAMPAIGNS[kind] for kind in SLOWED}
    for run_file in committed_runs:
        run = run_file.doc
        if run["campaign"]["id"] in fit_ids:
            run = fit(run)
        if run["campaign"]["id"] in as_fit:
            runs.append(run)
        for kind, slow in SLOWED.items():
            if run["campaign"]["id"] == CAMPAIGNS[kind]:
                runs.append(scaled(json.loads(json.dumps(run)), 0.5) if slow(run) else run)
        if run["campaign"]["id"] == CAMPAIGNS["sweep"]:
            runs += [on_host(run, label) for label in FLEET_HOSTS]
    for run in runs:
        (runs_dir / f"{run['id']}.json").write_text(json.dumps(run))
    written: dict[str, Path] = {}

    def write(posts: Path) -> None:
        for campaign_id in sorted({*(CAMPAIGNS[kind] for kind in (*FIT, *SLOWED)), FLEET}):
            # the FLEET shares the sweep's name: slug by id
            written[campaign_id] = write_draft(runs, campaign_id, posts, campaign_id, "2026-11-26")

    public = build_with_posts(root, write, [root / "data"])
    return {"articles": written, "public": public, "build": root / "build"}


def tldr(article: Path) -> str:
    return article.read_text().split("## tl;dr", 1)[1].split("\n## ", 1)[0]


def coloured_paths(node: Any, path: str = "") -> set[str]:
    """Every cell of a campaign summary that the page colours: a ratio cell judged better or
    worse, unless an Insert Benchmark step missed its background target (greyed instead)."""
    found: set[str] = set()
    if isinstance(node, dict):
        if node.get("verdict") in ("better", "worse") and node.get("sustained") is not False:
            found.add(path)
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return found
    for key, child in items:
        found |= coloured_paths(child, f"{path}.{key}" if path else str(key))
    return found


def _cells_of(table: dict[str, Any], path: str, variant: str, threads: str) -> set[str]:
    levels = {int(level) for level in threads.split(",")}
    return {
        f"{path}.rows.{r}.cells.{c}"
        for r, row in enumerate(table["rows"])
        if row["threads"] in levels
        for c, cell in enumerate(row["cells"])
        if cell["variant"] == variant
    }


def named_paths(text: str, summary: dict[str, Any]) -> set[str]:
    """The summary cells the tl;dr's value and fact shortcodes print."""
    named: set[str] = set()
    for name, params in articles.shortcodes(text):
        if name == "fact":
            named.add(params["key"].removesuffix(".ratio"))
            continue
        assert name == "value", f"the tl;dr prints through value or fact, not {name}"
        variant, metric = params["variant"], params.get("metric", "tps")
        if params.get("report") == "ibench":
            ((w, workload),) = [
                (i, w) for i, w in enumerate(summary["ibench"]["workloads"])
                if w["name"] == params["workload"]
            ]  # fmt: skip
            ((r, _),) = [(i, row) for i, row in enumerate(workload["rows"])
                         if row["variant"] == variant]  # fmt: skip
            step = workload["steps"].index(params["step"])
            named.add(f"ibench.workloads.{w}.rows.{r}.cells.{step}")
        elif params.get("report") == "tpcc":
            table = summary["tpcc"]["metrics"][metric]
            named |= _cells_of(table, f"tpcc.metrics.{metric}", variant, params["threads"])
        else:
            ((w, workload),) = [
                (i, w) for i, w in enumerate(summary["workloads"])
                if w["name"] == params["workload"]
            ]  # fmt: skip
            path = f"workloads.{w}.metrics.{metric}"
            named |= _cells_of(workload["metrics"][metric], path, variant, params["threads"])
    return named


def assert_tldr_names_the_coloured_cells(site: dict[str, Any], campaign_id: str) -> set[str]:
    summary = json.loads((site["build"] / campaign_page_file(campaign_id)).read_text())
    coloured = coloured_paths(summary)
    page = (site["public"] / "campaigns" / campaign_id / "index.html").read_text()
    assert len(COLOURED_TD.findall(page)) == len(coloured), "the page colours the summary's cells"
    # A release series repeats, against the oldest release, the suite tables' verdicts; its
    # release-to-predecessor cells are for the series view, not lines of a draft's tl;dr.
    drafted = {path for path in coloured if not path.startswith("suite.series.")}
    assert named_paths(tldr(site["articles"][campaign_id]), summary) == drafted
    return coloured


@pytest.mark.parametrize("campaign_id", COMMITTED)
def test_tldr_names_exactly_the_cells_the_campaign_page_colours(drafts, campaign_id):
    assert_tldr_names_the_coloured_cells(drafts, campaign_id)


def test_coloured_cells_are_found_where_there_are_some(slowed_drafts):
    """The comparison above is not only between empty sets: on the campaigns' runs fit to
    judge, the page colours cells and the draft names exactly those."""
    for kind in ("sweep", "versions", "aa"):
        assert assert_tldr_names_the_coloured_cells(slowed_drafts, CAMPAIGNS[kind]), kind


@pytest.mark.parametrize("kind", SLOWED)
def test_tldr_names_the_coloured_cells_of_each_report(slowed_drafts, kind):
    coloured = assert_tldr_names_the_coloured_cells(slowed_drafts, CAMPAIGNS[kind])
    report = f"{kind}."
    assert any(path.startswith(report) for path in coloured), f"no coloured cell in {report}"


def test_tldr_names_the_coloured_cells_of_a_fleet_host_against_host(slowed_drafts):
    coloured = assert_tldr_names_the_coloured_cells(slowed_drafts, FLEET)
    across = {path for path in coloured if ".across_hosts." in path}
    assert across, "the second host, a fifth slower, is coloured against the first"
    summary = json.loads((slowed_drafts["build"] / campaign_page_file(FLEET)).read_text())
    for path in across:
        cell = summary
        for key in path.split("."):
            cell = cell[int(key)] if isinstance(cell, list) else cell[key]
        assert cell["variant"].startswith("bench-2.") and cell["verdict"] == "worse"
        assert round(cell["ratio"], 2) == 0.8
    page = (slowed_drafts["public"] / "campaigns" / FLEET / "index.html").read_text()
    across = page.split('<table class="num ratios across-hosts">')[1].split("</table>")[0]
    assert '<th scope="row">binlog-off</th>' in across and "bench-2" in across


@pytest.mark.parametrize("draft", [*COMMITTED, *(f"slowed-{kind}" for kind in SLOWED)])
def test_draft_builds_into_an_article_page(drafts, slowed_drafts, draft):
    if draft.startswith("slowed-"):
        site, campaign_id = slowed_drafts, CAMPAIGNS[draft.removeprefix("slowed-")]
    else:
        site, campaign_id = drafts, draft
    article = site["articles"][campaign_id]
    page = site["public"] / "posts" / article.parent.name / "index.html"
    html = page.read_text()
    assert 'id="tldr"' in html and 'id="reproduce"' in html
    assert "{{&lt;" not in html and "{{<" not in html, "every shortcode rendered"
    assert PLACEHOLDER in html, "the places for the author's analysis show"


@pytest.mark.parametrize("campaign_id", COMMITTED)
def test_draft_passes_the_published_articles_checks(drafts, committed_runs, campaign_id):
    article = drafts["articles"][campaign_id]
    runs = {run["id"] for _, run in committed_runs}
    campaigns = {run["campaign"]["id"] for _, run in committed_runs}
    test_articles.test_server_terms_are_spelled_as_run_pages_spell_them(article, committed_runs)
    test_articles.test_hosts_term_names_the_hosts_its_runs_ran_on(article, committed_runs)
    test_articles.test_article_embeds_only_committed_runs(article, (runs, campaigns))
    test_articles.test_article_prose_has_no_typed_figures(article)
    test_articles.test_article_follows_the_outline(article)


def test_draft_marks_write_debt_values_and_ratio_tables(slowed_drafts):
    """The first 10.11 vs 11.4 campaign's Update-NoKey runs started from very different
    checkpoint ages: every value the draft takes from that workload, and its ratio table, link
    to the campaign page's explanation. (Its fit copy keeps those starts, and its cells are
    judged, so the tl;dr names some.)"""
    campaign_id = CAMPAIGNS["versions"]
    article = slowed_drafts["articles"][campaign_id]
    html = (slowed_drafts["public"] / "posts" / article.parent.name / "index.html").read_text()
    target = f'href="/campaigns/{campaign_id}/#write-debt-update-nokey"'
    assert html.count(f'<p class="write-debt-note">⚠ <a {target}>Write debt</a>') == 1
    marks = re.findall(r'<a class="write-debt-mark" ([^>]*)>', html)
    assert marks and all(mark.startswith(target) for mark in marks)
    value_shortcode = f'{{{{< value campaign="{campaign_id}" workload="update-nokey"'
    values = tldr(article).count(value_shortcode)
    assert values > 0  # the tl;dr names Update-NoKey cells, and each is marked
    shown = html.split('id="tldr"', 1)[1].split("</ul>", 1)[0]
    assert shown.count("⚠ write debt") == values


def test_aa_draft_says_the_repeat_differs_nowhere(slowed_drafts):
    text = tldr(slowed_drafts["articles"][CAMPAIGNS["aa"]])
    assert "`binlog-off-again` differs from `binlog-off` nowhere beyond the noise" in text
    assert 'variant="binlog-off-again"' not in text


def test_draft_without_a_coloured_cell_says_nothing_differs(drafts):
    text = " ".join(tldr(drafts["articles"][CAMPAIGNS["ibench"]]).split())
    assert "Nothing differs beyond the noise" in text
    assert "no difference between `ps-off` and `ps-on`." in text


def test_draft_says_when_ratios_beyond_the_band_could_not_be_judged(drafts):
    """One pass of 10 s steps gives no interval: the suite's large ratios are not coloured,
    and the draft must not let that read as "no difference"."""
    assert "no interval to judge them by" in tldr(drafts["articles"][CAMPAIGNS["suite"]])
    assert "no interval to judge them by" not in tldr(drafts["articles"][CAMPAIGNS["sweep"]])


# Data that a draft writes into its front matter and body, with a front matter break and live
# shortcodes in it: each binlog-off run holds the first payload of a field, each sync-1 run a
# variation of it. A shortcode that ran would print a figure where the text should be.
HOSTILE_SWEEP = "binlog-sync-policies-20261123-133014"
HOSTILE_RUN = f"{HOSTILE_SWEEP}.binlog-off.oltp-rw.p1"
HOSTILE_TITLE = 'Probe"\nengines: [evil-engine]\r\ntitle: "again'
HOSTILE_FILE = f'campaigns/probe-{{{{< fact run="{HOSTILE_RUN}" key="server.version" >}}}}.toml'
HOSTILE_DESCRIPTION = "One line.\n---\nhosts: [evil-description]\n<img src=x onerror=alert(1)>"
HOSTILE_BY_VARIANT = {
    "binlog-off": {
        "cpu_model": 'AMD EPYC"\nhosts: [evil-quote]',
        "distribution": f'Debian {{{{< fact run="{HOSTILE_RUN}" key="server.version" >}}}} '
        "*em* <b>bold</b>",
    },
    "sync-1": {
        "cpu_model": "AMD EPYC, evil-comma: [x]",
        "distribution": f'Debian {{{{% fact run="{HOSTILE_RUN}" key="host.cpu_threads" %}}}} '
        "[link](javascript:alert(1)) `code` <!--more-->",
    },
}


@pytest.fixture(scope="module")
def hostile_draft(tmp_path_factory) -> dict[str, Any]:
    """The fixture sweep's runs with HOSTILE_BY_VARIANT, HOSTILE_TITLE and HOSTILE_FILE, its
    draft, and the site built with it."""
    root = tmp_path_factory.mktemp("hostile-draft")
    runs_dir = root / "data" / "runs"
    runs_dir.mkdir(parents=True)
    runs = []
    for path in sorted((FIXTURE_RUNS / "runs").glob(f"{HOSTILE_SWEEP}.*.json")):
        run = json.loads(path.read_text())
        hostile = HOSTILE_BY_VARIANT[run["variant"]]
        run["campaign"].update(title=HOSTILE_TITLE, file=HOSTILE_FILE)
        run["campaign"]["description"] = HOSTILE_DESCRIPTION
        run["host"]["cpu_model"] = hostile["cpu_model"]
        run["host"].pop("fingerprint", None)  # a machine of that CPU: derived from the facts
        build = {"origin": "package", "package": "mariadb-server"}
        run["server"]["build"] = {**build, "distribution": hostile["distribution"]}
        runs.append(run)
        (runs_dir / path.name).write_text(json.dumps(run))
    assert contract.validate_dir(root / "data")[1] == []
    written: list[Path] = []

    def write(posts: Path) -> None:
        written.append(write_draft(runs, HOSTILE_SWEEP, posts, "hostile", "2026-11-26"))

    public = build_with_posts(root, write, [root / "data"])
    html = (public / "posts" / "hostile" / "index.html").read_text()
    return {"article": written[0], "runs": runs, "public": public, "html": html}


def test_front_matter_holds_the_data_as_values_and_no_other_key(hostile_draft):
    text = hostile_draft["article"].read_text()
    front = yaml.safe_load(text.split("---\n", 2)[1])
    assert sorted(front) == sorted(
        ["title", "date", "description", "engines", "versions", "workloads", "hosts", "campaign"]
    )
    assert front["title"] == HOSTILE_TITLE
    assert sorted(front["hosts"]) == sorted(
        {host_of(run)["name"] for run in hostile_draft["runs"]}
    )
    assert any("evil-quote" in host for host in front["hosts"])
    assert any("evil-comma: [x]" in host for host in front["hosts"])
    public = hostile_draft["public"]
    for taxonomy, term in (("engines", "evil-engine"), ("hosts", "evil-quote")):
        assert not (public / taxonomy / term).exists()
    assert not (public / "hosts" / "evil-comma").exists()


def test_data_in_the_body_shows_as_text_and_runs_no_shortcode(hostile_draft):
    html = hostile_draft["html"]
    article = html.split("<article", 1)[1].split("</article>", 1)[0]
    text = unescape(re.sub(r"<[^>]+>", "", article))
    for hostile in HOSTILE_BY_VARIANT.values():
        assert hostile["distribution"] in text
    assert f"Campaign file {HOSTILE_FILE}," in text
    assert f"mybench run {shlex.quote(HOSTILE_FILE)}" in text
    assert "<b>" not in article and "<em>em</em>" not in article
    assert not [link for link in re.findall(r'href="([^"]*)"', article) if "javascript" in link]
    # The home page lists the article with its description (the data's, on one line) as text.
    home = (hostile_draft["public"] / "index.html").read_text()
    assert escape(" ".join(HOSTILE_DESCRIPTION.split()), quote=False) in home
