"""Everything a campaign page shows, as one summary per campaign.id (assets/pages/campaigns/<campaign>.json)."""

from __future__ import annotations

from typing import Any

from contract import RunDocument, is_ibench
from generator.analysis.build_origin import build_comparison
from generator.analysis.config_diff import config_diff
from generator.analysis.drift import environment_drift
from generator.analysis.evidence import weakest
from generator.analysis.hosts import host_bases, host_of, hosts_of, same_variant_across_hosts
from generator.analysis.memory import memory_fit
from generator.analysis.ratios import latest_by_variant, ratio_table, shown_metrics, variant_order
from generator.analysis.repeats import counted_runs, group_by_cell, pass_list
from generator.analysis.trust import run_trust
from generator.analysis.write_debt import start_spread
from generator.pages.disclosure import campaign_disclosure
from generator.pages.ibench import campaign_report as ibench_report
from generator.pages.origin import cell_sources, file_name, workload_given
from generator.pages.printed_ratios import printed_ratio_checks
from generator.pages.run_sequence import campaign_starts
from generator.pages.suite import suite_report
from generator.pages.tpcc import tpcc_report
from generator.pages.trust_summary import trust_summary


def summarize_campaign(
    runs: list[RunDocument], trust: dict[str, list[dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """Everything a campaign page shows, for the runs sharing one campaign.id; trust holds
    each run's step trust (generator/analysis/trust.py) by run id, computed here when not given."""
    if trust is None:
        trust = {run["id"]: run_trust(run) for run in runs}
    first = min(runs, key=lambda run: run["started_at"])
    variants = variant_order(runs)
    fleet = same_variant_across_hosts(variants, runs)
    bases = host_bases(variants, runs)
    cells = group_by_cell(runs)
    workloads = []
    # Insert Benchmark steps have names, not thread levels: they get their own report.
    for workload in sorted({run["workload"]["name"] for run in runs if not is_ibench(run)}):
        by_variant = {
            variant: cell for (_, variant, name), cell in cells.items() if name == workload
        }
        present = [variant for variant in variants if variant in by_variant]
        counted = {variant: counted_runs(by_variant[variant]) for variant in present}
        workloads.append(
            {
                "name": workload,
                # What an imported source says of the workload: its options and note.
                **workload_given([run for v in present for run in counted[v]]),
                "variants": present,
                "cells": [
                    {
                        "variant": variant,
                        # Repeats share their data set, so any counted run stands for the cell.
                        "memory": memory_fit(counted[variant][0]),
                        "runs": pass_list(by_variant[variant], trust),
                        "evidence": weakest(counted[variant]),
                        "sources": cell_sources(counted[variant]),
                    }
                    for variant in present
                ],
                "metrics": {
                    metric: ratio_table(counted, present, metric, trust, bases)
                    for metric in shown_metrics([run for v in present for run in counted[v]])
                },
                # A fleet's hosts against the first at each variant, beside the base's ratios.
                "across_hosts": [
                    {
                        "variant": variant,
                        # Each host's name, in the order of the tables' variants.
                        "hosts": [host_of(counted[v][0])["name"] for v in on_hosts],
                        "metrics": {
                            metric: ratio_table(counted, on_hosts, metric, trust)
                            for metric in shown_metrics(
                                [run for v in on_hosts for run in counted[v]]
                            )
                        },
                    }
                    for variant, named in fleet.items()
                    if len(on_hosts := [v for v in named if v in counted]) > 1
                ],
                "write_debt": start_spread([run for v in present for run in counted[v]]),
            }
        )
    # The config diff compares variants, so any workload's run of a variant stands for it.
    one_run_per_variant = latest_by_variant(runs)
    # An imported run given no variables has no configuration to compare: its column is left
    # out and the page names it instead.
    configured = [v for v in variants if "variables" in one_run_per_variant[v]["server"]]
    return {
        "id": first["campaign"]["id"],
        "name": first["campaign"]["name"],
        "title": first["campaign"]["title"],
        "description": first["campaign"].get("description", ""),
        # An imported campaign's file is the sidecar, table or log it was read from: its name.
        "file": file_name(first["campaign"]["file"])
        if "origin" in first
        else first["campaign"]["file"],
        "started_at": first["started_at"],
        "ended_at": max(run["ended_at"] for run in runs),
        "variants": variants,
        "base": variants[0],
        # A fleet's hosts are each their own base: every base, in order, and each variant's.
        "bases": list(dict.fromkeys(bases.values())) or [variants[0]],
        "base_of": {variant: bases.get(variant, variants[0]) for variant in variants},
        "run_ids": sorted(run["id"] for run in runs),
        "hosts": hosts_of(sorted(runs, key=lambda run: (run["started_at"], run["id"]))),
        "workloads": workloads,
        "config_diff": config_diff([one_run_per_variant[v] for v in configured], configured),
        "config_not_recorded": [v for v in variants if v not in configured],
        # What the harness set for one release so the shared my.cnf means the same on each.
        "mapped_options": [
            {"variant": variant, **mapped}
            for variant in configured
            for mapped in one_run_per_variant[variant]["server"].get("mapped_options", [])
        ],
        "suite": suite_report(runs),
        "tpcc": tpcc_report(runs),
        "ibench": ibench_report(runs),
        "disclosure": campaign_disclosure(runs, variants, trust),
        "drift": environment_drift(runs),
        "builds": build_comparison(runs),
        "printed_ratios": printed_ratio_checks(runs),
        "trust": trust_summary(runs, trust),
        "server_starts": campaign_starts(runs),
    }


def summarize_campaigns(
    runs: list[RunDocument], trust: dict[str, list[dict[str, Any]]] | None = None
) -> list[dict[str, Any]]:
    """One summary per campaign.id, in id order."""
    return [summarize_campaign(of_one, trust) for of_one in runs_by_campaign(runs).values()]


def runs_by_campaign(runs: list[RunDocument]) -> dict[str, list[RunDocument]]:
    """campaign.id -> its runs (in the order given), in id order."""
    by_campaign: dict[str, list[RunDocument]] = {}
    for run in runs:
        by_campaign.setdefault(run["campaign"]["id"], []).append(run)
    return {cid: by_campaign[cid] for cid in sorted(by_campaign)}
