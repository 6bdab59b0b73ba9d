"""Where the server's time went: what a run page and a campaign's differential pages show of
the server's CPU profiles (contract/_profiles.py), as ready strings, beside the flame graphs
generator/figures/flamegraph.py draws.

A run page's "profiles" (run_profiles): per profiled step its flame graph's URL, its samples,
plain sentences when the stacks cannot be trusted far (shallow, unnamed) and its hottest
functions as a table for readers without the graph. A campaign's differential cells
(campaign_profiles): per workload, variant other than the base and thread level where both
sides have profiles, the variant's passes merged against the base's, the functions whose share
moved most, and the page that shows them (its path under the campaign's). And a profiled run's
share file (share_file), from which the compare page ranks the same moves between any runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from contract import (
    AnyStep,
    ProfileFile,
    RunDocument,
    Stack,
    folded,
    page_segment,
    recorded_steps,
    step_key,
    sysbench_steps,
    threads_label,
)
from generator.analysis.profiles import merged, share_changes, shares
from generator.analysis.repeats import counted_runs, group_by_cell
from generator.hugo import site_contract as site
from generator.pages.numbers import format_fixed, format_number

# A server thread's work starts some six frames deep (mariadbd, start_thread,
# handle_one_connection, do_command, dispatch_command, mysql_execute_command) and a row lookup
# or a commit is as deep again; a median stack shallower than this says the unwinder stopped
# early (a binary built without frame pointers), so the graph shows leaves without callers.
SHALLOW_MEDIAN_DEPTH = 8
# Past this share of frames with no symbol, the graph's names are too few to say which code ran
# (a stripped binary shows its internal functions as [mariadbd]).
UNRESOLVED_FRAMES_PCT = 20.0
# Under this many samples a share is mostly chance: at 200, a function on 10 % of the samples
# has a standard error of about 2 points (sqrt(0.1 * 0.9 / 200)), so moves of a few points
# between two such profiles mean nothing.
FEW_SAMPLES = 200
# The run page's table of hottest functions, and a differential page's of largest moves.
TOP_FUNCTIONS = 15
# The functions of each step the compare page gets (share_file), by total share: enough for
# the largest moves between any two runs, a few kilobytes per step instead of the whole profile.
# A function below a side's list counts as no share on that side.
SHARE_FILE_FUNCTIONS = 200
SHARE_DECIMALS = 3

DYNAMIC_SYMBOLS = (
    "The Debian build exports only its dynamic symbols: internal functions show as [{binary}]."
)
NO_SYMBOLS = "The server binary has no symbol table: its functions show as [{binary}]."


def step_label(step: AnyStep) -> str:
    """'16 threads' for a sysbench step, the step's name for the Insert Benchmark's."""
    if "step" in step:
        return str(step["step"])
    return threads_label(step["threads"])


def profiler_words(profiler: Mapping[str, Any]) -> str:
    """'perf 6.1.76, cpu-clock sampled at 99 Hz, frame-pointer call graphs'."""
    graphs = {
        "fp": "frame-pointer call graphs",
        "dwarf": "DWARF call graphs",
        "lbr": "LBR call graphs",
        "none": "no call graphs",
    }
    return (
        f"{profiler['tool']} {profiler['version']}, {profiler['event']} sampled at "
        f"{profiler['frequency_hz']} Hz, {graphs[profiler['call_graph']]}"
    )


def step_notes(summary: Mapping[str, Any]) -> list[str]:
    """Plain sentences on what the step's stacks cannot tell."""
    notes = []
    if summary["kept_samples"] == 0:
        notes.append("No sample of the server was taken while this step ran.")
        return notes
    if summary["kept_samples"] < FEW_SAMPLES:
        notes.append(few_samples(summary["kept_samples"]))
    if summary["median_depth"] < SHALLOW_MEDIAN_DEPTH:
        notes.append(
            f"Stacks are shallow (median {format_fixed(summary['median_depth'], 0)} frames): "
            "the callers of the hottest functions are mostly missing."
        )
    if summary["unresolved_frames_pct"] > UNRESOLVED_FRAMES_PCT:
        notes.append(
            f"{format_fixed(summary['unresolved_frames_pct'], 0)} % of the frames have no "
            "symbol: the names below cover only part of the time."
        )
    if summary["kept_samples"] < summary["samples"]:
        notes.append(
            f"The rarest stacks ({format_number(summary['samples'] - summary['kept_samples'])} "
            "samples) are counted but not kept: the graph draws the rest."
        )
    if summary.get("lost"):
        notes.append(f"perf reported {format_number(summary['lost'])} samples lost.")
    return notes


def few_samples(samples: int) -> str:
    return (
        f"Only {format_number(samples)} samples: a share here can be off by several points "
        "from chance alone."
    )


def top_functions(stacks: Mapping[Stack, int], limit: int = TOP_FUNCTIONS) -> list[list[str]]:
    """The functions where the samples landed most, [function, self %, total %] rows: by self
    share (the frames on every sample, the process and the thread start, are all total and
    would fill a table ranked by it), then total."""
    ranked = sorted(
        shares(stacks).items(),
        key=lambda item: (-item[1].self_pct, -item[1].total_pct, item[0]),
    )
    return [
        [function, format_fixed(share.self_pct, 1), format_fixed(share.total_pct, 1)]
        for function, share in ranked[:limit]
    ]


def run_profiles(run: RunDocument, profile: ProfileFile | None) -> dict[str, Any] | None:
    """The run page's "profiles": None for a run recorded before profiles (nothing shown);
    {"skipped": why}; else the profiler, a sentence on symbols, and each profiled step."""
    recorded = run.get("profile")
    if recorded is None:
        return None
    if "skipped" in recorded:
        return {"skipped": recorded["skipped"]}
    assert profile is not None, "a run with a profile file is drawn with it (hugo/load.py)"
    symbols = recorded["symbols"]
    wording = {"dynamic": DYNAMIC_SYMBOLS, "none": NO_SYMBOLS}.get(symbols["symbol_table"], "")
    steps = []
    for step in recorded_steps(run):
        if "profile" not in step:
            continue
        key, summary = step_key(step), step["profile"]
        steps.append(
            {
                "key": key,
                "label": step_label(step),
                "svg": site.flame_graph_url(run["id"], key) if summary["kept_samples"] else "",
                "samples": format_number(summary["samples"]),
                "notes": step_notes(summary),
                "top": top_functions(folded(profile, key)),
            }
        )
    return {
        "profiler": profiler_words(recorded["profiler"]),
        "symbols": wording.format(binary=symbols["binary"]),
        "steps": steps,
    }


def run_flame_graphs(
    run: RunDocument, profile: ProfileFile
) -> dict[str, tuple[str, str, dict[Stack, int]]]:
    """Per site-relative SVG path, its title, subtitle and stacks: each step with samples."""
    graphs = {}
    profiler = profiler_words(profile["profiler"])
    for step in recorded_steps(run):
        if "profile" in step and step["profile"]["kept_samples"]:
            key = step_key(step)
            title = f"{run['id']} \u00b7 {step_label(step)}"
            graphs[site.flame_graph_url(run["id"], key)] = (title, profiler, folded(profile, key))
    return graphs


def _cell_stacks(
    runs: list[RunDocument], profiles: Mapping[str, ProfileFile]
) -> dict[int, dict[Stack, int]]:
    """By thread level, the stacks of the counted passes that profiled it, merged (runs: one
    cell's sysbench runs)."""
    by_threads: dict[int, list[dict[Stack, int]]] = {}
    for run in counted_runs(runs):
        profile = profiles.get(run["id"])
        if profile is None:
            continue
        for step in sysbench_steps(run):
            if step.get("profile", {}).get("kept_samples"):
                by_threads.setdefault(step["threads"], []).append(folded(profile, step_key(step)))
    return {threads: merged(stacks) for threads, stacks in by_threads.items()}


def campaign_profiles(
    campaign_id: str, base: str, runs: list[RunDocument], profiles: Mapping[str, ProfileFile]
) -> list[dict[str, Any]]:
    """Every differential cell of a campaign's sysbench workloads (runs: the campaign's;
    profiles: the loaded profile of each run that has one, by id), in workload, variant and
    thread order: its page path, names, samples of each side, the SVG's site-relative path and
    the stacks it draws (base, variant), and the largest share changes as rows of strings."""
    cells = group_by_cell(run for run in runs if run["workload"]["tool"] == "sysbench")
    stacks = {key: _cell_stacks(cell, profiles) for key, cell in cells.items()}
    found = []
    for (_, variant, workload), variant_stacks in sorted(stacks.items()):
        base_stacks = stacks.get((campaign_id, base, workload), {})
        if variant == base:
            continue
        for threads in sorted(variant_stacks.keys() & base_stacks.keys()):
            path = site.differential_page(
                page_segment(campaign_id), page_segment(workload), page_segment(variant), threads
            )
            found.append(
                {
                    "path": path,
                    "workload": workload,
                    "variant": variant,
                    "base": base,
                    "threads": threads,
                    "title": f"{variant} against {base}, {workload} at {step_label({'threads': threads})}",
                    "svg": site.differential_flame_graph_url(path),
                    "base_samples": format_number(sum(base_stacks[threads].values())),
                    "variant_samples": format_number(sum(variant_stacks[threads].values())),
                    "changes": change_rows(base_stacks[threads], variant_stacks[threads]),
                    "notes": [
                        f"{name}: {few_samples(samples)}"
                        for name, samples in (
                            (base, sum(base_stacks[threads].values())),
                            (variant, sum(variant_stacks[threads].values())),
                        )
                        if samples < FEW_SAMPLES
                    ],
                    "stacks": (base_stacks[threads], variant_stacks[threads]),
                }
            )
    return found


def change_rows(base: Mapping[Stack, int], variant: Mapping[Stack, int]) -> list[list[str]]:
    """[function, base total %, variant total %, change in points, base self %, variant
    self %] of the functions whose total share moved most."""
    return [
        [
            change.function,
            format_fixed(change.base.total_pct, 1),
            format_fixed(change.variant.total_pct, 1),
            ("+" if change.total_change_pp > 0 else "") + format_fixed(change.total_change_pp, 1),
            format_fixed(change.base.self_pct, 1),
            format_fixed(change.variant.self_pct, 1),
        ]
        for change in share_changes(base, variant, TOP_FUNCTIONS)
    ]


def share_file(run: RunDocument, profile: ProfileFile) -> dict[str, Any]:
    """The compare page's file of a profiled run: per step key its kept samples and its
    SHARE_FILE_FUNCTIONS functions of largest total share, [function, total %, self %] rows
    (js/compare/profiles.js merges passes by samples and takes the differences as
    analysis/profiles.share_changes does)."""
    steps = {}
    for step in recorded_steps(run):
        if not step.get("profile", {}).get("kept_samples"):
            continue
        key = step_key(step)
        stacks = folded(profile, key)
        ranked = sorted(shares(stacks).items(), key=lambda item: (-item[1].total_pct, item[0]))
        steps[key] = {
            "samples": sum(stacks.values()),
            "functions": [
                [
                    name,
                    round(share.total_pct, SHARE_DECIMALS),
                    round(share.self_pct, SHARE_DECIMALS),
                ]
                for name, share in ranked[:SHARE_FILE_FUNCTIONS]
            ],
        }
    return {"run_id": run["id"], "steps": steps}
