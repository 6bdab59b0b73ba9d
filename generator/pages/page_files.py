"""The page files Hugo reads, as types: a run page's (assets/pages/runs/<run>.json, built by
run_page.py) and a campaign page's (assets/pages/campaigns/<campaign>.json, ratio_cells.py).

These are the fields a template may read. tests/site/test_page_file_reads.py holds both sides
to them: every field a template reads through a variable bound to a page file (`$data :=
partial "helpers/run.html" ...`, `$campaign.workloads`, a cell's texts) must be declared here,
and every page file the generator writes must hold only declared fields and every required
one. A part whose fields no template reads by name past this level stays `dict[str, Any]`.

A campaign table cell keeps its texts packed in one string (`shown`, ratio_cells.py, for the
size of a long sweep's page file); CellTexts names them in the order they are packed, and
layouts/_partials/helpers/cell-texts.html unpacks them into a map with these names, so a
template reads `$texts.interval`, never a position.
"""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated hints.
from typing import Any, NotRequired, TypedDict

from contract import RunDocument
from generator.analysis.hosts import RunHost
from generator.replay.script import ReplayPage


class CellTexts(TypedDict):
    """A campaign table cell's texts, in packing order. range: the repeats' lowest to highest,
    when there are several; marker_words: what the marker says to a screen reader;
    interval_method: "per-second samples" earns the interval a footnote; repeats: how many and
    their spread, printed only in a table where some cell has repeats; flag_mark: "⚑ 2/3" when
    some of the cell's passes are flagged (analysis/verdict.py); flags: how many of how many
    and by what kinds, for every cell resting on judged steps."""

    value: str
    range: str
    ratio: str
    title: str
    marker: str
    marker_words: str
    interval: str
    interval_method: str
    no_interval: str
    repeats: str
    flag_mark: str
    flags: str


CELL_TEXTS: tuple[str, ...] = tuple(CellTexts.__annotations__)


class RunFacts(TypedDict):
    """What the run page says about the run beyond its document (run_facts.py)."""

    host: RunHost
    memory: dict[str, Any] | None
    passes: list[dict[str, Any]]
    trust: list[dict[str, Any]]
    flag_kinds: list[dict[str, str]]
    disclosure: dict[str, Any]
    build: dict[str, Any]
    provenance: dict[str, Any]
    headline: dict[str, Any]
    redacted_plain: list[str]
    overrides: dict[str, Any]
    origin: dict[str, Any] | None


class RunPageFile(TypedDict):
    """All a run page reads (run_page.py): the run document without its per-second samples, the
    fields shown only as tables and the server variables (those have files of their own)."""

    run: RunDocument
    facts: RunFacts
    variables_key: str
    replay: ReplayPage
    sequence: dict[str, Any]
    tables: dict[str, Any] | None
    step_tables: dict[str, Any] | None
    monitor: dict[str, Any] | None
    waits: dict[str, Any] | None
    ibench: dict[str, Any] | None
    original: dict[str, Any] | None
    profiles: dict[str, Any] | None
    figures: list[str]
    pfs_waits: dict[str, Any] | None


class CampaignWorkload(TypedDict):
    """One sysbench workload of a campaign: its variants' cells and ratio tables by metric."""

    name: str
    options: NotRequired[dict[str, str]]
    note: NotRequired[str]
    variants: list[str]
    cells: list[dict[str, Any]]
    metrics: dict[str, dict[str, Any]]
    across_hosts: list[dict[str, Any]]
    write_debt: dict[str, Any] | None


class CampaignPageFile(TypedDict):
    """All a campaign page reads (campaign.py's summary with its cells' texts packed, and the
    differential profiles)."""

    id: str
    name: str
    title: str
    description: str
    file: str
    started_at: str
    ended_at: str
    variants: list[str]
    base: str
    bases: list[str]
    base_of: dict[str, str]
    run_ids: list[str]
    hosts: list[dict[str, Any]]
    workloads: list[CampaignWorkload]
    config_diff: dict[str, Any]
    config_not_recorded: list[str]
    mapped_options: list[dict[str, Any]]
    suite: dict[str, Any] | None
    tpcc: dict[str, Any] | None
    ibench: dict[str, Any] | None
    disclosure: dict[str, Any]
    drift: list[dict[str, Any]]
    builds: dict[str, Any] | None
    printed_ratios: dict[str, Any] | None
    trust: dict[str, Any]
    server_starts: list[dict[str, Any]]
    profiles: list[dict[str, Any]]
