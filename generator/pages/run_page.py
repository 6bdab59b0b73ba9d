"""What a run page reads, as one file per run (assets/pages/runs/<run>.json), and the run
index the run pages' content adapter reads (data/runindex.json).

Hugo parses every data file at start-up, for every build, whether a page reads it or not; an
asset is parsed only when a template asks for it (`resources.Get ... | transform.Unmarshal`,
cached for the build). So each run page's data is one asset read by that page alone (and by an
article's shortcodes that name the run), and Hugo's start-up reads only the small index: one
entry per run, a function of that run's document alone.

The page file holds the run document without its per-second samples (each step's `series` and
`monitor`: the charts, their CSV and the formatted tables carry them, and run.json beside the
page has them all), without its status deltas and without its server variables; the run's facts, formatted tables, monitoring means, Reproduce list, Insert
Benchmark report, and, for a run that reproduces another one of the archive, the fields of the
original the page names.

A step's status deltas (every counter that moved, often a third of a page file), its QPS,
latency, host counters and cost per operation are shown only as formatted tables (`tables`,
`step_tables`: rows of ready strings, far cheaper to print than numbers through a helper), so
the page file's steps leave them out, and the run's steps are a file of their own
(`steps_file`), read only by `fact` when an article cites `steps.N.<field>`: Hugo keeps every
file it parsed until the build ends, so what a page does not render stays out of what every
page parses.

The server variables (some 600 per run, most of a page file's parsed size, and the same for
every run of a variant) are a file of their own per distinct table, named by `variables_key`:
Hugo keeps what it parsed for the whole build, so each table is parsed once, by the cached
partial that renders it (and by `fact` when it cites a variable).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Final, cast

from contract import ProfileFile, RunDocument, is_ibench, page_segment
from generator.analysis.evidence import evidence_of
from generator.pages.ibench import run_report as ibench_report
from generator.pages.monitor import step_averages
from generator.pages.numbers import format_number
from generator.pages.packed_rows import packed, packed_table
from generator.pages.page_files import RunFacts, RunPageFile
from generator.pages.profiles import run_profiles
from generator.pages.run_facts import run_facts
from generator.pages.run_label import run_headline, run_name
from generator.pages.run_sequence import earlier_runs, run_sequence
from generator.pages.run_tables import run_tables
from generator.pages.run_terms import run_terms
from generator.pages.run_waits import run_waits
from generator.pages.step_tables import TABLED_STEP_FIELDS, step_tables
from generator.replay.script import replay_page

# Per-step fields of per-second samples, which no template reads from the document.
SAMPLED_STEP_FIELDS = ("series", "monitor")
# Per-step fields a run page shows only as formatted tables (tables.counters, step_tables),
# kept in the run's steps file (steps_file) for `fact`, not in its page file.
STATUS_STEP_FIELD: Final = "server_status_delta"
FACT_ONLY_STEP_FIELDS = (STATUS_STEP_FIELD, *TABLED_STEP_FIELDS)


def page_document(run: RunDocument) -> RunDocument:
    """The run document as the page's templates read it: every field but the sampled ones, those
    shown only as tables (steps_file) and the server variables (variables_file)."""
    left_out = (*SAMPLED_STEP_FIELDS, *FACT_ONLY_STEP_FIELDS)
    steps = [
        {name: value for name, value in step.items() if name not in left_out}
        for step in run["steps"]
    ]
    server = {name: value for name, value in run["server"].items() if name != "variables"}
    # Typed as the document it trims: the page's templates read only the fields it keeps
    # (tests/site/test_page_file_reads.py walks their reads down RunDocument).
    return cast(RunDocument, {**run, "server": server, "steps": steps})


def original_fields(original: RunDocument) -> dict[str, Any]:
    """What a reproducing run's page names of its original: its link and its compare label."""
    fields: dict[str, Any] = {
        "id": original["id"],
        "campaign": {"id": original["campaign"]["id"]},
        "variant": original["variant"],
        "workload": {"name": original["workload"]["name"], "tool": original["workload"]["tool"]},
    }
    if "repeat" in original:
        fields["repeat"] = original["repeat"]
    return fields


def run_page(
    run: RunDocument,
    cell: list[RunDocument],
    trust: list[dict[str, Any]],
    original: RunDocument | None,
    start: list[RunDocument] | None = None,
    profile: ProfileFile | None = None,
    figures: Sequence[str] = (),
    pfs_waits: dict[str, Any] | None = None,
) -> RunPageFile:
    """The run page's one file (profile: the run's profile file, loaded and checked). cell: its campaign cell's runs (analysis.repeats.group_by_cell);
    trust: its step trust (analysis.trust.run_trust); original: the run it reproduces, when the
    archive holds it; start: the runs of its server start (analysis.server_starts), the run
    alone when not given; figures: the names its charts may use (_partials/chart.html);
    pfs_waits: pages/pfs_waits.waits_section."""
    measured = bool(run["steps"])
    facts = run_facts(run, cell, trust)
    return {
        "run": page_document(run),
        "facts": facts,
        "variables_key": variables_key(run, facts),
        "replay": replay_page(run, earlier_runs(run, start or [run])),
        "sequence": run_sequence(run, start or [run]),
        "tables": packed_tables(run_tables(run)) if measured else None,
        # an Insert Benchmark run shows its steps in its own report
        "step_tables": packed_tables(step_tables(run))
        if measured and not is_ibench(run)
        else None,
        "monitor": monitor_tables(run) if measured else None,
        "waits": run_waits(run) if measured else None,
        "ibench": ibench_report(run) if measured and is_ibench(run) else None,
        "original": original_fields(original) if original else None,
        "profiles": run_profiles(run, profile),
        "figures": list(figures),
        "pfs_waits": pfs_waits,
    }


def packed_tables(tables: dict[str, Any]) -> dict[str, Any]:
    """Each table (or None) with its rows packed (packed_rows.py)."""
    return {name: packed_table(table) for name, table in tables.items()}


def monitor_tables(run: RunDocument) -> dict[str, Any] | None:
    """The per-step means under each monitoring chart (monitor.step_averages), their rows
    packed: the step's label, then each mean in the site's number format; None when the run
    sampled nothing."""
    tables = {
        figure: {
            **table,
            "rows": packed(
                [[row["step"], *map(format_number, row["values"])] for row in table["rows"]]
            ),
        }
        for figure, table in step_averages(run).items()
    }
    return tables or None


def variables_file(run: RunDocument, facts: RunFacts) -> dict[str, Any]:
    """What the variables table shows: the variables, and those an earlier harness redacted
    though they are plain settings."""
    return {
        "variables": run["server"].get("variables", {}),
        "redacted_plain": facts["redacted_plain"],
    }


def steps_file(run: RunDocument) -> dict[str, Any]:
    """The run's steps without their per-second samples, for `fact`: {"steps": [...]}."""
    return {
        "steps": [
            {name: value for name, value in step.items() if name not in SAMPLED_STEP_FIELDS}
            for step in run["steps"]
        ]
    }


def variables_key(run: RunDocument, facts: RunFacts) -> str:
    """What the page's variables table shows, hashed: the key Hugo caches that table under
    (run/variables.html is the costliest partial of a run page, and every run of a variant
    shows the same table)."""
    shown = variables_file(run, facts)
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()


def run_index_entry(run: RunDocument) -> dict[str, Any]:
    """One run's entry of the run index: its page's path (contract.page_segment, the one rule
    for every name that becomes a path), title, date, list params and taxonomy terms
    (content/runs/_content.gotmpl turns it into the page)."""
    terms = {taxonomy: [term] for taxonomy, term in run_terms(run).items()}
    entry: dict[str, Any] = {
        "path": page_segment(run["id"]),
        "title": run_name(run),
        "date": run["started_at"],
        "params": {
            "run_id": run["id"],
            "campaign_id": run["campaign"]["id"],
            "status": run["status"],
            "headline": run_headline(run),
            **terms,
        },
    }
    if "origin" in run:  # lists badge an imported run (layouts/_partials/list/runs.html)
        entry["params"]["evidence"] = evidence_of(run)
    return entry
