"""Turn validated runs into the files Hugo mounts from the build dir (its layout, and which
template reads what: generator/hugo/site_contract.py), and keep the build dir in sync with them."""

from __future__ import annotations

import json
from pathlib import Path

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
from generator.hugo.load import RunFile
from generator.hugo.provenance_files import stored_diffs
from generator.pages.browse import browse_index
from generator.pages.browse_split import browse_filters, browse_pages
from generator.pages.campaign import summarize_campaigns
from generator.pages.compare_index import compare_index
from generator.pages.compare_split import split_compare_index
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


def hugo_inputs(run_files: list[RunFile]) -> dict[str, bytes]:
    """Relative path -> content of every generated file (reads the run files and the schemas)."""
    runs = [run for _, run in run_files]
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
    for campaign_id, content in campaign_files.items():
        files[site.compare_campaign_file(campaign_id)] = _json_bytes(content, compact=True)
    for name, doc in schema_docs().items():
        files[site.data_file(site.SCHEMADOC_DATA, name)] = _json_bytes(doc)
    cells = group_by_cell(runs)
    trust = {run["id"]: run_trust(run) for run in runs}  # every step's fit, computed once
    for path, run in run_files:
        files[site.run_static(run["id"], site.RUN_DOCUMENT)] = path.read_bytes()
        files[site.run_static(run["id"], site.MY_CNF)] = run["server"]["my_cnf"].encode()
        files[site.run_static(run["id"], site.REPLAY_SH)] = replay_script(run).encode()
        files[site.data_file(site.REPLAY_DATA, run["id"])] = _json_bytes(replay_page(run))
        files.update(stored_diffs(run, path))
        files[site.data_file(site.RUNFACTS_DATA, run["id"])] = _json_bytes(
            run_facts(run, cells[cell_key(run)], trust[run["id"]])
        )
        if not run["steps"]:
            continue
        if is_ibench(run):  # steps by name, not by thread level: a report of its own
            files[site.data_file(site.IBENCH_DATA, run["id"])] = _json_bytes(ibench_report(run))
        own = ibench_figures(run) if is_ibench(run) else run_figures(run, trust[run["id"]])
        figures = {**own, **monitor_figures(run)}
        for name, figure in figures.items():
            files[site.run_figure(run["id"], name)] = _json_bytes(figure, compact=True)
        if averages := step_averages(run):
            files[site.data_file(site.MONITOR_DATA, run["id"])] = _json_bytes(averages)
        files[site.data_file(site.RUNTABLES_DATA, run["id"])] = _json_bytes(run_tables(run))
    for summary in summarize_campaigns(runs, trust):
        files[site.data_file(site.CAMPAIGNS_DATA, summary["id"])] = _json_bytes(summary)
        overlays = summary["workloads"] + ([summary["tpcc"]] if summary["tpcc"] else [])
        for workload in overlays:
            for name, figure in campaign_figures(workload).items():
                rel = site.campaign_figure(summary["id"], workload["name"], name)
                files[rel] = _json_bytes(figure, compact=True)
    downloads = figure_downloads(files)  # from the full figures: every point
    files.update(thinned_figures(files))  # what the browser draws
    files.update(downloads)
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
