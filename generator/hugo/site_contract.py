"""Every path and figure id the generator and the Hugo templates (layouts/, site/assets/js/)
agree on. The generator writes only under these names; tests/site/test_site_contract.py reads
the templates and checks both directions.

The build dir is mounted into the site by site/hugo.toml: build/assets -> assets (read with
resources.Get), build/data -> data (read as hugo.Data.<folder>), build/static -> static
(served as is). The figures are static: a template only links them (the browser fetches and
draws them), and a file Hugo merely copies costs it no resource to track for the whole build;
`hugo server` copies a changed one without rebuilding a page. No run document is mounted: Hugo parses every data file at start-up, so what
one run page reads is one asset per run, parsed only by that page (generator/pages/run_page.py).

build_dir/
  static/figures/runs/<run>/<fig>.json      Plotly figure of a run page: _partials/run/figure.html
                                            (fig: RUN_FIGURES, monitor-<family>, ibench-<step>;
                                            those the run has are its page file's "figures"),
                                            ibench/step-charts.html; drawn by _partials/chart.html
  static/figures/campaigns/<campaign>/<workload>/<fig>.json
                                            campaign overlay: _partials/campaign/figure.html
                                            (fig: CAMPAIGN_FIGURE_METRICS, one per metric table)
  static/figures/campaigns/<campaign>/series-<metric>.json
                                            a release series (figures/series.py):
                                            _partials/campaign/series.html
  static/figures/history/<name>/<host>/<workload>/<variant>-<metric>.json
                                            a recurring campaign's history chart
                                            (figures/history.py): history/page.html, named by
                                            the history data file's charts
  assets/compare/catalogue.json             the compare page's catalogue (pages/compare_split.py):
                                            _partials/scripts.html, read by js/compare/catalogue.js
  assets/browse/filters.json                what /browse/'s filters match, every run
                                            (pages/browse_split.py): _partials/scripts.html, js/browse.js
  assets/browse/pages/<n>.json              /browse/ rows, file n counted from the oldest runs: browse/section.html,
                                            browse/page.html (the list without JavaScript), fetched
                                            by js/browse.js
  assets/pages/runs/<run>.json              all a run page reads (pages/run_page.py): the run
                                            document without per-second samples, its facts (memory
                                            fit, passes, trust, disclosure, plain settings an earlier
                                            harness redacted), tables, monitor means, Reproduce list,
                                            Insert Benchmark report, reproduced original:
                                            helpers/run.html (runs/page.html, the run shortcodes)
  assets/pages/steps/<run>.json             the run's steps without samples (pages/run_page.py):
                                            helpers/run-steps.html (the fact shortcode alone)
  assets/pages/variables/<key>.json         one server variables table (pages/run_page.py):
                                            helpers/variables.html (run/variables.html, fact)
  data/runindex.json                        one entry per run page (path, title, date, params):
                                            hugo.Data.runindex (content/runs/_content.gotmpl)
  data/hosts.json                           each host's storage measurements (fio), by its name
                                            (pages/storage.py): hugo.Data.hosts
                                            (_partials/hosts/storage.html on term.html)
  data/browse.json                          how many /browse/ pages and runs: hugo.Data.browse
                                            (browse/_content.gotmpl, _partials/browse/pages.html)
  assets/pages/campaigns/<campaign>.json    a campaign summary (pages/campaign.py), its table cells
                                            with their texts packed (pages/ratio_cells.py):
                                            helpers/campaign.html (campaigns/page.html, the campaign
                                            shortcodes), page.html
  data/campaignindex/<campaign>.json        a campaign page's path, title, date, params
                                            (pages/campaign_index.py): hugo.Data.campaignindex
                                            (content/campaigns/_content.gotmpl)
  data/history/<name>.json                  a recurring campaign's history page and its changes
                                            (pages/history.py): hugo.Data.history
                                            (content/history/_content.gotmpl, history/page.html,
                                            changes/section.html)
  data/drilldown.json                       monitoring families for the point drill-down:
                                            hugo.Data.drilldown (_partials/scripts.html)
  data/plotly.json                          the Plotly config of every chart: hugo.Data.plotly
                                            (_partials/scripts.html writes it into the page for
                                            js/plot.js)
  data/drawing.json                         the one size of every figure's static drawing
                                            (figures/svg.py): hugo.Data.drawing (_partials/chart.html)
  data/schemadoc/<schema>.json              the guide's key tables: hugo.Data.schemadoc (schema shortcode)
  static/compare/<campaign>.json            one campaign's part of the compare index, fetched by
                                            js/compare/catalogue.js (params.campaigns)
  static/runs/<run>/run.json, my.cnf, replay.sh
                                            download links of runs/page.html; run.json is also
                                            fetched by js/drilldown.js
  static/runs/<run>/flame-<step key>.svg    a profiled step's flame graph (figures/flamegraph.py):
                                            embedded by run/profiles.html from the run page file's
                                            profiles.steps[].svg
  static/runs/<run>/profile-shares.json      a profiled run's function shares per step
                                            (pages/profiles.share_file): fetched by
                                            js/compare/profiles.js for runs the compare index
                                            marks "profiled"
  static/campaigns/<campaign>/profiles/<workload>/<variant>/<threads>.svg
                                            a campaign cell's differential flame graph, embedded
                                            by its page (campaign/profile-diff.html) at the same
                                            path without .svg, which the campaign index's
                                            profile_pages make (campaigns/_content.gotmpl)
  static/<owner>/<fig>.csv, .svg            each figure's data and drawing: _partials/chart.html
  static/<owner>/figures.json               the data of every figure of that owner, by figure id:
                                            linked by _partials/chart.html as each chart's JSON
  static/provenance/<sha256>.diff           the uncommitted changes a campaign ran with, as stored
                                            beside the results: linked by run/repro.html through
                                            the run page file's facts.provenance.snapshot.diff_url
  .cache/<kind>/<key>                       the generator's own cache (generator/hugo/cache.py):
                                            not mounted, read by no template
  .staging/                                 files being written (generator/hugo/tree_sync.py),
                                            renamed into place from here: not mounted
"""

from __future__ import annotations

ASSETS, DATA, STATIC = "assets", "data", "static"
OWNED_SUBDIRS = (ASSETS, DATA, STATIC)  # the build dir's folders the generator keeps in sync
CACHE_DIR = ".cache"  # derived files by the hash of their inputs, for the next build
STAGING_DIR = ".staging"  # files being written, outside what `hugo server` watches

FIGURES_DIR = f"{STATIC}/figures"
COMPARE_CATALOGUE = f"{ASSETS}/compare/catalogue.json"
BROWSE_FILTERS = f"{ASSETS}/browse/filters.json"
BROWSE_PAGES = f"{ASSETS}/browse/pages"
RUN_PAGES = f"{ASSETS}/pages/runs"
CAMPAIGN_PAGES = f"{ASSETS}/pages/campaigns"
VARIABLES_PAGES = f"{ASSETS}/pages/variables"
STEPS_PAGES = f"{ASSETS}/pages/steps"

# hugo.Data.<key> -> the folder or file the generator writes it to.
CAMPAIGN_INDEX_DATA = f"{DATA}/campaignindex"
HISTORY_DATA = f"{DATA}/history"
DRILLDOWN_DATA = f"{DATA}/drilldown.json"
PLOTLY_DATA = f"{DATA}/plotly.json"
DRAWING_DATA = f"{DATA}/drawing.json"
SCHEMADOC_DATA = f"{DATA}/schemadoc"
BROWSE_DATA = f"{DATA}/browse.json"
RUN_INDEX = f"{DATA}/runindex.json"
HOSTS_DATA = f"{DATA}/hosts.json"
GENERATED_DATA = (
    CAMPAIGN_INDEX_DATA, DRILLDOWN_DATA, PLOTLY_DATA, DRAWING_DATA, SCHEMADOC_DATA, BROWSE_DATA,
    RUN_INDEX, HOSTS_DATA, HISTORY_DATA,
)  # fmt: skip

RUNS_STATIC = f"{STATIC}/runs"
COMPARE_STATIC = f"{STATIC}/compare"
RUN_DOCUMENT = "run.json"
MY_CNF = "my.cnf"
REPLAY_SH = "replay.sh"

# Figure ids of a sysbench run page; each has a data table partial run/table-<fig>.html.
RUN_FIGURES = ("tps", "latency", "series")
# Campaign overlay figure id -> the metric of the campaign's ratio tables it draws.
CAMPAIGN_FIGURE_METRICS = {"tps": "tps", "qps": "qps", "latency": "p95"}
MONITOR_FIGURE_PREFIX = "monitor-"  # + a family of generator/pages/monitor.py
IBENCH_FIGURE_PREFIX = "ibench-"  # + a step slug: per-second rates and the slowest statement
IBENCH_HISTOGRAM_PREFIX = "ibench-hist-"  # + a step slug: response-time histogram


def data_file(folder: str, name: str) -> str:
    """data/<folder>/<name>.json: hugo.Data.<folder>.<name>."""
    return f"{folder}/{name}.json"


def run_figure(run_id: str, figure: str) -> str:
    return f"{FIGURES_DIR}/runs/{run_id}/{figure}.json"


def campaign_figure(campaign_id: str, workload: str, figure: str) -> str:
    return f"{FIGURES_DIR}/campaigns/{campaign_id}/{workload}/{figure}.json"


def campaign_series_figure(campaign_id: str, figure: str) -> str:
    """figure: series-throughput or series-instructions (figures/series.py)."""
    return f"{FIGURES_DIR}/campaigns/{campaign_id}/{figure}.json"


def history_figure(name: str, host: str, workload: str, figure: str) -> str:
    """A recurring campaign's history chart: host is the host's short fingerprint, figure
    <variant>-<metric> (pages/history.py)."""
    return f"{FIGURES_DIR}/history/{name}/{host}/{workload}/{figure}.json"


def campaign_figure_id(metric: str) -> str:
    """The overlay figure id that draws a metric of the campaign's ratio tables."""
    return next(fig for fig, drawn in CAMPAIGN_FIGURE_METRICS.items() if drawn == metric)


def run_static(run_id: str, name: str) -> str:
    """static/runs/<run>/<name>: run.json or my.cnf at /runs/<run>/<name>."""
    return f"{RUNS_STATIC}/{run_id}/{name}"


def flame_graph_url(run_id: str, step_key: str) -> str:
    """runs/<run>/flame-<step key>.svg: a profiled step's flame graph, relative to the site
    root (static_file of it is where the generator writes it)."""
    return f"runs/{run_id}/flame-{step_key}.svg"


PROFILE_SHARES = "profile-shares.json"  # beside run.json: run_static(run, PROFILE_SHARES)


def differential_page(campaign: str, workload: str, variant: str, threads: int) -> str:
    """<campaign>/profiles/<workload>/<variant>/<threads>: a differential flame graph's page
    under the campaign's section (its segments as pages name them: contract.page_segment)."""
    return f"{campaign}/profiles/{workload}/{variant}/{threads}"


def differential_flame_graph_url(page: str) -> str:
    """campaigns/<differential page>.svg: its flame graph beside its page, from the site root."""
    return f"campaigns/{page}.svg"


def run_page_file(run_id: str) -> str:
    """assets/pages/runs/<run>.json: everything the run's page reads."""
    return f"{RUN_PAGES}/{run_id}.json"


def campaign_page_file(campaign_id: str) -> str:
    """assets/pages/campaigns/<campaign>.json: the campaign's summary, cells packed."""
    return f"{CAMPAIGN_PAGES}/{campaign_id}.json"


def variables_page_file(key: str) -> str:
    """assets/pages/variables/<key>.json: one variables table, shared by the run pages that show
    it (key: generator/pages/run_page.variables_key)."""
    return f"{VARIABLES_PAGES}/{key}.json"


def steps_page_file(run_id: str) -> str:
    """assets/pages/steps/<run>.json: the run's steps without samples, read only by the fact
    shortcode (generator/pages/run_page.steps_file)."""
    return f"{STEPS_PAGES}/{run_id}.json"


def browse_page(number: int) -> str:
    """The /browse/ rows of file `number` (from 1, the oldest runs: pages/browse_split.py)."""
    return f"{BROWSE_PAGES}/{number}.json"


def compare_campaign_file(campaign_id: str) -> str:
    """One campaign's file of the compare index."""
    return f"{COMPARE_STATIC}/{campaign_id}.json"


def static_file(url_path: str) -> str:
    """static/<url_path>: a file served as is at /<url_path> (a stored provenance diff)."""
    return f"{STATIC}/{url_path}"


def figure_download_stem(figure_path: str) -> str:
    """static/figures/<owner>/<fig>.json -> static/<owner>/<fig>: the figure's page-relative
    URL without extension, as _partials/chart.html derives it."""
    return f"{STATIC}/" + figure_path.removeprefix(FIGURES_DIR + "/").removesuffix(".json")


FIGURE_DATA = "figures.json"  # beside an owner's figure downloads: all their data, by figure id


def figure_data_download(figure_path: str) -> str:
    """static/figures/<owner>/<fig>.json -> static/<owner>/figures.json, as _partials/chart.html
    derives it: one file for every figure of a run (or a campaign workload), not one per figure."""
    return figure_download_stem(figure_path).rsplit("/", 1)[0] + "/" + FIGURE_DATA


def figure_name(figure_path: str) -> str:
    """static/figures/<owner>/<fig>.json -> <fig>."""
    return figure_path.rsplit("/", 1)[1].removesuffix(".json")


def is_figure(path: str) -> bool:
    return path.startswith(FIGURES_DIR + "/") and path.endswith(".json")


def monitor_figure(family: str) -> str:
    return MONITOR_FIGURE_PREFIX + family


def step_slug(step_name: str) -> str:
    """l.i0 -> l-i0: an Insert Benchmark step name as part of a figure id."""
    return step_name.replace(".", "-")


def ibench_figure(step_name: str) -> str:
    return IBENCH_FIGURE_PREFIX + step_slug(step_name)


def ibench_histogram_figure(step_name: str) -> str:
    return IBENCH_HISTOGRAM_PREFIX + step_slug(step_name)
