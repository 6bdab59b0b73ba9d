"""Turn validated runs into the files Hugo mounts from the build dir.

build_dir/
  assets/figures/runs/<run>/<fig>.json                  Plotly figures of a run page
  assets/figures/campaigns/<campaign>/<workload>/<fig>.json
  assets/compare/index.json                             runs, campaigns and rules for the compare page
  assets/browse/index.json                              one record per run for the /browse/ filters
  data/campaigns/<campaign>.json                        ratio tables, config diff, suite report (hugo.Data)
  data/runtables/<run>.json                             status counters per transaction, per-second TPS
  data/drilldown.json                                   monitoring families for the point drill-down
  data/ibench/<run>.json                                Insert Benchmark report of a run page
  data/monitor/<run>.json                               per-step averages under the monitor charts
  data/runfacts/<run>.json                              buffer pool fit, the runs of its cell, step trust
  data/schemadoc/campaign.json, run.json                the guide's key tables, from the JSON Schemas
  static/runs/<run>/run.json, my.cnf                    stable download URLs
  static/<owner>/<fig>.csv, .json, .svg                 each figure's data and static drawing
"""

from __future__ import annotations

import json
from pathlib import Path

from generator._browse import browse_index
from generator._campaign import summarize_campaigns
from generator._compare_index import compare_index
from generator._disclosure import run_disclosure
from generator._figure_data import figure_downloads
from generator._figures import campaign_figures, run_figures
from generator._ibench import is_ibench
from generator._ibench import run_figures as ibench_figures
from generator._ibench import run_report as ibench_report
from generator._load import RunFile
from generator._memory import memory_fit
from generator._monitor import family_rules, monitor_figures, step_averages
from generator._repeats import cell_key, group_by_cell, pass_list
from generator._run_tables import run_tables
from generator._schema_doc import schema_docs
from generator._trust import run_trust

OWNED_SUBDIRS = ("assets", "data", "static")


def _json_bytes(value: object) -> bytes:
    return (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode()


def hugo_inputs(run_files: list[RunFile]) -> dict[str, bytes]:
    """Relative path -> content of every generated file (reads the run files and the schemas)."""
    runs = [run for _, run in run_files]
    files: dict[str, bytes] = {
        # Fetched whole by the compare page: no indentation.
        "assets/compare/index.json": json.dumps(
            compare_index([run for run in runs if not is_ibench(run)]),
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode(),
        "data/drilldown.json": _json_bytes(family_rules()),
        "assets/browse/index.json": json.dumps(
            browse_index(runs), ensure_ascii=False, separators=(",", ":")
        ).encode(),
    }
    for name, doc in schema_docs().items():
        files[f"data/schemadoc/{name}.json"] = _json_bytes(doc)
    cells = group_by_cell(runs)
    trust = {run["id"]: run_trust(run) for run in runs}  # every step's fit, computed once
    for path, run in run_files:
        files[f"static/runs/{run['id']}/run.json"] = path.read_bytes()
        files[f"static/runs/{run['id']}/my.cnf"] = run["server"]["my_cnf"].encode()
        files[f"data/runfacts/{run['id']}.json"] = _json_bytes(
            {
                "memory": memory_fit(run),
                "passes": pass_list(cells[cell_key(run)]),
                "trust": trust[run["id"]],
                "disclosure": run_disclosure(run, trust[run["id"]]),
            }
        )
        if not run["steps"]:
            continue
        if is_ibench(run):  # steps by name, not by thread level: a report of its own
            files[f"data/ibench/{run['id']}.json"] = _json_bytes(ibench_report(run))
        own = ibench_figures(run) if is_ibench(run) else run_figures(run, trust[run["id"]])
        figures = {**own, **monitor_figures(run)}
        for name, figure in figures.items():
            files[f"assets/figures/runs/{run['id']}/{name}.json"] = figure.to_json().encode()
        if averages := step_averages(run):
            files[f"data/monitor/{run['id']}.json"] = _json_bytes(averages)
        files[f"data/runtables/{run['id']}.json"] = _json_bytes(run_tables(run))
    for summary in summarize_campaigns(runs, trust):
        files[f"data/campaigns/{summary['id']}.json"] = _json_bytes(summary)
        overlays = summary["workloads"] + ([summary["tpcc"]] if summary["tpcc"] else [])
        for workload in overlays:
            for name, figure in campaign_figures(workload).items():
                rel = f"assets/figures/campaigns/{summary['id']}/{workload['name']}/{name}.json"
                files[rel] = figure.to_json().encode()
    files.update(figure_downloads(files))
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
        target.write_bytes(content)
        changed += 1
    for subdir in OWNED_SUBDIRS:
        for stale in sorted((build_dir / subdir).rglob("*"), reverse=True):
            rel = stale.relative_to(build_dir).as_posix()
            if stale.is_file() and rel not in files:
                stale.unlink()
                changed += 1
            elif stale.is_dir() and not any(stale.iterdir()):
                stale.rmdir()
    return changed
