"""Turn validated runs into the files Hugo mounts from the build dir (its layout, and which
template reads what: generator/hugo/site_contract.py), as derivations: units of files with the
key of their inputs, which tree_sync.py writes when they changed."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from contract import RunDocument
from generator.analysis.repeats import cell_key, group_by_cell
from generator.analysis.trust import run_trust
from generator.figures.downloads import figure_downloads
from generator.figures.downsample import thinned_figures
from generator.figures.ibench import ibench_figures
from generator.figures.monitor import monitor_figures
from generator.figures.plotly_config import PLOTLY_CONFIG
from generator.figures.svg import DRAWING_SIZE
from generator.figures.sweep import campaign_figures, run_figures
from generator.hugo import site_contract as site
from generator.hugo.cache_keys import document_digest, key
from generator.hugo.load import RunFile
from generator.hugo.parallel import ordered_results
from generator.hugo.provenance_files import stored_diffs
from generator.pages.browse import browse_index
from generator.pages.browse_split import browse_filters, browse_pages
from generator.pages.campaign import runs_by_campaign, summarize_campaign
from generator.pages.campaign_index import campaign_index_entry
from generator.pages.compare_index import compare_index
from generator.pages.compare_split import split_compare_index
from generator.pages.ibench import is_ibench
from generator.pages.monitor import family_rules
from generator.pages.run_page import run_index_entry, run_page
from generator.pages.schema_doc import schema_docs
from generator.replay.script import replay_script


def _json_bytes(value: object, compact: bool = False) -> bytes:
    """JSON as Hugo and the browser read it: NaN or Infinity (which JSON lacks) raise here."""
    if compact:  # fetched whole by the browser: no indentation
        return json.dumps(
            value, ensure_ascii=False, allow_nan=False, separators=(",", ":")
        ).encode()
    return (json.dumps(value, indent=1, ensure_ascii=False, allow_nan=False) + "\n").encode()


def _with_downloads(files: dict[str, bytes]) -> dict[str, bytes]:
    """files plus each figure's downloads (from the full figure: every point), the figures
    themselves thinned to what the browser draws."""
    downloads = figure_downloads(files)
    files.update(thinned_figures(files))
    files.update(downloads)
    return files


def site_wide_files(runs: list[RunDocument]) -> dict[str, bytes]:
    """The site-wide files: indexes, configs the templates read, the guide's schema tables."""
    catalogue, campaign_files = split_compare_index(
        compare_index([run for run in runs if not is_ibench(run)])
    )
    files: dict[str, bytes] = {
        site.COMPARE_CATALOGUE: _json_bytes(catalogue, compact=True),
        site.DRILLDOWN_DATA: _json_bytes(family_rules()),
        site.PLOTLY_DATA: _json_bytes(PLOTLY_CONFIG),
        site.DRAWING_DATA: _json_bytes(DRAWING_SIZE),
    }
    browse = browse_index(runs)
    files[site.BROWSE_FILTERS] = _json_bytes(browse_filters(browse), compact=True)
    pages = browse_pages(browse)
    for page in pages:
        files[site.browse_page(page["number"])] = _json_bytes(page, compact=True)
    files[site.BROWSE_DATA] = _json_bytes({"pages": len(pages), "runs": len(runs)})
    by_id = sorted(runs, key=lambda run: run["id"])
    files[site.RUN_INDEX] = _json_bytes([run_index_entry(run) for run in by_id], compact=True)
    for campaign_id, content in campaign_files.items():
        files[site.compare_campaign_file(campaign_id)] = _json_bytes(content, compact=True)
    for name, doc in schema_docs().items():
        files[site.data_file(site.SCHEMADOC_DATA, name)] = _json_bytes(doc)
    return files


def files_of_run(
    run: RunDocument, cell: list[RunDocument], original: RunDocument | None
) -> dict[str, bytes]:
    """A run's derived files (cell: its campaign cell's runs, analysis.repeats.group_by_cell;
    original: the run it reproduces, when in the archive); its run.json and stored diff are
    copied by hugo_inputs."""
    trust = run_trust(run)
    page = run_page(run, cell, trust, original)
    files = {
        site.run_static(run["id"], site.MY_CNF): run["server"]["my_cnf"].encode(),
        site.run_static(run["id"], site.REPLAY_SH): replay_script(run).encode(),
        site.run_page_file(run["id"]): _json_bytes(page, compact=True),
    }
    if not run["steps"]:
        return files
    own = ibench_figures(run) if is_ibench(run) else run_figures(run, trust)
    figures = {**own, **monitor_figures(run)}
    for name, figure in figures.items():
        files[site.run_figure(run["id"], name)] = _json_bytes(figure, compact=True)
    return _with_downloads(files)


def files_of_campaign(runs: list[RunDocument]) -> dict[str, bytes]:
    """A campaign's summary and overlay figures, from its runs."""
    summary = summarize_campaign(runs)
    files = {
        site.campaign_page_file(summary["id"]): _json_bytes(summary, compact=True),
        site.data_file(site.CAMPAIGN_INDEX_DATA, summary["id"]): _json_bytes(
            campaign_index_entry(summary)
        ),
    }
    overlays = summary["workloads"] + ([summary["tpcc"]] if summary["tpcc"] else [])
    for workload in overlays:
        for name, figure in campaign_figures(workload).items():
            rel = site.campaign_figure(summary["id"], workload["name"], name)
            files[rel] = _json_bytes(figure, compact=True)
    return _with_downloads(files)


class Derivation(NamedTuple):
    """One unit of generated files: derived together, cached under one key, synced together."""

    kind: str | None  # the cache's folder (site, run, campaign); None: not cached
    name: str  # what it is for (a run or campaign id)
    key: str  # the hash of everything its files depend on (cache_keys.py)
    derive: Callable[[], dict[str, bytes]]

    @property
    def label(self) -> str:
        return f"{self.kind or 'copied'}/{self.name}"


def derivations(run_files: list[RunFile], code: str) -> list[Derivation]:
    """Every generated file's derivation, in a fixed order: the site-wide files, each run's (its
    run.json included; its stored diff, checked on every build, beside it uncached), each
    campaign's. code: the code version (cache_keys.code_version) every key starts from."""
    runs = [run for _, run in run_files]
    raw = {run["id"]: path.read_bytes() for path, run in run_files}
    stamp = {run_id: f"{run_id} {document_digest(content)}" for run_id, content in raw.items()}
    cells = group_by_cell(runs)
    by_id = {run["id"]: run for run in runs}
    found = [Derivation("site", "site", key(code, stamp.values()), partial(site_wide_files, runs))]
    for path, run in run_files:
        cell = cells[cell_key(run)]
        reproduced = run.get("reproduces")
        original = by_id.get(reproduced["run_id"]) if reproduced else None
        inputs = [stamp[other["id"]] for other in cell + ([original] if original else [])]
        found.append(
            Derivation(
                "run",
                run["id"],
                key(code, inputs, stamp[run["id"]]),
                partial(_with_run_document, run, cell, raw[run["id"]], original),
            )
        )
        if diff := stored_diffs(run, path):  # raises when the stored diff is missing or altered
            digest = key(
                "", [f"{rel} {document_digest(content)}" for rel, content in diff.items()]
            )
            found.append(Derivation(None, f"{run['id']}/diff", digest, partial(dict, diff)))
    for campaign_id, of_campaign in runs_by_campaign(runs).items():
        found.append(
            Derivation(
                "campaign",
                campaign_id,
                key(code, [stamp[run["id"]] for run in of_campaign]),
                partial(files_of_campaign, of_campaign),
            )
        )
    return found


def _with_run_document(
    run: RunDocument, cell: list[RunDocument], raw: bytes, original: RunDocument | None
) -> dict[str, bytes]:
    return {
        site.run_static(run["id"], site.RUN_DOCUMENT): raw,
        **files_of_run(run, cell, original),
    }


def hugo_inputs(run_files: list[RunFile]) -> dict[str, bytes]:
    """Relative path -> content of every generated file, all derived now (reads the run files
    and the schemas); a build derives only what its cache lacks (tree_sync.py)."""
    files: dict[str, bytes] = {}
    for derived in ordered_results([d.derive for d in derivations(run_files, "")]):
        files.update(derived)
    return files
