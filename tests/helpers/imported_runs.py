"""Hand-made imported runs (`origin` set), for the generator and site tests of runs this harness
did not measure: what `mybench import` writes, built here from committed runs and invented
figures so that every number a test checks is set in this file.

- `sysbench_log_run`: a measured run as an imported sysbench log would hold it (sysbench's own
  summary per step, no per-second series, no counters, variables, my.cnf or replay commands;
  one step without p95/p99, as a log written without --percentile's default would lack them).
- `summary_campaign`: a published table of three variants (a base and two others) at 1, 4 and 16
  threads, with some figures missing in some cells.
- `mixed_campaign`: one campaign whose base variant was measured here (three passes) and whose
  other variants were imported, one from a sysbench log and one from a published table.
- `qps_campaign`: a published table in QPS alone, as Callaghan prints his: two variants, one
  test at one client, no TPS.
- `TWO_HOSTS`: a CSV as a post prints a table for two machines (options, a note, printed
  ratios, one printed wrong), imported with `TWO_HOST_OPTIONS` by `mybench import table`.
- `percentile_log_run`: the recorded log written with --percentile=99 --report-interval=1
  (tests/fixtures/sysbench/import), read by the importer's parser: 15 seconds of series whose
  latency is p99_ms.
"""

from __future__ import annotations

import copy

from harness.workloads.sysbench.output import parse_logged_run
from tests.helpers.paths import FIXTURES

SUMMARY_CAMPAIGN = "published-probe-20250301-000000"
MIXED_CAMPAIGN = "mixed-probe-20261123-133014"
SHA = "0123456789abcdef" * 4
URL = "https://blog.example.org/2025/03/mariadb-versions.html"

# threads -> the figures of each variant's cell of the published table (None: not published).
SUMMARY_FIGURES: dict[str, dict[int, dict[str, float | None]]] = {
    "v10-6": {
        1: {"tps": 200.0, "qps": 4000.0, "p95": 10.0},
        4: {"tps": 700.0, "qps": 14000.0, "p95": 12.0},
        16: {"tps": 1000.0, "qps": 20000.0, "p95": 40.0},
    },
    "v10-11": {
        1: {"tps": 230.0, "qps": 4600.0, "p95": 9.0},
        4: {"tps": 720.0, "qps": 14400.0, "p95": None},
        16: {"tps": 900.0, "qps": 18000.0, "p95": 50.0},
    },
    "v11-4": {
        1: {"tps": 201.0, "qps": None, "p95": 10.2},
        4: {"tps": 840.0, "qps": 16800.0, "p95": 11.0},
    },
}
SUMMARY_VERSIONS = {"v10-6": "10.6.21", "v10-11": "10.11.11", "v11-4": "11.4.5"}

# The mixed campaign's published variant: TPS per thread level of the measured runs' sweep.
MIXED_SUMMARY_TPS = {1: 250.0, 4: 800.0, 16: 1500.0}

QPS_CAMPAIGN = "qps-probe-20171109-000000"
QPS_WORKLOAD = "update-one"
# variant -> (version, QPS at 1 client): Callaghan's update-one figures for 5.0.96 and 8.0.3.
QPS_FIGURES = {"mysql-5-0": ("5.0.96", 21117.0), "mysql-8-0": ("8.0.3", 9920.0)}

# A post's table as printed for two machines: one test at two range sizes, a test run before the
# others, the QPS and the ratio to the first release beside it, and no thread column (the post
# says "1 client" in its text). The ratio of v2 on host "Box B" is printed wrong on purpose.
TWO_HOSTS = """campaign,host,variant,workload,options,workload_note,qps,qps_ratio,server_version
post-2017,Box A,v1,read-write,--range-size=100,,1000,1.00,5.0.96
post-2017,Box A,v2,read-write,--range-size=100,,900,0.90,8.0.3
post-2017,Box A,v1,read-write,--range-size=10000,,200,1.00,5.0.96
post-2017,Box A,v2,read-write,--range-size=10000,,210,1.05,8.0.3
post-2017,Box A,v1,point-query.pre,,Run before the writes.,5000,1.00,5.0.96
post-2017,Box A,v2,point-query.pre,,Run before the writes.,4000,0.80,8.0.3
post-2017,Box B,v1,read-write,--range-size=100,,1100,1.00,5.0.96
post-2017,Box B,v2,read-write,--range-size=100,,770,0.80,8.0.3
"""
TWO_HOST_OPTIONS = ["--product", "mysql", "--published", "2017-11-09",
                    "--threads", "1", "--threads-source", "the post: 1 client"]  # fmt: skip
TWO_HOSTS_CAMPAIGN = "post-2017-20171109-000000"

PERCENTILE_CAMPAIGN = "p99-probe-20261127-000000"
PERCENTILE_LOG = FIXTURES / "sysbench" / "import" / "oltp_read_only_2thr_p99_15s.txt"
PERCENTILE_RUN = f"{PERCENTILE_CAMPAIGN}.base.oltp_read_only"


def _origin(kind: str, files: list[str], **extra: str) -> dict:
    return {
        "kind": kind,
        "imported_at": "2026-11-24T10:00:00Z",
        "command": f"mybench import {'sysbench' if kind == 'sysbench-log' else 'table'} "
        + " ".join(files),
        "sources": [{"file": name, "sha256": SHA} for name in files],
        **extra,
    }


def sysbench_log_run(measured: dict, campaign: dict | None = None, variant: str = "") -> dict:
    """A copy of the measured sysbench run `measured` as `mybench import sysbench` would write it
    from its log: summaries kept, everything the log cannot hold dropped; the first step lacks
    latency p95/p99. `campaign` and `variant` move it into another campaign."""
    run = copy.deepcopy(measured)
    variant = variant or run["variant"]
    run.pop("reproduce", None)
    run.pop("repeat", None)
    run["host"] = {"hostname": "old-laptop"}
    run["server"] = {"product": run["server"]["product"], "version": run["server"]["version"]}
    run["workload"] = {
        key: run["workload"][key] for key in ("tool", "tool_version", "name", "script", "options")
    }
    for step in run["steps"]:
        for dropped in ("series", "monitor", "server_status_delta", "os", "per_op", "started_at"):
            step.pop(dropped, None)
    for dropped in ("p95", "p99"):
        run["steps"][0]["latency_ms"].pop(dropped)
    if campaign is not None:
        run["campaign"] = copy.deepcopy(campaign)
    run["variant"] = variant
    run["id"] = f"{run['campaign']['id']}.{variant}.{run['workload']['name']}.log"
    run["origin"] = _origin(
        "sysbench-log",
        [f"logs/{variant}-{step['threads']}.txt" for step in run["steps"]],
        tool_command="sysbench oltp_read_write --tables=4 --table-size=100000 run",
    )
    return run


def _summary_step(threads: int, figures: dict[str, float | None]) -> dict:
    step: dict = {"threads": threads}
    if figures.get("tps") is not None:
        step["tps"] = figures["tps"]
    if figures.get("qps") is not None:
        step["qps"] = {"total": figures["qps"]}
    if figures.get("p95") is not None:
        step["latency_ms"] = {"p95": figures["p95"]}
    return step


def summary_run(
    campaign: dict,
    variant: str,
    version: str,
    steps: dict[int, dict[str, float | None]],
    workload: str = "oltp-rw",
) -> dict:
    """A summary-only run of `variant`: one step per thread level with only the figures given."""
    return {
        "schema_version": 1,
        "id": f"{campaign['id']}.{variant}.{workload}",
        "campaign": copy.deepcopy(campaign),
        "variant": variant,
        "status": "complete",
        "started_at": "2025-03-01T00:00:00Z",
        "ended_at": "2025-03-01T00:00:00Z",
        "harness": {"version": "0.1.0", "git_commit": "0" * 40},
        "host": {"hostname": "blog-host"},
        "server": {"product": "mariadb", "version": version},
        "workload": {
            "tool": "sysbench",
            "tool_version": "1.0.20",
            "name": workload,
            "script": "oltp_read_write",
            "options": {},
        },
        "steps": [_summary_step(threads, figures) for threads, figures in sorted(steps.items())],
        "origin": _origin(
            "summary-table",
            ["published.csv"],
            url=URL,
            published="2025-03-01",
            note="Figures as the article's table gives them.",
        ),
    }


def _published(campaign_id: str, name: str, title: str, file: str, variants: list) -> dict:
    """The campaign section of a table imported from `file`."""
    return {"id": campaign_id, "name": name, "title": title, "file": file,
            "variant_order": variants}  # fmt: skip


def summary_campaign() -> list[dict]:
    """The published table's runs, base variant first."""
    campaign = _published(SUMMARY_CAMPAIGN, "published-probe",
                          "Published probe: MariaDB 10.6 vs 10.11 vs 11.4", "published.csv",
                          list(SUMMARY_FIGURES))  # fmt: skip
    return [
        summary_run(campaign, variant, SUMMARY_VERSIONS[variant], figures)
        for variant, figures in SUMMARY_FIGURES.items()
    ]


def mixed_campaign(measured_passes: list[dict], log_source: dict) -> list[dict]:
    """The measured passes (one variant, several repeats) moved into MIXED_CAMPAIGN as its base
    variant "measured", then `log_source` imported as a sysbench log (variant "from-log") and a
    published variant ("published", TPS only, at MIXED_SUMMARY_TPS's thread levels)."""
    campaign = copy.deepcopy(measured_passes[0]["campaign"])
    campaign.update(
        id=MIXED_CAMPAIGN,
        name="mixed-probe",
        title="Mixed probe: measured, logged and published",
        variant_order=["measured", "from-log", "published"],
    )
    runs = []
    for measured in measured_passes:
        run = copy.deepcopy(measured)
        run["campaign"] = copy.deepcopy(campaign)
        run["variant"] = "measured"
        run["id"] = (
            f"{MIXED_CAMPAIGN}.measured.{run['workload']['name']}.p{run['repeat']['index']}"
        )
        runs.append(run)
    runs.append(sysbench_log_run(log_source, campaign, "from-log"))
    steps = {threads: {"tps": tps} for threads, tps in MIXED_SUMMARY_TPS.items()}
    runs.append(summary_run(campaign, "published", runs[0]["server"]["version"], steps))
    return runs


def qps_campaign() -> list[dict]:
    """The table published in QPS: one run per variant, one step at 1 client, QPS only."""
    campaign = _published(QPS_CAMPAIGN, "qps-probe", "QPS probe: MySQL 5.0 vs 8.0, as published",
                          "published-qps.csv", list(QPS_FIGURES))  # fmt: skip
    return [
        summary_run(campaign, variant, version, {1: {"qps": qps}}, QPS_WORKLOAD)
        for variant, (version, qps) in QPS_FIGURES.items()
    ]


def percentile_log_run() -> dict:
    """The log recorded at --percentile=99 as one imported run of one 2-thread step, its figures
    and series as the importer's parser reads them."""
    report = parse_logged_run(PERCENTILE_LOG.read_text(), 2)
    return {
        "schema_version": 1,
        "id": PERCENTILE_RUN,
        "campaign": {
            "id": PERCENTILE_CAMPAIGN,
            "name": "p99-probe",
            "title": "p99 probe: a log written with --percentile=99",
            "file": PERCENTILE_LOG.name,
            "variant_order": ["base"],
        },
        "variant": "base",
        "status": "complete",
        "started_at": "2026-11-27T00:00:00Z",
        "ended_at": "2026-11-27T00:00:00Z",
        "harness": {"version": "0.1.0", "git_commit": "0" * 40},
        "host": {"hostname": "old-laptop"},
        "server": {"product": "mariadb", "version": "10.11.6"},
        "workload": {
            "tool": "sysbench",
            "tool_version": "1.0.20",
            "name": "oltp_read_only",
            "options": {"report-interval": "1"},
        },
        "steps": [report.step_fields()],
        "origin": _origin(
            "sysbench-log",
            [PERCENTILE_LOG.name],
            tool_command="sysbench oltp_read_only --threads=2 --time=15 --report-interval=1"
            " --percentile=99 run",
        ),
    }


def imported_fixtures(runs: list[dict]) -> list[dict]:
    """Every fixture kind from the committed runs of tests/fixtures/runs (the binlog campaign's
    three binlog-off passes and its sync-1 first pass): the log run alone in its campaign, the
    published campaign, the mixed one, the table published in QPS and the log at the 99th
    percentile."""
    by_id = {run["id"]: run for run in runs}
    prefix = "binlog-sync-policies-20261123-133014"
    passes = [by_id[f"{prefix}.binlog-off.oltp-rw.p{index}"] for index in (1, 2, 3)]
    log_source = by_id[f"{prefix}.sync-1.oltp-rw.p1"]
    return [
        sysbench_log_run(log_source),
        *summary_campaign(),
        *mixed_campaign(passes, log_source),
        *qps_campaign(),
        percentile_log_run(),
    ]
