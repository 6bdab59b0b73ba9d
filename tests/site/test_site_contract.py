"""The names generator/hugo/site_contract.py gives the build dir's files and figures, checked
against what the templates (layouts/) and the site's scripts (site/assets/js/) ask for, in both
directions where a name can be read from the source: every hugo.Data key a template reads is
generated, every generated data folder is read, the run page file is the asset the run
helper reads; every figure id a template names
is in the contract, and every contract figure is asked for; the generated files all follow the
contract's paths."""

from __future__ import annotations

import re

import pytest

from generator.analysis.ratios import METRICS
from generator.hugo import site_contract as site
from generator.hugo.build_tree import hugo_inputs
from generator.hugo.load import load_runs
from generator.pages.compare_index import COMPARE_METRICS
from tests.helpers.paths import FIXTURE_RUNS, REPO

LAYOUTS = REPO / "layouts"
SCRIPTS = REPO / "site" / "assets" / "js"


def _text(root, pattern: str) -> str:
    return "\n".join(path.read_text() for path in sorted(root.rglob(pattern)))


@pytest.fixture(scope="module")
def templates() -> str:
    adapters = _text(REPO / "content", "_content.gotmpl")  # content adapters are templates too
    return _text(LAYOUTS, "*.html") + _text(LAYOUTS, "*.xml") + adapters


@pytest.fixture(scope="module")
def scripts() -> str:
    return _text(SCRIPTS, "*.js")


@pytest.fixture(scope="module")
def generated() -> dict[str, bytes]:
    return hugo_inputs(load_runs([FIXTURE_RUNS]))


def _data_key(path: str) -> str:
    """data/campaignindex -> campaignindex, data/drilldown.json -> drilldown."""
    return path.removeprefix(site.DATA + "/").removesuffix(".json")


def test_every_hugo_data_key_a_template_reads_is_generated_or_mounted(templates):
    read = set(re.findall(r"hugo\.Data\.(\w+)", templates))
    produced = {_data_key(path) for path in site.GENERATED_DATA}
    assert read and read <= produced


def test_every_generated_data_folder_is_read_by_a_template(templates):
    for path in site.GENERATED_DATA:
        assert f"hugo.Data.{_data_key(path)}" in templates, path


def test_run_and_campaign_pages_read_their_own_files_at_the_contract_paths(templates):
    for folder, path_of in (
        (site.RUN_PAGES, site.run_page_file),
        (site.CAMPAIGN_PAGES, site.campaign_page_file),
    ):
        assert f'printf "{folder.removeprefix(site.ASSETS + "/")}/%s.json" .id' in templates
        assert path_of("x") == f"{folder}/x.json"
    variables = site.VARIABLES_PAGES.removeprefix(site.ASSETS + "/")
    assert f'printf "{variables}/%s.json" .key' in templates
    assert site.variables_page_file("x") == f"{site.VARIABLES_PAGES}/x.json"
    steps = site.STEPS_PAGES.removeprefix(site.ASSETS + "/")
    assert f'printf "{steps}/%s.json" .id' in templates
    assert site.steps_page_file("x") == f"{site.STEPS_PAGES}/x.json"


def test_the_indexes_are_the_assets_templates_fetch(templates):
    for path in (site.COMPARE_CATALOGUE, site.BROWSE_FILTERS):
        assert f'resources.Get "{path.removeprefix(site.ASSETS + "/")}"' in templates


def test_the_figures_are_the_static_files_templates_link(templates):
    figures = site.FIGURES_DIR.removeprefix(site.STATIC + "/")
    assert f'"{figures}/runs/%s/%s.json"' in templates
    assert f'"{figures}/campaigns/%s/%s/%s.json"' in templates
    # chart.html turns a figure's URL path into its download stem under static/
    assert f'strings.TrimPrefix "{figures}/"' in templates
    assert "resources.Get .figure" not in templates  # linked, never a resource Hugo tracks


def test_run_downloads_are_the_files_pages_link_and_scripts_fetch(templates, scripts):
    for name in (site.RUN_DOCUMENT, site.MY_CNF):
        assert f'"runs/%s/{name}"' in templates
    assert f"/{site.RUN_DOCUMENT}`" in scripts  # js/drilldown.js: `${runsBase}${id}/run.json`


def test_figure_ids_templates_ask_for_are_in_the_contract(templates):
    asked = set(re.findall(r'"fig" "([\w-]+)"', templates))
    assert asked and asked <= set(site.RUN_FIGURES) | set(site.CAMPAIGN_FIGURE_METRICS)
    assert set(site.RUN_FIGURES) <= asked  # runs/page.html draws each
    assert set(site.CAMPAIGN_FIGURE_METRICS) <= asked  # campaigns/page.html draws each


def test_figure_id_prefixes_are_those_templates_build(templates):
    assert f'(printf "{site.IBENCH_FIGURE_PREFIX}%s" .slug)' in templates
    assert f'"figures/runs/%s/{site.IBENCH_FIGURE_PREFIX}%s.json"' in templates
    assert f'"figures/runs/%s/{site.IBENCH_HISTOGRAM_PREFIX}%s.json"' in templates
    assert site.ibench_figure("l.i0") == "ibench-l-i0"


def test_each_run_figure_has_the_table_partial_its_printf_names(templates):
    assert '(printf "run/table-%s.html" .fig)' in templates
    for figure in site.RUN_FIGURES:
        assert (LAYOUTS / "_partials" / "run" / f"table-{figure}.html").is_file(), figure


def test_campaign_figures_map_to_the_ratio_table_metrics_as_the_template_does():
    text = (LAYOUTS / "_partials" / "campaign" / "figure.html").read_text()
    pairs = re.search(r"\$metric := index \(dict ([^)]*)\) \.fig", text).group(1).split()
    in_template = dict(zip(pairs[::2], pairs[1::2], strict=True))
    assert {k.strip('"'): v.strip('"') for k, v in in_template.items()} == (
        site.CAMPAIGN_FIGURE_METRICS
    )
    # qps: drawn only for a workload whose runs give QPS and no TPS (a published table)
    assert set(site.CAMPAIGN_FIGURE_METRICS.values()) == {*METRICS, "qps"}


def test_metric_names_are_one_across_tables_shortcodes_and_scripts(templates, scripts):
    assert set(METRICS) <= set(COMPARE_METRICS)
    for name in re.findall(r"index\.metrics\.(\w+)", scripts):
        assert name in COMPARE_METRICS
    # campaign/ratios.html (one table per metric a workload shows: ratios.shown_metrics) and
    # the compare shortcode's metrics
    assert 'slice "tps" "qps" "p95"' in templates


def test_every_generated_file_is_at_a_contract_path(generated):
    runs = {path.split("/")[2] for path in generated if path.startswith(site.RUNS_STATIC + "/")}
    for path in generated:
        top = path.split("/")[0]
        assert top in site.OWNED_SUBDIRS, path
        if top == site.DATA:
            assert any(
                path == folder or path.startswith(folder + "/") for folder in site.GENERATED_DATA
            ), path
    for run_id in runs:
        assert site.run_static(run_id, site.RUN_DOCUMENT) in generated
        assert site.run_page_file(run_id) in generated
    figures = [path for path in generated if site.is_figure(path)]
    ids = {path.rsplit("/", 1)[1].removesuffix(".json") for path in figures}
    known = set(site.RUN_FIGURES) | set(site.CAMPAIGN_FIGURE_METRICS)
    prefixes = (site.MONITOR_FIGURE_PREFIX, site.IBENCH_FIGURE_PREFIX)
    assert ids and all(i in known or i.startswith(prefixes) for i in ids), ids
    for figure in figures:
        for extension in ("csv", "svg"):
            assert f"{site.figure_download_stem(figure)}.{extension}" in generated
        assert site.figure_data_download(figure) in generated
