"""Turn validated runs into the files Hugo mounts from the build dir (its layout, and which
template reads what: generator/hugo/site_contract.py), as derivations: units of files with the
key of their inputs, which tree_sync.py writes when they changed."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from contract import KnownChange, ProfileFile, RunDocument, is_ibench, page_segment
from generator.analysis.trust import run_trust
from generator.figures.downloads import figure_downloads
from generator.figures.downsample import thin_figure
from generator.figures.flamegraph import differential_flame_graph, flame_graph
from generator.figures.ibench import ibench_figures
from generator.figures.monitor import monitor_figures
from generator.figures.plotly_config import PLOTLY_CONFIG
from generator.figures.series import series_figures
from generator.figures.svg import DRAWING_SIZE
from generator.figures.sweep import campaign_figures, run_figures
from generator.hugo import site_contract as site
from generator.hugo.cache_keys import document_digest, key
from generator.hugo.load import PlannedRun, RunFile, planned, read_document, read_profile
from generator.hugo.parallel import in_order
from generator.hugo.provenance_files import stored_diffs
from generator.pages.browse import browse_entries, joined_browse_index
from generator.pages.browse_split import browse_filters, browse_pages
from generator.pages.campaign import summarize_campaign
from generator.pages.campaign_index import campaign_index_entry
from generator.pages.compare_index import compare_index
from generator.pages.compare_split import compare_catalogue, split_compare_index
from generator.pages.history import history_files
from generator.pages.monitor import family_rules
from generator.pages.pfs_waits import waits_index_entry, waits_section
from generator.pages.profiles import campaign_profiles, run_flame_graphs, share_file
from generator.pages.ratio_cells import campaign_page
from generator.pages.run_page import run_index_entry, run_page, steps_file, variables_file
from generator.pages.run_sequence import earlier_runs
from generator.pages.schema_doc import schema_docs
from generator.pages.storage import host_measurements, host_pages
from generator.replay.script import replay_script


def _json_bytes(value: object) -> bytes:
    """JSON as Hugo and the browser read it, compact (Python's C encoder; indentation would
    take its slow one): NaN or Infinity (which JSON lacks) raise here."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _with_figures(files: dict[str, bytes], figures: dict[str, dict[str, Any]]) -> dict[str, bytes]:
    """files plus the figures (path -> figure), each as the browser draws it (thinned), and
    their downloads (from the whole figure: every point)."""
    drawn = {rel: thin_figure(figure) or figure for rel, figure in figures.items()}
    files.update((rel, _json_bytes(figure)) for rel, figure in drawn.items())
    files.update(figure_downloads(figures, drawn))
    return files


# A unit's files named PIECE + name are its pieces: what a joining unit (the site-wide one) is
# derived from, cached apart from the unit's files (tree_sync.py) and never written to the build
# dir. A site-wide file with one entry per run or campaign is a piece of that unit, joined here.
PIECE = "piece:"
Pieces = dict[str, dict[str, bytes]]  # unit label (Derivation.label) -> its pieces


def split_pieces(files: dict[str, bytes]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(the files of a unit to write, its pieces)."""
    published = {rel: content for rel, content in files.items() if not rel.startswith(PIECE)}
    return published, {rel: content for rel, content in files.items() if rel.startswith(PIECE)}


def joined(pieces: Pieces, kind: str, name: str) -> list[Any]:
    """The piece `name` of every unit of `kind` that has one, parsed, in the units' order (runs
    by id, campaigns by id)."""
    prefix = f"{kind}/"
    return [
        json.loads(own[PIECE + name])
        for label, own in pieces.items()
        if label.startswith(prefix) and PIECE + name in own
    ]


def campaign_pieces(
    runs: list[RunDocument], waits_runs: list[RunDocument] | None = None
) -> dict[str, bytes]:
    """What the site-wide indexes take from a campaign: its runs' /browse/ and run index
    entries, its hosts' storage measurements and, unless all its runs are Insert Benchmark
    ones, its compare file. waits_runs (pages/pfs_waits.py) get run index entries only."""
    index = [run_index_entry(run) for run in runs]
    index += [waits_index_entry(run_index_entry(run)) for run in waits_runs or []]
    pieces = {
        PIECE + "browse": _json_bytes(browse_entries(runs)),
        PIECE + "runindex": _json_bytes(
            sorted(index, key=lambda entry: entry["params"]["run_id"])
        ),
        PIECE + "hosts": _json_bytes(host_measurements(runs)),
    }
    if compared := [run for run in runs if not is_ibench(run)]:
        (file,) = split_compare_index(compare_index(compared))[1].values()
        pieces[PIECE + "compare"] = _json_bytes(file)
    return pieces


def site_wide_files(pieces: Pieces) -> dict[str, bytes]:
    """The site-wide files, from the campaigns' pieces: indexes, configs the templates read,
    the guide's schema tables."""
    campaign_files = {
        file["campaign"]["id"]: file for file in joined(pieces, "campaign", "compare")
    }
    catalogue = compare_catalogue(compare_index([]), campaign_files)
    files: dict[str, bytes] = {
        site.COMPARE_CATALOGUE: _json_bytes(catalogue),
        site.DRILLDOWN_DATA: _json_bytes(family_rules()),
        site.PLOTLY_DATA: _json_bytes(PLOTLY_CONFIG),
        site.DRAWING_DATA: _json_bytes(DRAWING_SIZE),
    }
    browse = joined_browse_index([e for es in joined(pieces, "campaign", "browse") for e in es])
    files[site.BROWSE_FILTERS] = _json_bytes(browse_filters(browse))
    pages = browse_pages(browse)
    for page in pages:
        files[site.browse_page(page["number"])] = _json_bytes(page)
    files[site.BROWSE_DATA] = _json_bytes({"pages": len(pages), "runs": len(browse["runs"])})
    run_index = [entry for entries in joined(pieces, "campaign", "runindex") for entry in entries]
    files[site.RUN_INDEX] = _json_bytes(run_index)
    files[site.HOSTS_DATA] = _json_bytes(host_pages(joined(pieces, "campaign", "hosts")))
    for campaign_id, content in campaign_files.items():
        files[site.compare_campaign_file(campaign_id)] = _json_bytes(content)
    for name, doc in schema_docs().items():
        files[site.data_file(site.SCHEMADOC_DATA, name)] = _json_bytes(doc)
    return files


def files_of_run(
    run: RunDocument,
    cell: list[RunDocument],
    original: RunDocument | None,
    start: list[RunDocument] | None = None,
    profile: ProfileFile | None = None,
    waits_side: list[RunDocument] | None = None,
) -> dict[str, bytes]:
    """A run's derived files (cell: its campaign cell's runs, analysis.repeats.group_by_cell;
    original: the run it reproduces, when in the archive; start: the runs of its server start,
    analysis.server_starts, when known; profile: its profile file, loaded and checked, with a
    flame graph per profiled step; waits_side: pages/pfs_waits.waits_section's other side); its
    run.json and stored diff are copied by hugo_inputs."""
    trust = run_trust(run)
    figures = {}
    if run["steps"]:
        figures = ibench_figures(run) if is_ibench(run) else run_figures(run, trust)
        figures.update(monitor_figures(run))
    waits = waits_section(run, waits_side or [])
    page = run_page(run, cell, trust, original, start, profile, list(figures), waits)
    files = {
        site.run_page_file(run["id"]): _json_bytes(page),
        site.steps_page_file(run["id"]): _json_bytes(steps_file(run)),
        # The same path and bytes from every run showing this table.
        site.variables_page_file(page["variables_key"]): _json_bytes(
            variables_file(run, page["facts"])
        ),
    }
    # An imported run has a my.cnf only when the user gave one, and never replay commands.
    if "my_cnf" in run["server"]:
        files[site.run_static(run["id"], site.MY_CNF)] = run["server"]["my_cnf"].encode()
    if profile is not None:
        for rel, (title, subtitle, stacks) in run_flame_graphs(run, profile).items():
            files[site.static_file(rel)] = flame_graph(stacks, title, subtitle)
        files[site.run_static(run["id"], site.PROFILE_SHARES)] = _json_bytes(
            share_file(run, profile)
        )
    if "reproduce" in run:
        earlier = earlier_runs(run, start or [run])
        files[site.run_static(run["id"], site.REPLAY_SH)] = replay_script(run, earlier).encode()
    return _with_figures(
        files, {site.run_figure(run["id"], name): figure for name, figure in figures.items()}
    )


def files_of_campaign(
    runs: list[RunDocument], profiles: dict[str, ProfileFile] | None = None
) -> dict[str, bytes]:
    """A campaign's summary and overlay figures, from its runs; with profiles (by run id, the
    loaded profile of each run that has one), its differential cells, their flame graphs and
    pages."""
    summary = summarize_campaign(runs)
    cells = campaign_profiles(summary["id"], summary["base"], runs, profiles or {})
    differential = {}
    for cell in cells:
        base, variant = cell.pop("stacks")
        subtitle = (
            f"{summary['id']}: widths are {cell['variant']}'s samples; red grew, blue shrank"
            f" against {cell['base']}"
        )
        graph = differential_flame_graph(base, variant, cell["title"], subtitle)
        differential[site.static_file(cell["svg"])] = graph
    files = {
        site.campaign_page_file(summary["id"]): _json_bytes(
            {**campaign_page(summary), "profiles": cells}
        ),
        site.data_file(site.CAMPAIGN_INDEX_DATA, summary["id"]): _json_bytes(
            campaign_index_entry(summary, cells)
        ),
        **differential,
    }
    overlays = summary["workloads"] + ([summary["tpcc"]] if summary["tpcc"] else [])
    figures = {
        site.campaign_figure(summary["id"], workload["name"], name): figure
        for workload in overlays
        for name, figure in campaign_figures(workload).items()
    }
    if summary["suite"] and (series := summary["suite"]["series"]):
        for name, figure in series_figures(series).items():
            figures[site.campaign_series_figure(summary["id"], name)] = figure
    return _with_figures(files, figures)


class Derivation(NamedTuple):
    """One unit of generated files: derived together, cached under one key, synced together."""

    kind: str | None  # the cache's folder (site, run, campaign); None: not cached
    name: str  # what it is for (a run or campaign id)
    key: str  # the hash of everything its files depend on (cache_keys.py)
    derive: Callable[..., dict[str, bytes]]  # called with no argument, or the pieces it joins
    joins: tuple[str, ...] = ()  # the kinds of unit whose pieces derive takes, derived first

    @property
    def label(self) -> str:
        return f"{self.kind or 'copied'}/{self.name}"


def derivations(
    runs: list[PlannedRun], code: str, known: list[KnownChange] | None = None
) -> list[Derivation]:
    """Every generated file's derivation, in a fixed order: the site-wide files, each run's (its
    run.json included; its stored diff, checked on every build, beside it uncached), each
    campaign's, each recurring campaign's history. runs: the plan, in id order
    (load.plan_runs); each unit parses the documents it derives from. code: the code version
    (cache_keys.code_version) every key starts from. known: the known changes of the data dirs
    (load.load_known_changes)."""
    stamp = {run.id: f"{run.id} {run.digest}" for run in runs}
    cells: dict[tuple[str, str, str], list[PlannedRun]] = {}
    # A waits pass is set aside here, once, and never joins a cell or a campaign's figures: its
    # throughput was bought with performance_schema's cost (pages/pfs_waits.py).
    waits_cells: dict[tuple[str, str, str], list[PlannedRun]] = {}
    starts: dict[str, list[PlannedRun]] = {}
    for run in sorted(runs, key=lambda run: run.outline["order"]):  # as repeats.group_by_cell
        by_cell = waits_cells if run.outline["waits_pass"] else cells
        by_cell.setdefault(run.outline["cell"], []).append(run)
        starts.setdefault(run.outline["start"], []).append(run)
    site_key = key(code, stamp.values())
    by_id = {run.id: run for run in runs}
    found = [Derivation("site", "site", site_key, site_wide_files, joins=("campaign",))]
    for run in runs:
        measured_cell = cells.get(run.outline["cell"], [])
        waits_cell = waits_cells.get(run.outline["cell"], [])
        # a waits run's page stands alone, and costs itself against the measured passes
        cell, waits_side = (
            ([run], measured_cell) if run.outline["waits_pass"] else (measured_cell, waits_cell)
        )
        reproduced = run.outline["reproduces"]
        original = by_id.get(reproduced) if reproduced else None
        start = starts[run.outline["start"]]
        inputs = [
            stamp[other.id]
            for other in cell + start + waits_side + ([original] if original else [])
        ]
        found.append(
            Derivation(
                "run",
                run.id,
                key(code, inputs, stamp[run.id]),
                partial(_run_unit, run, cell, original, start, waits_side),
            )
        )
        # raises when the stored diff is missing or altered
        if diff := stored_diffs(run.outline["diff"], run.path):
            digest = key(
                "", [f"{rel} {document_digest(content)}" for rel, content in diff.items()]
            )
            found.append(Derivation(None, f"{run.id}/diff", digest, partial(dict, diff)))
    by_campaign: dict[str, list[PlannedRun]] = {}
    for run in runs:
        by_campaign.setdefault(run.campaign, []).append(run)
    for campaign_id, of_campaign in sorted(by_campaign.items()):
        found.append(
            Derivation(
                "campaign",
                campaign_id,
                key(code, [stamp[run.id] for run in of_campaign]),
                partial(
                    _campaign_unit,
                    [run for run in of_campaign if not run.outline["waits_pass"]],
                    [run for run in of_campaign if run.outline["waits_pass"]],
                ),
            )
        )
    found += _history_derivations(runs, code, known or [], stamp)
    return found


def _history_derivations(
    runs: list[PlannedRun], code: str, known: list[KnownChange], stamp: dict[str, str]
) -> list[Derivation]:
    """A unit per campaign name with two campaigns or more (its waits passes aside): its
    history page's data file and charts, keyed by its runs and its known changes."""
    by_name: dict[str, list[PlannedRun]] = {}
    for run in runs:
        if not run.outline["waits_pass"]:
            by_name.setdefault(run.outline["name"], []).append(run)
    found = []
    for name, of_name in sorted(by_name.items()):
        if len({run.campaign for run in of_name}) < 2:
            continue
        own = [change for change in known if change["campaign"] == name]
        notes = [json.dumps({k: v for k, v in change.items() if k != "source"}) for change in own]
        found.append(
            Derivation(
                "history",
                name,
                key(code, [stamp[run.id] for run in of_name] + notes),
                partial(_history_unit, name, of_name, own),
            )
        )
    return found


def _history_unit(name: str, runs: list[PlannedRun], known: list[KnownChange]) -> dict[str, bytes]:
    data, figures = history_files(name, [read_document(run)[0] for run in runs], known)
    if data is None:  # its campaigns ran on different hosts: no page yet
        return {}
    files = {site.data_file(site.HISTORY_DATA, page_segment(name)): _json_bytes(data)}
    return _with_figures(files, figures)


def _run_unit(
    run: PlannedRun,
    cell: list[PlannedRun],
    original: PlannedRun | None,
    start: list[PlannedRun],
    waits_side: list[PlannedRun],
) -> dict[str, bytes]:
    documents = {other.id: read_document(other) for other in cell + start + waits_side}
    doc, raw = documents[run.id]
    reproduced = read_document(original)[0] if original else None
    files = files_of_run(
        doc,
        [documents[other.id][0] for other in cell],
        reproduced,
        [documents[other.id][0] for other in start],
        read_profile(run, doc),
        [documents[other.id][0] for other in waits_side],
    )
    return {site.run_static(run.id, site.RUN_DOCUMENT): raw, **files}


def _campaign_unit(measured: list[PlannedRun], waits_passes: list[PlannedRun]) -> dict[str, bytes]:
    """measured: the campaign's runs but its waits passes, which only the run index lists."""
    documents = [read_document(run)[0] for run in measured]
    waits_runs = [read_document(run)[0] for run in waits_passes]
    profiles = {
        run.id: profile
        for run, doc in zip(measured, documents, strict=True)
        if (profile := read_profile(run, doc)) is not None
    }
    return {**files_of_campaign(documents, profiles), **campaign_pieces(documents, waits_runs)}


def derive_all(found: list[Derivation]) -> dict[str, bytes]:
    """Every derivation's files, all derived now (the joining ones from the others' pieces), in
    the derivations' order."""
    plain = [d for d in found if not d.joins]
    results = in_order([d.derive for d in plain])
    derived: dict[str, dict[str, bytes]] = {}
    pieces: Pieces = {}
    for derivation, files in zip(plain, results, strict=True):
        derived[derivation.label], pieces[derivation.label] = split_pieces(files)
    inputs: dict[str, bytes] = {}
    for derivation in found:
        label = derivation.label
        inputs.update(derived[label] if label in derived else derivation.derive(pieces))
    return inputs


def hugo_inputs(run_files: list[RunFile]) -> dict[str, bytes]:
    """Relative path -> content of every generated file, all derived now (reads the run files
    and the schemas); a build derives only what its cache lacks (tree_sync.py)."""
    return derive_all(derivations([planned(run_file.path) for run_file in run_files], ""))
