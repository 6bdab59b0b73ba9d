"""The compare page and the point drill-down in headless Debian Chromium, on the committed data
plus the two hand-made runs of tests/helpers/compare_runs.py (whose numbers the assertions restate).

Where each statistics rule lives: the numbers (the ±band, ratio and interval decimals, the
confidence, the t quantile table, the verdict markers) are generator/analysis/stats.py's and
analysis/ratios.py's, shipped to the page in the compare index (pages/compare_index.py, key
"ratio"), and so are the merged passes and the per-second effective sample sizes (the cells
and each step's summaries). The formulas that combine two sides exist twice, in Python
(stats.pair_interval, summary_interval, verdict) and in JS (js/compare/interval.js, ratio.js):
test_intervals_and_verdicts_equal_the_generator_s checks the JS against Python on the shared
fixture runs (per-second samples), test_merged_passes_read_as_the_campaign_page_s_cells on a
committed campaign's repeats, verdict and printed interval per thread level, for tps and p95."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

import contract
import generator
from generator.analysis import stats as _stats
from generator.analysis.config_diff import INSTANCE_GROUP, config_diff
from generator.analysis.ratios import (
    RATIO_DECIMALS,
    VERDICT_MARKERS,
    judged_stats,
    keeps_enough,
    pass_flags,
    ratio_table,
    why_not_judged,
)
from generator.analysis.repeats import counted_runs, group_by_cell, spread
from generator.analysis.trust import kept_series
from generator.analysis.verdict import FLAG_KINDS
from generator.figures.sweep import HOLLOW_LEGEND
from generator.pages.compare_index import COMPARE_METRICS, compare_index, flag_mask
from generator.pages.monitor import FAMILIES
from generator.pages.ratio_cells import flag_words
from tests.helpers.compare_runs import (
    BASE,
    CAMPAIGN,
    DIFF_ROWS,
    DRIFT_CAMPAIGN,
    DRIFT_KERNEL,
    INSTANCE_ROWS,
    P95_RATIOS,
    THREADS,
    TPS_RATIOS,
    TPS_VERDICTS,
    TUNED,
    compare_runs,
    drifted_runs,
    run_id,
)
from tests.helpers.headless import CHART_TIMEOUT_MS, served
from tests.helpers.paths import REPO
from tests.helpers.repeated_runs import write_runs

pytestmark = pytest.mark.browser

VIEW = f"/compare/?campaign={CAMPAIGN}"


@pytest.fixture(scope="module")
def probe_runs(committed_runs) -> list[dict]:
    return compare_runs([run for _, run in committed_runs])


@pytest.fixture(scope="module")
def compare_site(tmp_path_factory, probe_runs):
    """The site of the committed data and the probe campaign, served on localhost: its URL."""
    root = tmp_path_factory.mktemp("compare")
    write_runs([*probe_runs, *drifted_runs(probe_runs)], root / "data")
    public = root / "public"
    generator.build_site([REPO / "data", root / "data"], root / "build", public, base_url="/")
    with served(public) as url:
        yield url


@pytest.fixture
def page(browser):
    """A page in a fresh browser context that fails the test on any console or page error."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors


def _open(page, url: str) -> None:
    page.goto(url)
    page.locator("#compare-ratio-table").wait_for(timeout=CHART_TIMEOUT_MS)
    page.locator("#compare-throughput .main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)


def _rows(page, selector: str) -> list[list[str]]:
    """Each cell's text; a ratio cell's without its interval (see _intervals) and its flag mark
    (see _titles)."""
    return page.eval_on_selector(
        selector,
        """t => [...t.rows].map(r => [...r.cells].map(c => {
             const shown = c.cloneNode(true);
             shown.querySelector('.interval')?.remove();
             shown.querySelector('.flags')?.remove();
             return shown.textContent.replace(/\\s+/g, ' ').trim();
           }))""",
    )


def _intervals(page, selector: str) -> list[list[str | None]]:
    """Each body cell's interval text, None where it has none."""
    return page.eval_on_selector(
        selector,
        """t => [...t.tBodies[0].rows].map(r => [...r.cells].map(c =>
             c.querySelector('.interval')?.textContent ?? null))""",
    )


def _titles(page, selector: str) -> list[list[str]]:
    return page.eval_on_selector(
        selector, "t => [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.title))"
    )


def _classes(page, selector: str) -> list[list[str]]:
    return page.eval_on_selector(
        selector, "t => [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.className))"
    )


def _query(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(url).query).items()}


def test_ratio_table_and_heatmap_equal_the_hand_computed_ratios(compare_site, page):
    _open(page, compare_site + VIEW)
    assert _rows(page, "#compare-ratio-table") == [
        ["threads", f"{BASE} (base)", TUNED],
        *[
            [str(threads), "1.00", ratio]
            for threads, ratio in zip(THREADS, TPS_RATIOS, strict=True)
        ],
    ]
    assert [row[2] for row in _classes(page, "#compare-ratio-table")] == TPS_VERDICTS
    assert _rows(page, "#compare-heatmap-table") == [
        ["run", *map(str, THREADS)],
        [f"{BASE} (base)", *["1.00"] * len(THREADS)],
        [TUNED, *TPS_RATIOS],
    ]
    assert _classes(page, "#compare-heatmap-table")[1][1:] == TPS_VERDICTS
    _open(page, compare_site + VIEW + "&metric=p95")
    assert [row[2] for row in _rows(page, "#compare-ratio-table")[1:]] == P95_RATIOS


def _python_cells(probe_runs: list[dict], metric: str) -> list[tuple[str, str | None]]:
    """Per thread level of tuned ÷ base: the verdict and the interval as the page prints them,
    by generator/analysis/stats.py from the two runs' kept per-second samples."""
    base, tuned = probe_runs
    value_of, higher_is_better, series = (
        getattr(COMPARE_METRICS[metric], field)
        for field in ("value_of", "higher_is_better", "series")
    )
    cells = []
    for base_step, step in zip(base["steps"], tuned["steps"], strict=False):
        exact = value_of(step) / value_of(base_step)
        interval = _stats.ratio_interval(
            kept_series(base, base_step, series),
            kept_series(tuned, step, series),
            exact,
            per_second=True,
        )
        ratio = round(exact, RATIO_DECIMALS)
        shown = f"{interval['low']:.2f}\u2013{interval['high']:.2f}*"
        cells.append((_stats.verdict(ratio, interval, higher_is_better), shown))
    return cells


@pytest.mark.parametrize("metric", ["tps", "p95"])
def test_intervals_and_verdicts_equal_the_generator_s(compare_site, page, probe_runs, metric):
    _open(page, f"{compare_site}{VIEW}&metric={metric}")
    expected = _python_cells(probe_runs, metric)
    verdicts = {verdict for verdict, _ in expected}
    assert "noise" in verdicts and verdicts & {"better", "worse"}  # the fixture has both kinds
    for table in ("#compare-ratio-table", "#compare-heatmap-table"):
        classes, intervals = _classes(page, table), _intervals(page, table)
        if table == "#compare-heatmap-table":  # a row per run: tuned's, without the header cell
            shown = list(zip(classes[1][1:], intervals[1][1:], strict=True))
            assert intervals[0][1:] == [None] * len(THREADS)  # the base's own cells
        else:  # a row per thread level: tuned is the third column
            shown = [
                (row[2], interval[2]) for row, interval in zip(classes, intervals, strict=True)
            ]
            assert [interval[1] for interval in intervals] == [None] * len(THREADS)
        assert shown[: len(expected)] == expected
        assert shown[len(expected) :] == [("missing", None)]
    heat = page.eval_on_selector_all(
        "#compare-heatmap-table td.noise",
        "tds => tds.map(td => td.style.getPropertyValue('--heat'))",
    )
    assert heat == [""]  # within noise: no colour
    marker = page.text_content("#compare-ratio-table td.noise .marker [aria-hidden]")
    assert marker.strip() == VERDICT_MARKERS["noise"]
    legend = page.text_content("#compare-legend")
    assert "understates the noise between runs" in legend
    band = round(_stats.BAND * 100)
    assert f"{VERDICT_MARKERS['noise']} marks a change beyond ±{band} %" in legend


def test_a_drift_banner_lists_what_differs_between_the_runs_on_screen(compare_site, page):
    _open(page, f"{compare_site}/compare/?campaign={DRIFT_CAMPAIGN}")
    banner = page.locator("#compare-drift .banner-drift")
    assert banner.count() == 1
    assert "The compared runs differ in their environment" in banner.inner_text()
    (item,) = banner.locator("li").all_inner_texts()
    assert item.startswith("kernel: ") and item.endswith(f"; {DRIFT_KERNEL} (1 run)")
    _open(page, compare_site + VIEW)
    assert page.locator("#compare-drift").inner_html() == ""


def test_runs_of_two_machines_named_vm_are_flagged_as_two_machines(compare_site, page):
    """The committed binlog runs of the Intel and the AMD VM, both recorded as host "vm"."""
    intel = "vm-binlog-sync-20261122-025343.binlog-off.update-nokey"
    amd = "binlog-sync-policies-20261123-133014.binlog-off.update-nokey.p1"
    _open(page, f"{compare_site}/compare/?runs={intel},{amd}")
    banner = page.locator("#compare-drift .banner-drift")
    assert "The compared runs come from 2 different machines" in banner.inner_text()
    host, cpu = banner.locator("li").all_inner_texts()[:2]
    what, values = host.split(": ", 1)
    assert what == "host"
    names = sorted(value.rsplit(" (", 1)[0] for value in values.split("; "))
    assert [name.rsplit(" · ", 1)[0] for name in names] == [
        "vm · AMD EPYC · 2 cores · 24 GiB",
        "vm · Intel Xeon · 2 cores · 24 GiB",
    ]
    assert cpu.startswith("CPU model: ") and "Intel(R) Xeon(R) Processor (1 run)" in cpu


def test_a_pasted_url_restores_the_view_in_a_new_browser_context(compare_site, browser, page):
    _open(page, compare_site + VIEW)
    page.select_option("#compare-base", TUNED)
    page.select_option("#compare-metric", "p95")
    page.select_option("#compare-scale", "log")
    page.wait_for_function("() => location.search.includes('scale=log')")
    page.wait_for_function(
        "() => document.getElementById('compare-throughput')._fullLayout.yaxis.type === 'log'"
    )
    pasted = page.url
    shown = _rows(page, "#compare-ratio-table")

    context = browser.new_context()
    fresh = context.new_page()
    _open(fresh, pasted)
    assert (
        _query(fresh.url)
        == _query(pasted)
        == {
            "campaign": CAMPAIGN,
            "workload": "point-select",
            "base": TUNED,
            "metric": "p95",
            "scale": "log",
        }
    )
    for control, value in (("base", TUNED), ("metric", "p95"), ("scale", "log")):
        assert fresh.input_value(f"#compare-{control}") == value
    assert _rows(fresh, "#compare-ratio-table") == shown
    assert _rows(fresh, "#compare-heatmap-table")[2][0] == f"{TUNED} (base)"
    axis = fresh.eval_on_selector("#compare-latency", "el => el._fullLayout.yaxis.type")
    assert axis == "log"
    context.close()


def test_changing_the_base_changes_the_url_and_the_table(compare_site, page):
    _open(page, compare_site + VIEW)
    assert _query(page.url)["base"] == BASE
    page.select_option("#compare-base", TUNED)
    page.wait_for_function("() => location.search.includes('base=tuned')")
    header = _rows(page, "#compare-ratio-table")[0]
    assert header == ["threads", BASE, f"{TUNED} (base)"]
    # base ÷ tuned at 1 thread: 1000 / 1040.
    assert _rows(page, "#compare-ratio-table")[1] == ["1", "0.96", "1.00"]


def test_the_config_diff_lists_exactly_the_differing_options(compare_site, page, probe_runs):
    _open(page, compare_site + VIEW)
    page.locator("#compare-config table.configdiff").first.wait_for(timeout=CHART_TIMEOUT_MS)
    tables = page.locator("#compare-config table.configdiff")
    shown = page.eval_on_selector_all(
        "#compare-config table.configdiff",
        """tables => tables.map(t => [...t.tBodies].map(b => [...b.rows].map(r =>
             r.classList.contains('group') ? '# ' + r.textContent.trim()
                                           : r.cells[0].textContent.trim())))""",
    )
    assert tables.count() == 2  # the differences, then the collapsed instance group
    expected = [[f"# {title}", *names] for title, names in DIFF_ROWS.items()]
    assert shown == [expected, [INSTANCE_ROWS]]
    # The same rows as the campaign page's diff, which the generator computes.
    diff = config_diff(probe_runs, [BASE, TUNED])
    assert [[f"# {g['title']}", *(r["name"] for r in g["rows"])] for g in diff["groups"]] == [
        *expected,
        [f"# {INSTANCE_GROUP}", *INSTANCE_ROWS],
    ]
    buffer_pool = _rows(page, "#compare-config table.configdiff")[2]
    assert buffer_pool == [
        "innodb_buffer_pool_size",
        "134217728 default",
        "1073741824 my.cnf",
    ]
    source = page.get_attribute(
        "#compare-config tr:has(code:text-is('innodb_buffer_pool_size')) .src-cnf", "title"
    )
    assert source == "innodb_buffer_pool_size = 1G"
    assert page.locator("#compare-config details.instance-config td code").count() > 0
    assert page.locator("#compare-config details.instance-config .src").count() == 0
    page.click("#compare-mycnf summary")
    assert page.locator("#compare-mycnf-files pre").count() == len(probe_runs)


def _click_point(page, chart: str, trace: int, point: int) -> None:
    """A real mouse click on the marker of a drawn chart."""
    marker = page.locator(f"{chart} .scatterlayer .trace").nth(trace).locator(".points path")
    box = marker.nth(point).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def _opened_series(page, probe_run: dict, threads: int) -> None:
    panel = page.locator(".drilldown")
    panel.locator(".js-plotly-plot").first.wait_for(timeout=CHART_TIMEOUT_MS)
    assert f"at {threads} threads" in panel.locator("h3").inner_text()
    assert probe_run["id"] in panel.locator(".meta").inner_text()
    step = next(step for step in probe_run["steps"] if step["threads"] == threads)
    page.wait_for_function(
        "n => document.querySelectorAll('.drilldown .js-plotly-plot').length === n",
        arg=2 + sum(1 for _ in _families(step)),
    )
    plots = page.eval_on_selector_all(
        ".drilldown .js-plotly-plot", "ps => ps.map(p => [p.data[0].x.length, p.data[0].y])"
    )
    assert plots[0] == [len(step["series"]["t"]), step["series"]["tps"]]
    assert plots[1] == [len(step["series"]["t"]), step["series"]["p95_ms"]]


def _families(step: dict):
    """The monitoring families the step sampled: a drill-down chart each."""
    series = step["monitor"]["series"]
    for _, _, metrics in FAMILIES.values():
        if any(metric in series for metric in metrics):
            yield metrics
    kinds = step["monitor"].get("kinds", {})  # a sampled family per kind; "mixed" when unknown
    yield from {
        kinds.get(name, "mixed")
        for name in series
        if name.startswith(contract.INNODB_METRICS_PREFIX)
    }


def test_clicking_a_point_opens_its_per_second_series(compare_site, page, probe_runs):
    _open(page, compare_site + VIEW)
    _click_point(page, "#compare-throughput", trace=1, point=1)
    _opened_series(page, probe_runs[1], THREADS[1])
    page.click(".drilldown-close")
    assert page.locator(".drilldown").count() == 0


def test_clicking_a_point_of_a_run_page_chart_opens_its_series(compare_site, page, probe_runs):
    page.goto(f"{compare_site}/runs/{run_id(BASE)}/")
    tps = '[data-plotly-src$="/tps.json"]'
    page.locator(tps).scroll_into_view_if_needed()
    page.locator(f"{tps} .main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
    _click_point(page, tps, trace=0, point=2)
    _opened_series(page, probe_runs[0], THREADS[2])


def test_run_campaign_and_article_pages_link_to_their_compare_view(compare_site, page):
    page.goto(f"{compare_site}/campaigns/{CAMPAIGN}/")
    page.click("text=Compare these runs")
    page.locator("#compare-ratio-table").wait_for(timeout=CHART_TIMEOUT_MS)
    assert _query(page.url)["campaign"] == CAMPAIGN
    page.goto(f"{compare_site}/runs/{run_id(TUNED)}/")
    page.click("text=Compare with the other variants of its campaign")
    page.locator("#compare-ratio-table").wait_for(timeout=CHART_TIMEOUT_MS)
    assert _query(page.url)["workload"] == "point-select"
    page.goto(f"{compare_site}/posts/")
    articles = page.eval_on_selector_all(".page-list a", "links => links.map(a => a.href)")
    linked = [
        url
        for url in articles
        if page.goto(url) and page.locator("text=Compare these runs").count()
    ]
    assert linked, "no article links to its compare view"
    page.goto(linked[0])
    page.click("text=Compare these runs")
    page.locator("#compare-ratio-table").wait_for(timeout=CHART_TIMEOUT_MS)
    assert _query(page.url)["campaign"]


# The committed campaigns the trust tests below read (data/runs).
BUFFER_POOL = "buffer-pool-fit-20261122-044309"
AA = "trust-aa-binlog-20261123-111553"
BINLOG = "binlog-sync-policies-20261123-133014"
COLOURED = {"better", "worse"}


def _coloured(page, workload: str, metric: str, view: str) -> list[str]:
    """The heatmap's coloured cells of one workload and metric: 'series @ threads' each."""
    _open(page, f"{view}&workload={workload}&metric={metric}")
    assert _query(page.url)["workload"] == workload
    rows = _rows(page, "#compare-heatmap-table")
    classes = _classes(page, "#compare-heatmap-table")
    return [
        f"{row[0]} @ {rows[0][column]}"
        for row, row_classes in zip(rows[1:], classes, strict=True)
        for column, kind in enumerate(row_classes)
        if kind in COLOURED
    ]


@pytest.mark.parametrize(
    ("view", "workloads", "series"),
    [
        # each pass of the same configuration against the first: one run a side, 10 s steps
        (f"?campaign={BUFFER_POOL}&variants=bp-1g&passes=1", ["read-write", "point-select"], 3),
        # the same my.cnf twice, passes merged (the default) ...
        (
            f"?campaign={AA}&variants=binlog-off,binlog-off-again",
            ["update-nokey", "point-select"],
            2,
        ),
        # ... and pass by pass
        (
            f"?campaign={AA}&variants=binlog-off,binlog-off-again&passes=1",
            ["update-nokey", "point-select"],
            6,
        ),
    ],
)
def test_a_configuration_against_itself_colours_no_cell(
    compare_site, page, view, workloads, series
):
    for workload in workloads:
        for metric in COMPARE_METRICS:
            assert _coloured(page, workload, metric, compare_site + "/compare/" + view) == []
        assert len(_rows(page, "#compare-heatmap-table")) == 1 + series


# A chart's series, without the legend entry that says what a hollow (flagged) point means.
SERIES = f"t => t.name !== {HOLLOW_LEGEND!r}"


def test_a_real_difference_in_the_committed_data_is_coloured(compare_site, page):
    """bp-32m is worse at 2 threads (no pass flagged) and at 8 (judged on its two unflagged
    passes); the binlog campaign's sync-1, flagged in every pass, is greyed at every level."""
    view = f"{compare_site}/compare/?campaign={BUFFER_POOL}&variants=bp-1g,bp-32m"
    assert _coloured(page, "point-select", "tps", view) == ["bp-32m @ 2", "bp-32m @ 8"]
    titles = _titles(page, "#compare-heatmap-table")
    assert "judged on its 2 unflagged passes" in titles[1][4]
    # the base at 1 thread rests on 2 flagged passes of 3: hollow, its kinds on hover
    symbols, legend = page.eval_on_selector(
        "#compare-throughput",
        f"el => [el.data[0].marker.symbol, el.data.filter(t => !({SERIES})(t)).length]",
    )
    assert symbols[0] == "circle-open" and symbols[1] == "circle" and legend == 1
    view = f"{compare_site}/compare/?campaign={BINLOG}&variants=binlog-off,sync-1"
    assert _coloured(page, "update-nokey", "tps", view) == []
    assert _classes(page, "#compare-heatmap-table")[1][1:7] == ["flagged"] * 6
    assert all(
        "not judged: " in title for title in _titles(page, "#compare-heatmap-table")[1][1:7]
    )


def _campaign_cells(runs: list[dict], variants: list[str], workload: str, metric: str):
    """The campaign page's ratio cells of variants[1] ÷ variants[0] (analysis/ratios.py)."""
    mine = [run for run in runs if run["workload"]["name"] == workload]
    cells = {key[1]: counted_runs(cell) for key, cell in group_by_cell(mine).items()}
    table = ratio_table({v: cells[v] for v in variants}, variants, metric)
    return [row["cells"][1] for row in table["rows"]]


@pytest.mark.parametrize("metric", ["tps", "p95"])
@pytest.mark.parametrize("workload", ["read-write", "point-select"])
def test_merged_passes_read_as_the_campaign_page_s_cells(
    compare_site, page, committed_runs, metric, workload
):
    """The JS port of stats.pair_interval on repeats and of the flagged-pass rule: ratio,
    verdict, interval and flagged passes of every cell equal the generator's on the committed
    buffer pool campaign (read-write: greyed cells; point-select: cells judged on their
    unflagged passes, others on all, others greyed)."""
    runs = [run for _, run in committed_runs if run["campaign"]["id"] == BUFFER_POOL]
    _open(
        page, f"{compare_site}/compare/?campaign={BUFFER_POOL}&workload={workload}&metric={metric}"
    )
    assert [row[0] for row in _rows(page, "#compare-heatmap-table")[1:]] == [
        "bp-1g (base)",
        "bp-32m",
    ]
    expected = _campaign_cells(runs, ["bp-1g", "bp-32m"], workload, metric)
    shown = _rows(page, "#compare-ratio-table")[1:]
    classes = _classes(page, "#compare-ratio-table")
    intervals = _intervals(page, "#compare-ratio-table")
    titles = _titles(page, "#compare-ratio-table")
    marker = {
        "worse": " ▼ (worse)",
        "better": " ▲ (better)",
        "noise": " ≈ (within noise)",
        "flagged": " (not judged)",
    }
    for cell, row, kinds, interval, title in zip(
        expected, shown, classes, intervals, titles, strict=True
    ):
        assert row[2] == f"{cell['ratio']:.2f}{marker.get(cell['verdict'], '')}"
        assert kinds[2] == cell["verdict"]
        bounds = cell["interval"]
        assert interval[2] == f"{bounds['low']:.2f}\u2013{bounds['high']:.2f}"  # repeats: no *
        assert flag_words(cell["flags"]) in title[2]
        assert ("judged on its" in title[2]) == (cell["judged_on"] == "unflagged")
        if cell["no_judgement"]:
            assert title[2].endswith(f"; not judged: {cell['no_judgement']}")
    verdicts = {cell["verdict"] for cell in expected}
    judged_on = {cell["judged_on"] for cell in expected}
    if workload == "point-select":  # every case of the rule is on screen
        assert "flagged" in verdicts and judged_on == {"all", "unflagged"}


def test_one_hue_per_variant_and_a_dash_per_pass(compare_site, page):
    _open(page, f"{compare_site}/compare/?campaign={BUFFER_POOL}&workload=read-write&passes=1")
    lines = page.eval_on_selector(
        "#compare-throughput",
        f"el => el._fullData.filter({SERIES}).map(t => [t.name, t.line.color, t.line.dash])",
    )
    assert [name for name, _, _ in lines] == [
        f"{variant} #{index}" for variant in ("bp-1g", "bp-32m") for index in (1, 2, 3)
    ]
    hues = [color for _, color, _ in lines]
    assert len(set(hues[:3])) == len(set(hues[3:])) == 1 and hues[0] != hues[3]
    assert len({dash for _, _, dash in lines[:3]}) == 3
    _open(page, f"{compare_site}/compare/?campaign={BUFFER_POOL}&workload=read-write")
    merged = page.eval_on_selector(
        "#compare-throughput", f"el => el._fullData.filter({SERIES}).map(t => t.name)"
    )
    assert merged == ["bp-1g", "bp-32m"]


def test_log_axes_tick_at_one_two_five(compare_site, page):
    _open(page, f"{compare_site}/compare/?campaign={BUFFER_POOL}&workload=read-write&scale=log")
    value_axes = {  # the threads axis ticks at the levels run
        "#compare-throughput": ".ytick",
        "#compare-latency": ".ytick",
        "#compare-latency-throughput": ".ytick, .xtick",
    }
    for chart, ticks in value_axes.items():
        labels = page.eval_on_selector(
            chart, f"el => [...el.querySelectorAll('{ticks}')].map(t => t.textContent)"
        )
        assert len(labels) >= 2
        leading = {f"{float(label.replace(',', '')):e}"[0] for label in labels}
        assert leading <= {"1", "2", "5"}, labels


def _counted_ids(runs: list[dict], campaign: str) -> list[str]:
    mine = [run for run in runs if run["campaign"]["id"] == campaign]
    return [run["id"] for cell in group_by_cell(mine).values() for run in counted_runs(cell)]


def test_a_ticked_run_keeps_the_url_short_and_an_old_long_url_still_works(
    compare_site, page, committed_runs
):
    _open(page, f"{compare_site}/compare/?campaign={BUFFER_POOL}&workload=read-write")
    page.click("#compare-picker summary")
    page.fill("#compare-filter", f"{AA} binlog-off update-nokey")
    extra = f"{AA}.binlog-off.update-nokey.p1"
    page.check(f"#compare-run-list input[value='{extra}']")
    page.wait_for_function("id => location.search.includes(id)", arg=extra)
    assert _query(page.url) == {
        "campaign": BUFFER_POOL,
        "runs": extra,
        "workload": "read-write",
        "base": f"{BUFFER_POOL} bp-1g",  # two campaigns on screen: labels name theirs
        "metric": "tps",
        "scale": "lin",
    }
    page.fill("#compare-filter", f"{BUFFER_POOL} bp-1g read-write")
    page.uncheck(f"#compare-run-list input[value='{BUFFER_POOL}.bp-1g.read-write.p3']")
    page.wait_for_function("() => location.search.includes('variants=')")
    query = _query(page.url)
    assert query["variants"] == "bp-1g~1,bp-1g~2,bp-32m"
    assert query["runs"] == f"{BUFFER_POOL}.bp-1g.point-select.p3,{extra}"
    assert page.text_content("#compare-count") == "12"
    bp_ids = _counted_ids([run for _, run in committed_runs], BUFFER_POOL)
    selected = [*(i for i in bp_ids if i != f"{BUFFER_POOL}.bp-1g.read-write.p3"), extra]
    assert len(urlparse(page.url).query) < len(",".join(selected)) / 2
    # the passes left of bp-1g are not the whole cell: drawn one by one
    names = page.eval_on_selector(
        "#compare-throughput", f"el => el._fullData.filter({SERIES}).map(t => t.name)"
    )
    assert names == [f"{BUFFER_POOL} {name}" for name in ("bp-1g #1", "bp-1g #2", "bp-32m")]
    # a link that names every run by id, as the page wrote them before, shows the same view
    # and is rewritten short
    ids = [*bp_ids, extra]
    _open(page, f"{compare_site}/compare/?runs={','.join(ids)}&workload=read-write")
    assert page.text_content("#compare-count") == str(len(ids))
    assert _query(page.url)["campaign"] == BUFFER_POOL and _query(page.url)["runs"] == extra
    names = page.eval_on_selector(
        "#compare-throughput", f"el => el._fullData.filter({SERIES}).map(t => t.name)"
    )
    assert names == [f"{BUFFER_POOL} bp-1g", f"{BUFFER_POOL} bp-32m"]


def _compare_fetches(page, url: str) -> list[str]:
    """Opens the view at url; the compare index's files it fetched (catalogue, campaigns)."""
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(urlparse(request.url).path))
    _open(page, url)
    return [path for path in fetched if path.startswith("/compare/") and path.endswith(".json")]


def test_a_campaign_view_fetches_the_catalogue_and_that_campaign_only(compare_site, page):
    fetched = _compare_fetches(page, f"{compare_site}/compare/?campaign={BUFFER_POOL}")
    assert len(fetched) == 2 and fetched[0].startswith("/compare/catalogue.")
    assert fetched[1] == f"/compare/{BUFFER_POOL}.json"


def test_a_pasted_url_of_two_campaigns_fetches_those_two(compare_site, page, committed_runs):
    extra = f"{AA}.binlog-off.update-nokey.p1"
    url = f"{compare_site}/compare/?campaign={BUFFER_POOL}&runs={extra}&workload=read-write"
    fetched = _compare_fetches(page, url)
    assert fetched[0].startswith("/compare/catalogue.")
    assert sorted(fetched[1:]) == sorted([f"/compare/{BUFFER_POOL}.json", f"/compare/{AA}.json"])
    counted = _counted_ids([run for _, run in committed_runs], BUFFER_POOL)
    assert page.text_content("#compare-count") == str(len(counted) + 1)
    names = page.eval_on_selector(
        "#compare-throughput", f"el => el._fullData.filter({SERIES}).map(t => t.name)"
    )
    assert names == [f"{BUFFER_POOL} bp-1g", f"{BUFFER_POOL} bp-32m"]


def _flag_sides() -> list[list[list[str]]]:
    """Crafted sides: each a list of passes, each pass its flag kinds."""
    kinds = list(FLAG_KINDS)
    sides: list[list[list[str]]] = []
    for passes in range(1, 6):
        for flagged in range(passes + 1):
            fit = [[] for _ in range(passes - flagged)]
            sides.append([*fit, *([kinds[(i * 2) % len(kinds)]] for i in range(flagged))])
    sides.append([["transient", "steal"], ["transient"], []])
    sides.append([["unsteady", "inherited", "client"], [], [], ["inherited"]])
    return sides


def _python_side(side: list[list[str]]) -> dict:
    stats = {
        **spread([100.0] * len(side)),
        "flags": [[{"kind": kind} for kind in kinds] for kinds in side],
    }
    stats["unflagged"] = spread([100.0 for kinds in side if not kinds])
    return stats


def test_the_flagged_pass_rule_in_js_is_the_generator_s(browser):
    """js/compare/flags.js against analysis/ratios.py and pages/ratio_cells.py on crafted sides:
    how many passes are flagged and by what, which passes a side is judged on, whether a cell
    of two sides is greyed and why, and the words a cell's title gives its flags."""
    index = compare_index([])
    sides = _flag_sides()
    pairs = [(own, base) for own in sides[::3] for base in sides[::4]]
    expected = {
        "counts": [pass_flags(_python_side(side)) for side in sides],
        "judged": [_judged_on(_python_side(side)) for side in sides],
        "words": [flag_words(pass_flags(_python_side(side))) for side in sides],
        "greyed": [
            why_not_judged(_python_side(own), _python_side(base))
            if None in (judged_stats(_python_side(own)), judged_stats(_python_side(base)))
            else None
            for own, base in pairs
        ],
        "keeps": [[keeps_enough(n, k) for k in range(n + 1)] for n in range(1, 8)],
    }
    masks = [[flag_mask([{"kind": kind} for kind in kinds]) for kinds in side] for side in sides]
    with served(REPO / "site" / "assets" / "js") as url:
        context = browser.new_context()
        page = context.new_page()
        page.goto(url + "/")
        shown = page.evaluate(
            """async ([flags, masks, pairs]) => {
                 const m = await import('/compare/flags.js');
                 const index = { flags };
                 const entry = (side) => ({ runs: side.map(String), steps: [[8]], passes: [side.length], flags: [side] });
                 const counts = masks.map((side) => m.passFlags(index, entry(side), 8));
                 const greyed = pairs.map(([own, base]) => {
                   const [mine, theirs] = [own, base].map((i) => counts[i]);
                   return [m.judgedOn(mine), m.judgedOn(theirs)].includes(null) ? m.whyNotJudged(mine, theirs) : null;
                 });
                 return {
                   counts,
                   judged: counts.map((counted) => m.judgedOn(counted)),
                   words: counts.map((counted) => m.flagWords(index, counted)),
                   greyed,
                   keeps: [1, 2, 3, 4, 5, 6, 7].map((n) => [...Array(n + 1).keys()].map((k) => m.keepsEnough(n, k))),
                 };
               }""",
            [
                index["flags"],
                masks,
                [[sides.index(own), sides.index(base)] for own, base in pairs],
            ],
        )
        context.close()
    assert shown == expected
    assert {None, "all", "unflagged"} <= set(expected["judged"])  # every outcome was crafted


def _judged_on(stats: dict) -> str | None:
    judged = judged_stats(stats)
    return None if judged is None else "all" if judged is stats else "unflagged"
