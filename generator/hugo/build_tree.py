"""Turn validated runs into the files Hugo mounts from the build dir (its layout, and which
template reads what: generator/hugo/site_contract.py), and keep the build dir in sync with them."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
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
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import document_digest, key
from generator.hugo.load import RunFile
from generator.hugo.parallel import ordered_results
from generator.hugo.provenance_files import stored_diffs
from generator.pages.browse import browse_index
from generator.pages.campaign import runs_by_campaign, summarize_campaign
from generator.pages.compare_index import compare_index
from generator.pages.ibench import is_ibench
from generator.pages.ibench import run_report as ibench_report
from generator.pages.monitor import family_rules, step_averages
from generator.pages.run_facts import run_facts
from generator.pages.run_tables import run_tables
from generator.pages.schema_doc import schema_docs
from generator.replay.script import replay_page, replay_script


def _json_bytes(value: object, compact: bool = False) -> bytes:
    """JSON as Hugo and the browser read it: NaN or Infinity (which JSON lacks) raise here."""
    if compact:  # fetched whole by the browser: no indentation
        return json.dumps(
            value, ensure_ascii=False, allow_nan=False, separators=(",", ":")
        ).encode()
    return (json.dumps(value, indent=1, ensure_ascii=False, allow_nan=False) + "\n").encode()


def _write_atomically(target: Path, content: bytes) -> None:
    """A reader (a watching `hugo server`, an interrupted build's next run) never sees half a file."""
    partial = target.with_name(f".{target.name}.partial")
    partial.write_bytes(content)
    partial.replace(target)


def _with_downloads(files: dict[str, bytes]) -> dict[str, bytes]:
    """files plus each figure's downloads (from the full figure: every point), the figures
    themselves thinned to what the browser draws."""
    downloads = figure_downloads(files)
    files.update(thinned_figures(files))
    files.update(downloads)
    return files


def site_wide_files(runs: list[RunDocument]) -> dict[str, bytes]:
    """The site-wide files: indexes, configs the templates read, the guide's schema tables."""
    files: dict[str, bytes] = {
        site.COMPARE_INDEX: _json_bytes(
            compare_index([run for run in runs if not is_ibench(run)]), compact=True
        ),
        site.DRILLDOWN_DATA: _json_bytes(family_rules()),
        site.PLOTLY_DATA: _json_bytes(PLOTLY_CONFIG),
        site.DRAWING_DATA: _json_bytes(DRAWING_SIZE),
        site.BROWSE_INDEX: _json_bytes(browse_index(runs), compact=True),
    }
    for name, doc in schema_docs().items():
        files[site.data_file(site.SCHEMADOC_DATA, name)] = _json_bytes(doc)
    return files


def files_of_run(run: RunDocument, cell: list[RunDocument]) -> dict[str, bytes]:
    """A run's derived files (cell: its campaign cell's runs, analysis.repeats.group_by_cell);
    its run.json and stored diff are copied by hugo_inputs."""
    trust = run_trust(run)
    files = {
        site.run_static(run["id"], site.MY_CNF): run["server"]["my_cnf"].encode(),
        site.run_static(run["id"], site.REPLAY_SH): replay_script(run).encode(),
        site.data_file(site.REPLAY_DATA, run["id"]): _json_bytes(replay_page(run)),
        site.data_file(site.RUNFACTS_DATA, run["id"]): _json_bytes(run_facts(run, cell, trust)),
    }
    if not run["steps"]:
        return files
    if is_ibench(run):  # steps by name, not by thread level: a report of its own
        files[site.data_file(site.IBENCH_DATA, run["id"])] = _json_bytes(ibench_report(run))
    own = ibench_figures(run) if is_ibench(run) else run_figures(run, trust)
    figures = {**own, **monitor_figures(run)}
    for name, figure in figures.items():
        files[site.run_figure(run["id"], name)] = figure.to_json().encode()
    if averages := step_averages(run):
        files[site.data_file(site.MONITOR_DATA, run["id"])] = _json_bytes(averages)
    files[site.data_file(site.RUNTABLES_DATA, run["id"])] = _json_bytes(run_tables(run))
    return _with_downloads(files)


def files_of_campaign(runs: list[RunDocument]) -> dict[str, bytes]:
    """A campaign's summary and overlay figures, from its runs."""
    summary = summarize_campaign(runs)
    files = {site.data_file(site.CAMPAIGNS_DATA, summary["id"]): _json_bytes(summary)}
    overlays = summary["workloads"] + ([summary["tpcc"]] if summary["tpcc"] else [])
    for workload in overlays:
        for name, figure in campaign_figures(workload).items():
            rel = site.campaign_figure(summary["id"], workload["name"], name)
            files[rel] = figure.to_json().encode()
    return _with_downloads(files)


class _Derivation(NamedTuple):
    kind: str  # the cache's folder: site, run, campaign
    name: str  # what it is for (a run or campaign id), in Cache.derived
    key: str
    derive: Callable[[], dict[str, bytes]]


def _derived(derivations: list[_Derivation], cache: Cache | None) -> list[dict[str, bytes]]:
    """Each derivation's files: stored ones from the cache, the others derived (on every core
    when there are enough) and stored."""
    found = [cache.get(d.kind, d.name, d.key) if cache else None for d in derivations]
    missing = [index for index, files in enumerate(found) if files is None]
    fresh = ordered_results([derivations[index].derive for index in missing])
    for index, files in zip(missing, fresh, strict=True):
        if cache:
            cache.put(derivations[index].kind, derivations[index].key, files)
        found[index] = files
    return [files for files in found if files is not None]


def hugo_inputs(run_files: list[RunFile], cache: Cache | None = None) -> dict[str, bytes]:
    """Relative path -> content of every generated file (reads the run files and the schemas);
    with a cache, only what changed since it was filled is derived (cache_keys.py says from
    what)."""
    runs = [run for _, run in run_files]
    raw = {run["id"]: path.read_bytes() for path, run in run_files}
    code = cache.code if cache else ""
    stamp = {run_id: f"{run_id} {document_digest(content)}" for run_id, content in raw.items()}
    cells = group_by_cell(runs)
    campaigns = runs_by_campaign(runs)
    derivations = [
        _Derivation("site", "site", key(code, stamp.values()), partial(site_wide_files, runs))
    ]
    for run in runs:
        cell = cells[cell_key(run)]
        derivations.append(
            _Derivation(
                "run",
                run["id"],
                key(code, [stamp[other["id"]] for other in cell], stamp[run["id"]]),
                partial(files_of_run, run, cell),
            )
        )
    for campaign_id, of_campaign in campaigns.items():
        derivations.append(
            _Derivation(
                "campaign",
                campaign_id,
                key(code, [stamp[run["id"]] for run in of_campaign]),
                partial(files_of_campaign, of_campaign),
            )
        )
    derived = _derived(derivations, cache)
    files = dict(derived[0])
    for (path, run), of_run in zip(run_files, derived[1 : len(runs) + 1], strict=True):
        files[site.run_static(run["id"], site.RUN_DOCUMENT)] = raw[run["id"]]
        files.update(stored_diffs(run, path))  # checked on every build: the file may change
        files.update(of_run)
    for campaign_derived in derived[len(runs) + 1 :]:
        files.update(campaign_derived)
    return files


def sync_tree(build_dir: Path, files: dict[str, bytes]) -> int:
    """Make build_dir's owned subdirs hold exactly `files`; returns how many files changed.

    Unchanged files keep their mtime so a watching `hugo server` only rebuilds what moved.
    """
    changed = 0
    made: set[Path] = set()  # a run's ~20 files share a directory; mkdir each once
    for rel, content in files.items():
        target = build_dir / rel
        if target.is_file() and target.read_bytes() == content:
            continue
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        _write_atomically(target, content)
        changed += 1
    for subdir in site.OWNED_SUBDIRS:
        for stale in sorted((build_dir / subdir).rglob("*"), reverse=True):
            rel = stale.relative_to(build_dir).as_posix()
            if stale.is_file() and rel not in files:
                stale.unlink()
                changed += 1
            elif stale.is_dir() and not any(stale.iterdir()):
                stale.rmdir()
    return changed
