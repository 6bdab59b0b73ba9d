"""Hugo parses every data file at start-up, for every build: a run page's data is its own asset
(generator/pages/run_page.py), parsed only by the page that shows it, and so is a campaign's
summary. The config mounts no run document and no per-run data, and a run page renders every
section from its one file (and its variables table from the file of that table)."""

from __future__ import annotations

import json
import re

import pytest

from generator import HugoError
from generator.hugo import site_contract as site
from generator.hugo.build_tree import hugo_inputs
from generator.hugo.command import overlay_mounts, run_build
from generator.hugo.load import load_runs
from generator.pages.numbers import format_number
from generator.pages.packed_rows import CELL_SEPARATOR
from generator.pages.run_page import FACT_ONLY_STEP_FIELDS, SAMPLED_STEP_FIELDS, STATUS_STEP_FIELD
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article, data_of

pytestmark = pytest.mark.site


def test_hugo_mounts_no_run_document_and_no_per_run_data(tmp_path):
    fixture_runs = load_runs([FIXTURE_RUNS])
    build = tmp_path / "build"
    data_mounts = [m["source"] for m in overlay_mounts(build) if m["target"].startswith("data")]
    assert data_mounts == [str(build / site.DATA)]
    generated = hugo_inputs(fixture_runs)
    ids = {run_file.doc["id"] for run_file in fixture_runs}
    data_files = [path for path in generated if path.startswith(site.DATA + "/")]
    assert data_files and not [path for path in data_files if any(i in path for i in ids)]
    for run_id in ids:
        page = json.loads(generated[site.run_page_file(run_id)])
        for step in page["run"]["steps"]:
            assert not {*SAMPLED_STEP_FIELDS, *FACT_ONLY_STEP_FIELDS} & set(step), run_id
    # A campaign's summary is its pages' asset too; start-up reads only its index entry.
    for campaign_id in {run_file.doc["campaign"]["id"] for run_file in fixture_runs}:
        assert site.campaign_page_file(campaign_id) in generated
        entry = json.loads(generated[site.data_file(site.CAMPAIGN_INDEX_DATA, campaign_id)])
        assert set(entry) == {"path", "title", "date", "params"}


def _monitored_sysbench_run(run_files: list) -> dict:
    """A committed sysbench run with monitoring, host and server counters."""
    return next(
        run_file.doc
        for run_file in run_files
        if run_file.doc["workload"]["tool"] == "sysbench"
        and run_file.doc["steps"]
        and {"monitor", "os", "server_status_delta"} <= set(run_file.doc["steps"][0])
    )


def _marked(page: dict) -> dict[str, str]:
    """Put a marker into what each section of the run page shows; returns section -> marker."""
    run = page["run"]
    run["server"]["my_cnf"] = "# marker-mycnf\n" + run["server"]["my_cnf"]
    run["host"]["cpu_model"] = "marker-environment"
    run["reproduce"]["harness_command"] = "marker_reproduce"
    page["facts"]["memory"]["text"] = "marker-summary"
    page["facts"]["disclosure"]["memory"]["text"] = "marker-disclosure"
    for table, marker in (("series", "marker-series"), ("counters", "marker-counters")):
        rows = page["tables"][table]["rows"]  # each one string, its first cell before a tab
        rows[0] = marker + rows[0][rows[0].index(CELL_SEPARATOR) :]
    next(iter(page["monitor"].values()))["title"] = "marker-monitoring"
    return {
        "summary": "marker-summary",
        "disclosure": "marker-disclosure",
        "series": "marker-series",
        "counters": "marker-counters",
        "monitoring": "marker-monitoring",
        "my-cnf": "marker-mycnf",
        "variables": "marker-variables",
        "environment": "marker-environment",
        "reproduce": "marker_reproduce",
    }


def test_a_run_page_renders_every_section_from_its_one_file(tmp_path, committed_runs):
    run = _monitored_sysbench_run(committed_runs)
    data = data_of(tmp_path, committed_runs, lambda other: other["id"] == run["id"])
    public = build_with_article(tmp_path, "No shortcode here.", [data])
    page_html = public / "runs" / run["id"] / "index.html"
    for section in ("summary", "throughput", "series", "monitoring", "counters", "reproduce"):
        assert f'<h2 id="{section}">' in page_html.read_text(), section

    page_file = tmp_path / "build" / site.run_page_file(run["id"])
    page = json.loads(page_file.read_text())
    markers = _marked(page)
    page_file.write_text(json.dumps(page))
    variables_file = tmp_path / "build" / site.variables_page_file(page["variables_key"])
    table = json.loads(variables_file.read_text())
    table["variables"]["marker_variable"] = "marker-variables"
    variables_file.write_text(json.dumps(table))
    run_build(tmp_path / "overlay.json", public, "/")  # Hugo alone: the generator is not rerun
    html = page_html.read_text()
    assert {section: marker for section, marker in markers.items() if marker not in html} == {}


def test_a_run_without_its_page_file_fails_the_build_naming_it(tmp_path, committed_runs):
    run = committed_runs[0].doc
    data = data_of(tmp_path, committed_runs, lambda other: other["id"] == run["id"])
    public = build_with_article(tmp_path, "No shortcode here.", [data])
    (tmp_path / "build" / site.run_page_file(run["id"])).unlink()
    with pytest.raises(HugoError, match=f'no run "{run["id"]}"'):
        run_build(tmp_path / "overlay.json", public, "/")


def test_fact_cites_a_server_variable_from_the_variables_file(tmp_path, committed_runs):
    run = committed_runs[0].doc
    name, value = min(
        (name, value)
        for name, value in run["server"]["variables"].items()
        if re.fullmatch(r"[a-z][a-z0-9_]+", str(value))  # printed as is: no number format
    )
    data = data_of(tmp_path, committed_runs, lambda other: other["id"] == run["id"])
    cite = f'{{{{< fact run="{run["id"]}" key="server.variables.{name}" >}}}}'
    public = build_with_article(tmp_path, f"Cited: CITED{cite}CITED.", [data])
    assert f"CITED{value}CITED" in (public / "posts" / "probe" / "index.html").read_text()
    unknown = cite.replace(name, "no_such_variable")
    with pytest.raises(HugoError, match="no field"):
        build_with_article(tmp_path, f"Cited: {unknown}.", [data])


def test_fact_cites_a_status_delta_from_the_steps_file(tmp_path, committed_runs):
    """The status deltas left the page file: fact still finds each step's own, by the
    document's path."""
    run = _monitored_sysbench_run(committed_runs)
    steps = run["steps"]
    last = len(steps) - 1
    # A counter whose delta differs between the first and the last step: the step index counts.
    name = min(
        name
        for name, delta in steps[last][STATUS_STEP_FIELD].items()
        if steps[0][STATUS_STEP_FIELD].get(name) not in (None, delta)
    )
    data = data_of(tmp_path, committed_runs, lambda other: other["id"] == run["id"])
    cites = " ".join(
        f'CITED{{{{< fact run="{run["id"]}" key="steps.{i}.{STATUS_STEP_FIELD}.{name}" >}}}}'
        for i in (0, last)
    )
    public = build_with_article(tmp_path, f"Cited: {cites}.", [data])
    html = (public / "posts" / "probe" / "index.html").read_text()
    for i in (0, last):
        assert f"CITED{format_number(steps[i][STATUS_STEP_FIELD][name])}" in html, i
    unknown = cites.replace(f'.{name}"', '.no_such_counter"')
    with pytest.raises(HugoError, match="no field"):
        build_with_article(tmp_path, f"Cited: {unknown}.", [data])
