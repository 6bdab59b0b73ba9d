"""An article draft for one campaign (templates/article.md.j2): front matter from its runs, a
tl;dr naming exactly the cells its campaign page colours, the setup with the campaign's flagged
steps by kind (the verdict of generator/analysis/verdict.py, as its disclosure counts them), one
section per workload in the form its kind of report takes, and the Reproduce section. Every figure is a shortcode;
the author replaces the marked placeholders with the analysis."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from contract import RunDocument, is_ibench
from contract.fields import pass_order
from contract.repeats import ENOUGH_PASSES
from contract.text_templates import text_templates
from generator.analysis.build_origin import build_of
from generator.analysis.hosts import host_of
from generator.analysis.ratios import METRICS, QPS_METRIC, variant_order
from generator.drafts.differences import Finding, few_passes, findings, greyed, quiet, unjudged
from generator.drafts.quoting import markdown_code, markdown_text, yaml_string
from generator.hugo.site_contract import ibench_figure
from generator.pages.campaign import summarize_campaign
from generator.pages.ibench import run_report
from generator.pages.pfs_waits import is_waits_pass
from generator.pages.run_label import PRODUCT_NAMES
from generator.pages.suite import EFFICIENCY, THROUGHPUT

# Shown at each place the author writes; the guide tells to replace them all before publishing.
PLACEHOLDER = "✍ Your analysis:"
# The folder name is the URL: what a campaign name may hold, less the underscore.
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
# What a shortcode parameter may hold: ids, names, dotted paths, thread lists (schema slugs).
SHORTCODE_VALUE = re.compile(r"[A-Za-z0-9._,-]+")
# A configuration diff this long (two server versions differ in dozens of defaults) is folded.
FOLD_DIFF_OVER = 12
_TEMPLATES = text_templates(
    Path(__file__).parent / "templates",
    # Every value from the data goes through one of these (quoting.py says why each).
    {"yaml_string": yaml_string, "md_text": markdown_text, "md_code": markdown_code},
)
_MEASURES = {
    **{key: metric.label for key, metric in METRICS.items()},
    "qps": QPS_METRIC.label,
    **{metric.key: metric.label for metric in (THROUGHPUT, *EFFICIENCY)},
}


class DraftError(Exception):
    """Why no draft was written, in one line."""


def shortcode(name: str, **params: str) -> str:
    """A shortcode call. Its values are ids, names and paths the schema keeps to a few
    characters; anything else (a quote would end the value, `>}}` the call) is refused."""
    for key, value in params.items():
        if not SHORTCODE_VALUE.fullmatch(value):
            raise DraftError(
                f"shortcode {name}: {key} {value!r} holds more than a-z, 0-9, . _ , -"
            )
    text = " ".join(f'{key}="{value}"' for key, value in params.items())
    return f"{{{{< {name} {text} >}}}}"


def _levels_text(levels: list[str], step: bool) -> str:
    if step:
        return "step " + ", ".join(levels) if len(levels) == 1 else "steps " + ", ".join(levels)
    head, last = ", ".join(levels[:-1]), levels[-1]
    listed = f"{head} and {last}" if head else last
    return f"{listed} thread{'' if levels == ['1'] else 's'}"


def _figures(campaign_id: str, finding: Finding) -> list[str]:
    """The shortcodes that print the finding's ratios: one value over its thread levels where
    the value shortcode reads the table, else one per cell."""
    cells = finding.cells
    if finding.table == "sweep":
        return [
            shortcode(
                "value",
                campaign=campaign_id,
                workload=finding.subject,
                variant=finding.variant,
                metric=finding.measure,
                threads=",".join(finding.levels),
            )
        ]
    if finding.table == "tpcc":
        return [
            shortcode(
                "value",
                campaign=campaign_id,
                report="tpcc",
                variant=finding.variant,
                metric=finding.measure,
                threads=",".join(finding.levels),
            )
        ]
    if finding.table == "ibench":
        return [
            f"`{cell.level}` "
            + shortcode(
                "value",
                campaign=campaign_id,
                report="ibench",
                workload=finding.subject,
                variant=finding.variant,
                step=cell.level,
            )
            for cell in cells
        ]
    return [
        f"{_levels_text([cell.level], step=False)} "
        + shortcode("fact", campaign=campaign_id, key=f"{cell.path}.ratio")
        for cell in cells
    ]


def _finding(campaign_id: str, finding: Finding) -> dict[str, Any]:
    step = finding.table == "ibench"
    return {
        "subject": finding.subject,
        "variant": finding.variant,
        "base": finding.base,
        "measure": _MEASURES.get(finding.measure, finding.measure),
        "verdict": finding.verdict,
        "where": _levels_text(finding.levels, step),
        "figures": _figures(campaign_id, finding),
    }


def _servers(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """Each server build the campaign ran, with one of its runs for the version fact."""
    servers: dict[tuple[str, str, str], dict[str, Any]] = {}
    for run in sorted(runs, key=lambda run: run["id"]):
        server = run["server"]
        description = build_of(run)["description"] if "origin" not in run else "imported figures"
        key = (server["product"], server["version"], description)
        servers.setdefault(
            key,
            {
                "product": PRODUCT_NAMES[server["product"]],
                "run": run["id"],
                "build": description,
                "variants": [],
            },
        )
        if run["variant"] not in servers[key]["variants"]:
            servers[key]["variants"].append(run["variant"])
    order = variant_order(runs)
    for build in servers.values():
        build["variants"].sort(key=order.index)
    return list(servers.values())


def _first_pass(runs: list[RunDocument], variant: str, workload: str) -> RunDocument:
    """The first run of a campaign cell, by pass and then by id."""
    cell = [r for r in runs if r["variant"] == variant and r["workload"]["name"] == workload]
    return min(cell, key=lambda run: (pass_order(run), run["id"]))


def _sections(summary: dict[str, Any], runs: list[RunDocument]) -> list[dict[str, Any]]:
    """One section per workload: a sweep's chart and ratio tables; a suite's tables (with
    Dimitri's peaks); the TPC-C-like report; the Insert Benchmark tables and step charts."""
    campaign_id = summary["id"]
    in_suite = {r["workload"]["name"] for r in runs if "suite" in r["workload"]}
    tpcc = {r["workload"]["name"] for r in runs if "tpcc" in r["workload"]}
    sections: list[dict[str, Any]] = []
    for workload in summary["workloads"]:
        if workload["name"] in in_suite | tpcc:
            continue
        metrics = workload["metrics"]
        figures = [
            shortcode(
                "chart",
                campaign=campaign_id,
                workload=workload["name"],
                fig="qps" if "qps" in metrics else "tps",
            )
        ]
        figures.append(shortcode("ratios", campaign=campaign_id, workload=workload["name"]))
        if "p95" in metrics:
            figures.append(
                shortcode("chart", campaign=campaign_id, workload=workload["name"], fig="latency")
            )
        sections.append({"title": workload["name"], "figures": figures})
    if suite := summary["suite"]:
        tables = ["relative", *(["peak"] if suite["peak"] else [])]
        tables += ["efficiency"] if suite["has_efficiency"] else []
        tables += ["series"] if suite["series"] else []
        sections.append(
            {
                "title": " and ".join(suite["names"]) + " suite",
                "figures": [shortcode("suite", campaign=campaign_id, table=t) for t in tables],
            }
        )
    if summary["tpcc"]:
        sections.append(
            {"title": "TPC-C-like", "figures": [shortcode("tpcc", campaign=campaign_id)]}
        )
    if ibench := summary["ibench"]:
        charts = []
        for workload in ibench["workloads"]:
            for row in workload["rows"]:
                run = _first_pass(runs, row["variant"], workload["name"])
                charted = run_report(run)["steps"]
                if charted:
                    charts.append(
                        shortcode("chart", run=run["id"], fig=ibench_figure(charted[0]["step"]))
                    )
        sections.append(
            {
                "title": "Insert Benchmark",
                "figures": [shortcode("ibench", campaign=campaign_id), *charts],
            }
        )
    return sections


def _configured_differences(summary: dict[str, Any]) -> int:
    """Rows of the configuration diff, less those that tell server instances apart (ports,
    paths), which differ in every campaign."""
    groups = summary["config_diff"]["groups"]
    return sum(len(group["rows"]) for group in groups if not group["instance"])


def _base_run(summary: dict[str, Any], runs: list[RunDocument]) -> RunDocument | None:
    """The first pass of the base variant on its first workload, when the harness ran it (an
    imported run may have no my.cnf to show)."""
    base = summary["base"]
    first_workload = min(run["workload"]["name"] for run in runs if run["variant"] == base)
    run = _first_pass(runs, base, first_workload)
    return run if "origin" not in run else None


def _reproduced_run(summary: dict[str, Any], runs: list[RunDocument]) -> RunDocument:
    """The run whose my.cnf and commands the Reproduce section shows: the first pass of the
    first variant compared with the base (the base itself in a one-variant campaign)."""
    variants = summary["variants"]
    variant = variants[1] if len(variants) > 1 else variants[0]
    of_variant = [run for run in runs if run["variant"] == variant]
    first_workload = min(run["workload"]["name"] for run in of_variant)
    return _first_pass(runs, variant, first_workload)


def _terms(runs: list[RunDocument]) -> dict[str, list[str]]:
    """The taxonomy terms, spelled as the run pages spell them."""

    def unique(values: list[str]) -> list[str]:
        return list(dict.fromkeys(values))

    ordered = sorted(runs, key=lambda run: (run["started_at"], run["id"]))
    return {
        "engines": unique([PRODUCT_NAMES[r["server"]["product"]] for r in ordered]),
        "versions": unique(
            [f"{PRODUCT_NAMES[r['server']['product']]} {r['server']['version']}" for r in ordered]
        ),
        "workloads": unique([r["workload"]["name"] for r in ordered]),
        "hosts": unique([host_of(r)["name"] for r in ordered]),
    }


def render_draft(runs: list[RunDocument], date: str) -> str:
    """The draft of the campaign these runs make (all runs of one campaign id)."""
    summary = summarize_campaign(runs)
    campaign_id = summary["id"]
    found = findings(summary)
    quiet_columns = quiet(summary, found)
    quiet_by_base: dict[str, list[str]] = {}
    for column in quiet_columns:
        quiet_by_base.setdefault(column.base, []).append(column.variant)
    reproduced = _reproduced_run(summary, runs)
    context = {
        "campaign": summary,
        "description": " ".join(summary["description"].split()),
        "date": date,
        "terms": _terms(runs),
        "placeholder": PLACEHOLDER,
        "findings": [_finding(campaign_id, finding) for finding in found],
        "quiet": quiet_columns,
        "quiet_by_base": quiet_by_base,
        "unjudged": unjudged(summary),
        "greyed": greyed(summary),
        "few_passes": few_passes(summary),
        "enough_passes": ENOUGH_PASSES,
        "servers": _servers(runs),
        "fold_diff": _configured_differences(summary) > FOLD_DIFF_OVER,
        "host_run": reproduced if "origin" not in reproduced else None,
        "measured": any("origin" not in run for run in runs),
        # the kinds the campaign's steps carry (its disclosure's count, verdict.flag_counts)
        "flag_kinds": summary["disclosure"]["flags"]["kinds"],
        "ibench_only": all(is_ibench(run) for run in runs),
        "sections": _sections(summary, runs),
        "reproduced": reproduced,
        "base_run": _base_run(summary, runs) if reproduced["variant"] != summary["base"] else None,
        "shortcode": shortcode,
        "run_command": shlex.join(["mybench", "run", summary["file"]]),
    }
    return _TEMPLATES.get_template("article.md.j2").render(context)


def write_draft(
    runs: list[RunDocument], campaign_id: str, posts: Path, slug: str | None, date: str
) -> Path:
    """Write posts/<slug>/index.md (slug: the campaign's name unless given); never over an
    article that exists."""
    # A waits pass ran with performance_schema timing its waits: never one of a cell's passes.
    of_campaign = [
        run for run in runs if run["campaign"]["id"] == campaign_id and not is_waits_pass(run)
    ]
    if not of_campaign:
        raise DraftError(f"no run of campaign {campaign_id!r} in the results")
    slug = slug or of_campaign[0]["campaign"]["name"]
    if not SLUG.fullmatch(slug):
        raise DraftError(f"slug {slug!r}: lower-case letters, digits and dashes only")
    article = posts / slug / "index.md"
    if article.exists():
        raise DraftError(f"{article} exists; give another --slug or remove it first")
    text = render_draft(of_campaign, date)
    article.parent.mkdir(parents=True, exist_ok=True)
    article.write_text(text)
    return article
