"""build_site on the committed data/: real Hugo, --panicOnWarning, then inspect the output."""

from __future__ import annotations

import copy
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

import generator
from generator.analysis import stats as _stats
from generator.analysis.memory import TIMES
from generator.analysis.trust import run_trust
from generator.hugo.command import hugo_binary
from generator.pages.numbers import format_number
from tests.helpers.paths import REPO
from tests.helpers.repeated_runs import as_repeat, two_variants, write_runs
from tests.helpers.site_build import build_with_article, data_of, one_run_data
from tests.helpers.suite_runs import (
    CAMPAIGN,
    SERIES_CAMPAIGN,
    callaghan_campaign,
    release_series,
    suite_run,
    template_run,
)

pytestmark = pytest.mark.site

ADAPTER_SECTIONS = ("runs", "campaigns")


def test_hugo_is_installed():
    # A missing Hugo must fail the suite, not skip it: CI installs it.
    assert hugo_binary().is_file()


def test_every_run_and_campaign_is_published(built_site, committed_runs):
    report, public = built_site
    assert report.runs == len(committed_runs)
    assert report.pages > report.runs
    assert str(report).startswith(f"built {report.pages} pages from")
    for path, run in committed_runs:
        page = public / "runs" / run["id"] / "index.html"
        assert run["id"] in page.read_text()
        assert (public / "runs" / run["id"] / "run.json").read_bytes() == path.read_bytes()
        my_cnf = public / "runs" / run["id"] / "my.cnf"
        if "my_cnf" in run["server"]:
            assert my_cnf.read_text() == run["server"]["my_cnf"]
        else:  # an import given no my.cnf
            assert "origin" in run and not my_cnf.exists()
        campaign_page = public / "campaigns" / run["campaign"]["id"] / "index.html"
        assert f'href="/runs/{run["id"]}/"' in campaign_page.read_text()
    assert (public / "posts" / "index.html").is_file()
    assert (public / "index.html").is_file()
    schema = json.loads((public / "schema" / "run-v1.schema.json").read_text())
    assert schema["title"].startswith("mybench run document")


def test_every_chart_placeholder_points_at_a_published_figure(built_site):
    _, public = built_site
    for page in public.rglob("index.html"):
        html = page.read_text()
        for rest in html.split('data-plotly-src="')[1:]:
            figure = public / rest.split('"', 1)[0].lstrip("/")
            assert json.loads(figure.read_text())["data"], figure
            assert "<table" in rest.split("</figure>", 1)[0], f"{page}: chart without data table"


def test_adapter_sections_hold_no_markdown_pages():
    # A .md page beside an adapter page of the same path is dropped silently by Hugo.
    for section in ADAPTER_SECTIONS:
        stray = [p.name for p in (REPO / "content" / section).glob("**/*.md")]
        assert stray in ([], ["_index.md"]), (section, stray)


def test_a_broken_run_file_stops_the_build(tmp_path, committed_runs):
    data = tmp_path / "data"
    for folder in ("runs", "profiles"):  # a profiled run's file beside it
        shutil.copytree(REPO / "data" / folder, data / folder)
    broken_path = data / "runs" / committed_runs[0].path.name
    broken = json.loads(broken_path.read_text())
    broken["server"]["version"] = 11
    broken_path.write_text(json.dumps(broken))
    destination = tmp_path / "public"
    with pytest.raises(generator.InvalidData) as raised:
        generator.build_site([data], tmp_path / "build", destination)
    assert raised.value.problems
    for problem in raised.value.problems:
        assert problem.file == str(broken_path)
    assert "$.server.version" in {problem.path for problem in raised.value.problems}
    assert not destination.exists()


def test_the_same_run_in_two_data_dirs_is_a_problem(tmp_path, committed_runs):
    with pytest.raises(generator.InvalidData) as raised:
        generator.build_site([REPO / "data", REPO / "data"], tmp_path / "build", tmp_path / "pub")
    assert any(problem.path == "$.id" for problem in raised.value.problems)
    assert not (tmp_path / "pub").exists()


def test_shortcodes_embed_runs_and_campaigns_in_an_article(tmp_path, committed_runs):
    run = committed_runs[0].doc
    campaign, workload = run["campaign"]["id"], run["workload"]["name"]
    data = data_of(tmp_path, committed_runs, lambda other: other["campaign"]["id"] == campaign)
    public = build_with_article(
        tmp_path,
        f"""{{{{< chart run="{run["id"]}" fig="tps" >}}}}
{{{{< chart campaign="{campaign}" workload="{workload}" fig="latency" >}}}}
{{{{< ratios campaign="{campaign}" workload="{workload}" >}}}}
{{{{< configdiff campaign="{campaign}" >}}}}
{{{{< mycnf run="{run["id"]}" >}}}}
{{{{< repro run="{run["id"]}" >}}}}""",
        [data],
    )
    html = (public / "posts" / "probe" / "index.html").read_text()
    assert html.count("data-plotly-src=") == 2
    assert "js/charts." in html and "js/copy." in html
    assert f"/runs/{run['id']}/my.cnf" in html
    assert run["reproduce"]["harness_command"].split()[0] in html
    assert "relative to" in html
    # Per-instance values (ports, paths) carry no "my.cnf"/"default" mark: the harness set them.
    instance = re.search(
        r'<details class="instance-config">.*?</details>', html, re.DOTALL
    ).group()
    assert "<code>" in instance and "src-" not in instance
    # Pages without charts ship no chart loader.
    assert "js/charts." not in (public / "posts" / "index.html").read_text()


def test_a_bad_shortcode_fails_with_hugo_s_one_line_cause(tmp_path, monkeypatch, committed_runs):
    monkeypatch.setenv("HUGO_TITLE", "inherited HUGO_ variables are stripped")
    data = one_run_data(tmp_path, committed_runs)
    public = build_with_article(tmp_path / "ok", "No shortcode here.", [data])
    assert "inherited" not in (public / "index.html").read_text()
    with pytest.raises(generator.HugoError) as raised:
        build_with_article(tmp_path, '{{< chart run="no-such-run" fig="tps" >}}', [data])
    message = str(raised.value)
    assert "\n" not in message
    assert 'no run "no-such-run"' in message
    assert "probe/index.md:5" in message


def test_internal_links_resolve(built_site):
    _, public = built_site
    broken = []
    for page in public.rglob("*.html"):
        for target in re.findall(r'(?:href|src|data-plotly-src)="(/[^"#?]*)', page.read_text()):
            path = public / target.lstrip("/")
            if not (path.is_file() or (path / "index.html").is_file()):
                broken.append(f"{page.relative_to(public)} -> {target}")
    assert not broken


def test_repeats_are_published_as_medians_with_their_spread(tmp_path, committed_runs):
    """A campaign of three passes per variant (the second variant's disagree by 13 %, on an
    existing server with a small buffer pool) and a partial re-run that must not count, built
    beside the committed data (the article needs it)."""
    base, other = two_variants([run for _, run in committed_runs])
    origin = {
        "method": "restored",
        "pristine_key": "probe-key",
        "loaded_by": base["variant"],
        "load_seconds": 12.3,
        "restore_seconds": 0.8,
    }
    base = copy.deepcopy(base)
    other = copy.deepcopy(other)
    for run in (base, other):
        run["campaign"]["id"] += "-repeated"
    base["workload"]["data_origin"] = {"method": "prepared", "load_seconds": 4.5}
    other["workload"]["data_origin"] = origin
    other["server"].update(kind="existing", variant_applied="set_global", sandbox=False)
    other["workload"]["data_bytes"] = 15 * 2**27
    other["server"]["variables"]["innodb_buffer_pool_size"] = str(2**27)
    runs = [as_repeat(base, i + 1, 3, scale) for i, scale in enumerate((1.0, 1.02, 0.98))]
    runs += [as_repeat(other, i + 1, 3, scale) for i, scale in enumerate((1.0, 1.10, 0.97))]
    runs.append(as_repeat(other, 2, 3, 50.0, id=f"{other['id']}.r2", status="partial"))
    write_runs(runs, tmp_path / "data")
    public = tmp_path / "public"
    generator.build_site([REPO / "data", tmp_path / "data"], tmp_path / "build", public, "/")

    campaign = (public / "campaigns" / base["campaign"]["id"] / "index.html").read_text()
    first_tps = sorted(round(other["steps"][0]["tps"] * s, 2) for s in (1.0, 1.10, 0.97))
    spread = f"{(first_tps[2] / first_tps[0] - 1) * 100:.1f} %"
    assert f"3{TIMES} · {spread}" in campaign
    # every ratio cell shows its 95 % interval, from the three repeats on each side
    base_tps = [round(base["steps"][0]["tps"] * s, 2) for s in (1.0, 1.02, 0.98)]
    shown = first_tps[1] / sorted(base_tps)[1]  # of the medians
    interval = _stats.ratio_interval(base_tps, first_tps, shown, per_second=False)
    assert (
        f'<span class="interval">{interval["low"]:.2f}\u2013{interval["high"]:.2f}</span>'
        in campaign
    )
    low, high = (format_number(value) for value in (first_tps[0], first_tps[2]))
    assert f"({low}\u2013{high})" in campaign
    assert format_number(first_tps[1]) in campaign  # the median
    assert "(partial)" in campaign and "(not counted)" in campaign
    assert f"IO-bound (data 15{TIMES} the buffer pool)" in campaign

    run_page = (public / "runs" / runs[4]["id"] / "index.html").read_text()
    assert f"{other['variant']}, repeat 2 of 3</h1>" in run_page
    for sibling in (runs[3], runs[5], runs[6]):
        assert f'href="/runs/{sibling["id"]}/"' in run_page
    assert (
        "Restored from a pristine copy (<code>probe-key</code>) loaded under variant" in run_page
    )
    assert "(load 12.3 s, restore 0.8 s)" in run_page
    assert f"buffer pool 128 MiB: IO-bound (data is 15{TIMES} the buffer pool)" in run_page
    assert "set_global" in run_page and "only the" in run_page
    assert "Not counted" in (public / "runs" / runs[6]["id"] / "index.html").read_text()
    base_page = (public / "runs" / runs[0]["id"] / "index.html").read_text()
    assert "Prepared for this run (load 4.5 s)." in base_page
    assert "in-memory (data fits in the buffer pool" in base_page


class _Tables(HTMLParser):
    """Every <table> of a page as {"caption", "rows": [[(cell text, class), ...]]}."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self._cell: list | None = None
        self._caption: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self.tables.append({"caption": "", "rows": []})
        elif tag == "caption":
            self._caption = []
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = [[], dict(attrs).get("class", "")]

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption" and self._caption is not None:
            self.tables[-1]["caption"] = "".join(self._caption).strip()
            self._caption = None
        elif tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell[0]).split())
            self.tables[-1]["rows"][-1].append((text, self._cell[1]))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._caption is not None:
            self._caption.append(data)
        if self._cell is not None:
            self._cell[0].append(data)

    def table(self, caption_start: str) -> list[list[tuple[str, str]]]:
        found = [t["rows"] for t in self.tables if t["caption"].startswith(caption_start)]
        assert len(found) == 1, (caption_start, [t["caption"] for t in self.tables])
        return found[0]


DIMITRI_CAMPAIGN = "dimitri-probe-20260101-000000"


@pytest.fixture(scope="module")
def suite_site(tmp_path_factory, committed_runs) -> tuple[Path, Path]:
    """A Callaghan suite campaign (tests/helpers/suite_runs.py: seven tests over the four groups, one
    missing cell, one zero base) and a two-level Dimitri one, built beside the committed data
    with an article embedding their tables: (public dir, suite data dir)."""
    root = tmp_path_factory.mktemp("suite")
    template = template_run([run for _, run in committed_runs])
    runs = callaghan_campaign(template)
    for variant, by_threads in (("a.base", (100, 190)), ("b.base", (120, 180))):
        steps = {threads: {"qps": qps} for threads, qps in zip((1, 2), by_threads, strict=True)}
        runs.append(
            suite_run(template, variant, "OLTP_RW", "write", 4, steps, "dimitri", DIMITRI_CAMPAIGN)
        )
    runs += release_series(template)
    write_runs(runs, root / "data")
    public = build_with_article(
        root,
        f"""{{{{< suite campaign="{CAMPAIGN}" table="relative" >}}}}

{{{{< suite campaign="{SERIES_CAMPAIGN}" table="series" >}}}}

{{{{< suite campaign="{CAMPAIGN}" table="efficiency" >}}}}

{{{{< suite campaign="{DIMITRI_CAMPAIGN}" table="peak" >}}}}

{{{{< suite campaign="{DIMITRI_CAMPAIGN}" table="absolute" threads="2" >}}}}""",
        [root / "data"],
    )
    return public, root / "data"


def flat(shown: str) -> str:
    """A ratio cell's text on the suite fixtures: the ratio (and marker), then its 95 % interval,
    which the flat per-second series make the ratio itself (* = from per-second samples)."""
    ratio = shown[:4]
    return f"{shown}{ratio}\u2013{ratio}*"


def test_a_suite_campaign_page_shows_callaghan_s_tables(suite_site):
    public, _ = suite_site
    html = (public / "campaigns" / CAMPAIGN / "index.html").read_text()
    assert 'id="suite"' in html and "Mark Callaghan&#39;s sysbench microbenchmarks" in html
    tables = _Tables(html)
    relative = tables.table("Relative QPS: value ÷ a.base")
    assert [[text for text, _ in row] for row in relative] == [
        ["test", "a.base (base)", "b.base"],
        ["Point queries"],
        ["point-query.pre", "1.00", flat("1.10 ▲ (better)")],
        ["point-query_range=100", "1.00", "—"],
        ["Range queries without aggregation"],
        ["range-notcovered-si.pre", "1.00", flat("0.95")],
        ["scan_range=100 (rows/s)", "1.00", flat("1.05")],
        ["Range queries with aggregation"],
        ["read-only_range=10", "n/a", "n/a"],
        ["Writes"],
        ["update-index_range=100", "1.00", flat("0.93 ▼ (worse)")],
        ["insert_range=100", "1.00", flat("1.11 ▲ (better)")],
    ]
    classes = {row[0][0]: row[2][1] for row in relative if len(row) == 3}
    assert classes["point-query.pre"] == "better" and classes["update-index_range=100"] == "worse"
    assert classes["range-notcovered-si.pre"] == "same"
    assert classes["point-query_range=100"] == "missing" and classes["read-only_range=10"] == "na"
    absolute = tables.table("Throughput: QPS (rows/s for a scan)")
    assert ["scan_range=100 (rows/s)", "1,000,000", "1,050,000"] in [
        [text for text, _ in row] for row in absolute
    ]
    assert [
        "insert_range=100",
        "300",
        "333",
    ]  # no decimals from 100 up in [[text for text, _ in row] for row in absolute]
    cpu = tables.table("cpu/o (µs)")
    assert [text for text, _ in cpu[2]] == ["point-query.pre", "50", "40"]
    # a cost per operation has no per-second samples: with one run each its noise is unknown
    assert tables.table("cpu/o ÷ a.base")[2][2] == ("0.80 ≈ (within noise)", "noise")
    assert tables.table("wKB/o ÷ a.base")[2][2] == ("2.00 ≈ (within noise)", "noise")
    assert "o is one transaction" in html and "▲ better" in html
    assert f'href="/campaigns/{CAMPAIGN}/#point-query-pre"' in html
    assert 'id="point-query-pre"' in html  # each test keeps its curves and ratio tables
    assert "Peak over thread levels" not in html  # Dimitri's form only


def test_a_dimitri_campaign_page_adds_peaks_and_a_table_per_thread_level(suite_site):
    public, _ = suite_site
    html = (public / "campaigns" / DIMITRI_CAMPAIGN / "index.html").read_text()
    tables = _Tables(html)
    peak = tables.table("Peak over thread levels")
    assert [text for text, _ in peak[2]] == [
        "OLTP_RW",
        "190 @ 2 TPS 190 @ 2",
        "180 @ 2 TPS 180 @ 2",
    ]
    assert 'href="#suite-threads-2"' in html and 'id="suite-threads-2"' in html
    assert tables.table("Relative QPS at 2 threads")[2][2] == (flat("0.95"), "same")
    assert tables.table("Relative QPS at 1 thread")[2][2] == (flat("1.20 ▲ (better)"), "better")


def test_the_suite_shortcode_embeds_a_table_in_an_article(suite_site):
    public, _ = suite_site
    html = (public / "posts" / "probe" / "index.html").read_text()
    tables = _Tables(html)
    assert tables.table("Relative QPS: value ÷ a.base")[2][2][0] == flat("1.10 ▲ (better)")
    assert tables.table("cpu/o ÷ a.base")[2][2][0] == "0.80 ≈ (within noise)"
    assert tables.table("Peak over thread levels")[2][0][0] == "OLTP_RW"
    assert [text for text, _ in tables.table("Throughput at 2 threads")[2]] == [
        "OLTP_RW",
        "190",
        "180",
    ]
    assert "Throughput at 1 thread" not in html and 'id="suite-threads' not in html
    assert f'href="/campaigns/{CAMPAIGN}/#insert-r100"' in html


def test_a_release_series_page_shows_releases_relative_to_the_oldest_and_to_their_predecessor(
    suite_site,
):
    public, _ = suite_site
    html = (public / "campaigns" / SERIES_CAMPAIGN / "index.html").read_text()
    assert 'id="series"' in html and "<strong>10.2.11</strong>" in html
    tables = _Tables(html)
    relative = tables.table("QPS (rows/s for a scan) relative to r102.base")
    assert [text for text, _ in relative[0]] == ["test", "10.2.11", "10.5.23", "11.4.5"]
    point = [text for text, _ in relative[1]]
    assert point[0] == "point-query_range=100" and point[1].startswith("1.00")
    assert point[2].startswith("1.10 ▲ (better)") and relative[1][2][1] == "better"
    steps = tables.table("QPS (rows/s for a scan), each release ÷ its predecessor")
    assert [text for text, _ in steps[0]] == ["test", "10.5.23 ÷ 10.2.11", "11.4.5 ÷ 10.5.23"]
    assert steps[1][2][0].startswith("0.91 ▼ (worse)") and steps[1][2][1] == "worse"
    counts = tables.table("Instructions per operation, connection thread (callgrind), each")
    assert counts[1][2][1] == "worse" and counts[2][1][1] == "same"
    for figure in ("series-throughput", "series-instructions"):
        assert (public / "figures" / "campaigns" / SERIES_CAMPAIGN / f"{figure}.json").is_file()
        assert f"figures/campaigns/{SERIES_CAMPAIGN}/{figure}.json" in html
    instr = next(t["rows"] for t in tables.tables if t["caption"] == "instr/o (instructions)")
    assert [text for text, _ in instr[2]] == [
        "point-query_range=100",
        "40,000 (40,000\u201340,000)",  # three passes, the same count each
        "40,000 (40,000\u201340,000)",
        "46,000 (46,000\u201346,000)",
    ]
    article = (public / "posts" / "probe" / "index.html").read_text()
    assert "each release ÷ its predecessor" in article


@pytest.mark.parametrize(
    ("shortcode", "message"),
    [
        (f'campaign="{CAMPAIGN}" table="series"', "is no release series"),
        (f'campaign="{CAMPAIGN}" table="bogus"', 'suite: table "bogus" unknown'),
        ('campaign="no-such-campaign" table="relative"', 'no campaign "no-such-campaign"'),
        (f'campaign="{CAMPAIGN}" table="peak"', 'table="peak" is Dimitri\'s form'),
        (f'campaign="{CAMPAIGN}"', "suite: table is required"),
    ],
)
def test_a_bad_suite_shortcode_fails_the_build(tmp_path, suite_site, shortcode, message):
    _, suite_data = suite_site
    with pytest.raises(generator.HugoError) as raised:
        build_with_article(tmp_path, f"{{{{< suite {shortcode} >}}}}", [suite_data])
    assert message in str(raised.value)
    assert "probe/index.md:5" in str(raised.value)


def test_tpcc_pages_show_shapes_checks_and_per_type_tables(built_site, committed_runs):
    _, public = built_site
    tpcc_runs = [run for _, run in committed_runs if "tpcc" in run["workload"]]
    assert tpcc_runs, "the committed data holds a TPC-C-like campaign"
    for run in tpcc_runs:
        html = (public / "runs" / run["id"] / "index.html").read_text()
        shape = run["workload"]["tpcc"]
        assert 'id="tpcc"' in html and "unaudited" in html
        assert f"{shape['table_sets']} table set" in html
        passed = shape["check_after_load"]["passed"] and shape["check_after_run"]["passed"]
        assert ('class="check-pass">all passed' in html) == passed
        # one per-type table per step, a row per transaction type
        assert html.count("Transaction types at") == len(run["steps"])
        assert html.count('<th scope="row">new-order</th>') == len(run["steps"])
        last = run["steps"][-1]["tpcc"]["types"]["payment"]
        assert f"<td>{last['count']}</td><td>{last['commits']}</td>" in html
    campaign = tpcc_runs[0]["campaign"]["id"]
    html = (public / "campaigns" / campaign / "index.html").read_text()
    assert "TPC-C-like: datasets and warehouses" in html
    assert "one line per dataset shape" in html
    assert html.count('class="tpcc-lines"') == 1


def test_insert_benchmark_pages_label_steps_and_offer_no_thread_sweep_compare(
    built_site, committed_runs
):
    _, public = built_site
    ibench_runs = [run for _, run in committed_runs if run["workload"]["tool"] == "ibench"]
    assert ibench_runs, "the committed data holds an Insert Benchmark campaign"
    for run in ibench_runs:
        html = (public / "runs" / run["id"] / "index.html").read_text()
        assert 'id="ibench-steps"' in html
        assert "Compare with the other variants" not in html  # the compare page draws sweeps
        if any(step.get("monitor") for step in run["steps"]):
            assert "<th>step</th>" in html and "<td>l.i0</td>" in html
    html = (public / "campaigns" / ibench_runs[0]["campaign"]["id"] / "index.html").read_text()
    assert "Insert Benchmark: " in html and "Compare these runs" not in html


def test_insert_benchmark_steps_carry_their_steady_state_verdict(built_site, committed_runs):
    """Each step with a per-second rate is judged in its run's step table, and the campaign's
    disclosure counts those steps without claiming a client load nobody measured."""
    _, public = built_site
    run = next(run for _, run in committed_runs if run["workload"]["tool"] == "ibench")
    judged = [entry for entry in run_trust(run) if entry["steady"] is not None]
    assert judged and all("step" in entry for entry in judged)
    html = (public / "runs" / run["id"] / "index.html").read_text()
    table = html[html.index('aria-label="Insert Benchmark steps"') :]
    table = table[: table.index("</table>")]
    assert "<th>verdict</th>" in table
    verdicts = re.findall(
        r'<td class="(?:steady|unstable)" data-flags="([a-z ]*)">.*?<span class="trust-numbers">drift',
        table,
    )
    assert verdicts == [" ".join(flag["kind"] for flag in entry["flags"]) for entry in judged]
    assert "client: its CPU not recorded" in html
    campaign = run["campaign"]["id"]
    runs = [other for _, other in committed_runs if other["campaign"]["id"] == campaign]
    steps = sum(len(run_trust(other)) for other in runs)
    html = (public / "campaigns" / campaign / "index.html").read_text()
    assert f'data-steps="{steps}"' in html and "client load over" not in html
    assert "The client's CPU was not recorded." in html
