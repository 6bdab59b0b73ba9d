"""The committed site's charts and lists as built: every chart shows a drawing that exists at
the box's size (only the page's first loaded eagerly), no chart config lets a request leave the
site, Insert Benchmark runs show their own headline figure, and numbers print by one rule."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.figures.plotly_config import CLOUD_KEYS
from generator.figures.svg import DRAWING_SIZE
from generator.pages.numbers import format_number
from tests.helpers.page_pool import map_pages

# Hosts a chart could upload to or link to; none may appear in the site's own code or data.
CLOUD_HOSTS = ("plot.ly", "plotly.com", "chart-studio")
ALLOWED_BUTTONS = {"toImage", "resetScale2d"}


class _ConfigReader(HTMLParser):
    """The #plotly-config JSON of a page, and whether the page draws charts."""

    def __init__(self) -> None:
        super().__init__()
        self.config_text: str | None = None
        self.charts = 0
        self._in_config = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script" and attributes.get("id") == "plotly-config":
            self._in_config = True
            self.config_text = ""
        if "data-plotly-src" in attributes or "chart-plot" in (attributes.get("class") or ""):
            self.charts += 1

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_config = False

    def handle_data(self, data):
        if self._in_config:
            self.config_text += data


class _DrawingReader(HTMLParser):
    """The attributes of each chart box's static drawing, in page order (None: a box without)."""

    def __init__(self) -> None:
        super().__init__()
        self.drawings: list[dict[str, str | None] | None] = []
        self._open_box = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "data-plotly-src" in attributes:
            self.drawings.append(None)
            self._open_box = True
        elif self._open_box and tag == "img" and "chart-static" in (attributes.get("class") or ""):
            self.drawings[-1] = attributes
        elif self._open_box and tag != "img":
            self._open_box = False

    @property
    def charts(self) -> int:
        return len(self.drawings)


def _readers(page: Path) -> tuple[_DrawingReader, _ConfigReader]:
    text = page.read_text()
    drawings, config = _DrawingReader(), _ConfigReader()
    drawings.feed(text)
    config.feed(text)
    return drawings, config


@pytest.fixture(scope="module")
def readers(built_site) -> dict[Path, tuple[_DrawingReader, _ConfigReader]]:
    """Each built page's readers, fed once for the tests of this module."""
    _, public = built_site
    return map_pages(_readers, sorted(public.rglob("*.html")))


def _chart_pages(readers: dict, reader_type: type) -> list:
    """(page, its reader_type) for every built page holding a chart."""
    return [
        (page, reader)
        for page, pair in readers.items()
        for reader in pair
        if isinstance(reader, reader_type) and reader.charts
    ]


def test_every_chart_shows_an_existing_drawing_and_only_the_first_loads_eagerly(
    built_site, readers
):
    _, public = built_site
    pages = _chart_pages(readers, _DrawingReader)
    assert len(pages) > 100
    for page, reader in pages:
        assert None not in reader.drawings, f"{page}: a chart box without its drawing"
        loading = [drawing["loading"] for drawing in reader.drawings]
        assert loading == ["eager"] + ["lazy"] * (len(loading) - 1), page
        for drawing in reader.drawings:
            assert drawing["alt"], (page, drawing["src"])
            svg = public / drawing["src"].lstrip("/")
            assert svg.is_file(), (page, drawing["src"])
            root = ET.parse(svg).getroot()
            size = {key: int(root.get(key)) for key in ("width", "height")}
            assert {key: int(drawing[key]) for key in size} == DRAWING_SIZE, page
            assert size == DRAWING_SIZE, svg  # the box is the drawing's size: nothing jumps


def _assert_safe(config: dict, where: str) -> None:
    for key in CLOUD_KEYS:
        assert not config.get(key), (where, key)
    assert config.get("displaylogo") is False, where
    assert config.get("plotlyServerURL") == "", where
    buttons = {button for group in config["modeBarButtons"] for button in group}
    assert buttons <= ALLOWED_BUTTONS, (where, buttons)


def test_no_chart_config_lets_a_request_leave_the_site(built_site, readers):
    _, public = built_site
    pages_with_charts = _chart_pages(readers, _ConfigReader)
    assert len(pages_with_charts) > 100
    for page, reader in pages_with_charts:
        assert reader.config_text, f"{page}: charts without the site's Plotly config"
        _assert_safe(json.loads(reader.config_text), str(page))
    figures = list((public / "figures").rglob("*.json"))
    assert figures
    for path in figures:
        figure = json.loads(path.read_text())
        assert set(figure) <= {"data", "layout"}, path  # a figure carries no config of its own
        assert "modebar" not in figure["layout"], path
    scripts = [p for p in public.rglob("*.js") if "vendor" not in p.parts]
    assert scripts
    for path in scripts:
        text = path.read_text()
        for word in (*CLOUD_KEYS, "displaylogo", "modeBarButtons", *CLOUD_HOSTS):
            assert word not in text, (path, word)  # only the page's config sets them
    for path in [*public.rglob("*.html"), *figures]:
        text = path.read_text()
        assert not any(host in text for host in CLOUD_HOSTS), path


def _run_list_rows(public: Path) -> dict[str, str]:
    """Run id -> the headline cell's text, from the run lists: the home page's latest runs and
    the /browse/ pages without JavaScript (every run)."""
    pages = [public / "index.html", *sorted((public / "browse").glob("**/index.html"))]
    rows = []
    for page in pages:
        rows += re.findall(
            r'<a href="/runs/([^/"]+)/">[^<]*</a>.*?<td class="n">(.*?)</td></tr>',
            page.read_text(),
            re.DOTALL,
        )
    return {run_id: re.sub(r"<[^>]+>", "", cell).strip() for run_id, cell in rows}


def test_run_lists_show_insert_benchmark_runs_by_their_load_rate(built_site, committed_runs):
    _, public = built_site
    rows = _run_list_rows(public)
    runs = {run["id"]: run for _, run in committed_runs}
    ibench = [run_id for run_id in rows if runs[run_id]["workload"]["tool"] == "ibench"]
    assert ibench, "the run lists show no Insert Benchmark run"
    for run_id in ibench:
        load = next(step for step in runs[run_id]["steps"] if step["step"] == "l.i0")
        assert load["inserts_per_s"] > 0
        assert rows[run_id] == f"{format_number(load['inserts_per_s'])} l.i0 inserts/s"


def test_the_templates_print_numbers_as_python_does(built_site, committed_runs):
    _, public = built_site
    run = next(run for _, run in committed_runs if run["workload"]["tool"] == "sysbench")
    page = (public / "runs" / run["id"] / "index.html").read_text()
    for step in run["steps"]:
        for value in (step["tps"], step["latency_ms"]["p95"], step["latency_ms"]["max"]):
            assert f"<td>{format_number(value)}</td>" in page, value
