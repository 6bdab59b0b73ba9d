"""The run document as Python types: one TypedDict per object of data/schema/run-v1.schema.json.

The schema stays the one source of truth (the harness validates against it before writing, the
generator after reading); these types only tell a type checker which keys exist, which are
always present (Required) and which only sometimes (NotRequired), so `step["latency_ms"]["p59"]`
is an error before it is a KeyError, and "who reads field X" is a search for the type.
tests/contract/test_model.py walks the schema and these types and fails when they disagree.

Mappings the schema leaves open (SHOW GLOBAL VARIABLES, status deltas, monitoring series keyed by
metric) are `dict[str, ...]`. Numbers the schema calls "number" are `float` (a JSON integer
such as 0 is an `int`, which a type checker accepts as a float).
"""

from typing import Literal, NotRequired, Required, TypedDict, final

# $defs/series: one value per second of a step.
Series = list[float]
# $defs/tpcc_pct: percentages keyed by TPC-C transaction type name.
TpccPct = dict[str, float]


class Campaign(TypedDict):
    id: Required[str]
    name: Required[str]
    title: Required[str]
    description: NotRequired[str]
    file: Required[str]
    variant_order: NotRequired[list[str]]


class Repeat(TypedDict):
    index: int
    of: int


class RewrittenOption(TypedDict):
    option: str
    value: str
    placed: str


class Reproduces(TypedDict):
    run_id: str
    source: str
    confined: NotRequired[bool]
    rewritten: NotRequired[list[RewrittenOption]]


class OriginSource(TypedDict):
    file: Required[str]
    sha256: Required[str]
    lines: NotRequired[list[int]]


class Assumed(TypedDict):
    value: str
    source: str


class Origin(TypedDict):
    """Where an imported run came from; absent on runs this harness measured."""

    kind: Required[Literal["sysbench-log", "summary-table"]]
    imported_at: Required[str]
    command: Required[str]
    sources: Required[list[OriginSource]]
    url: NotRequired[str]
    published: NotRequired[str]
    tool_command: NotRequired[str]
    note: NotRequired[str]
    assumed: NotRequired[dict[str, Assumed]]


class WriteDebt(TypedDict):
    checkpoint_age_kb: int | None
    dirty_pages: int | None


class Settle(TypedDict):
    rule: Required[Literal["checkpoint"]]
    timeout_s: Required[int]
    thresholds: NotRequired[WriteDebt]
    before: Required[WriteDebt]
    after: NotRequired[WriteDebt]
    max_dirty_pages_pct: NotRequired[str]
    waited_s: NotRequired[float]
    timed_out: NotRequired[bool]
    note: NotRequired[str]


class SnapshotDiff(TypedDict):
    path: str
    sha256: str


class CampaignFileText(TypedDict):
    path: str
    sha256: str
    text: str


class Snapshot(TypedDict):
    taken_at: Required[str]
    changed_files: Required[list[str] | None]
    diff: NotRequired[SnapshotDiff]
    campaign_file: Required[CampaignFileText]
    tools: Required[dict[str, str]]
    files: Required[dict[str, str]]


class Harness(TypedDict):
    version: Required[str]
    git_commit: Required[str | None]
    git_dirty: NotRequired[bool]
    snapshot: NotRequired[Snapshot]


class FioResult(TypedDict):
    iops: Required[float]
    mb_per_s: Required[float]
    p50_us: NotRequired[float]
    p99_us: NotRequired[float]


class Storage(TypedDict):
    """The datadir device as fio measured it, once per host fingerprint and device."""

    tool: Required[Literal["fio"]]
    version: Required[str]
    measured_at: Required[str]
    device: Required[str | None]
    write_cache: Required[str | None]
    file_mb: NotRequired[int]
    seconds_per_test: NotRequired[float]
    sync_write_4k: Required[FioResult]
    rand_read_16k_qd1: Required[FioResult]
    rand_read_16k_qd32: Required[FioResult]
    seq_write: Required[FioResult]
    flushes_honoured: NotRequired[bool | None]


class Host(TypedDict):
    hostname: Required[str]
    cpu_model: NotRequired[str]
    cpu_sockets: NotRequired[int]
    cpu_cores: NotRequired[int]
    cpu_threads: NotRequired[int]
    virtualization: NotRequired[str | None]
    ram_bytes: NotRequired[int]
    kernel: NotRequired[str]
    os: NotRequired[str]
    datadir_filesystem: NotRequired[str | None]
    datadir_device: NotRequired[str | None]
    cpu_affinity: NotRequired[list[int]]
    cpu_governor: NotRequired[str | None]
    transparent_hugepages: NotRequired[str | None]
    datadir_mount_options: NotRequired[str | None]
    datadir_device_model: NotRequired[str | None]
    fingerprint: NotRequired[str]
    label: NotRequired[str]
    storage: NotRequired[Storage]


class ServerHost(TypedDict):
    address: Required[str]
    hostname: Required[str]
    client_address: NotRequired[str]
    same_machine: Required[bool]
    variables: NotRequired[dict[str, str]]


class CompiledDefaults(TypedDict):
    source: str
    differences: dict[str, str | None]


class Build(TypedDict):
    origin: Required[Literal["package", "tarball", "basedir", "existing"]]
    package: NotRequired[str]
    package_version: NotRequired[str]
    distribution: NotRequired[str]
    basedir: NotRequired[str]
    release: NotRequired[str]
    reported: NotRequired[dict[str, str]]


class MappedOption(TypedDict):
    option: Required[str]
    value: Required[str]
    reason: Required[str]


class Server(TypedDict):
    product: Required[Literal["mariadb", "mysql", "percona"]]
    version: Required[str]
    version_string: NotRequired[str]
    version_comment: NotRequired[str]
    basedir: NotRequired[str]
    binary: NotRequired[str]
    sandbox: NotRequired[bool]
    kind: NotRequired[Literal["sandbox", "existing"]]
    variant_applied: NotRequired[Literal["my.cnf", "set_global", "restart_command"]]
    my_cnf: NotRequired[str]
    my_cnf_options: NotRequired[dict[str, str]]
    harness_overrides: NotRequired[dict[str, str]]
    mapped_options: NotRequired[list[MappedOption]]
    cpu_affinity: NotRequired[list[int]]
    variables: NotRequired[dict[str, str]]
    build: NotRequired[Build]
    compiled_defaults: NotRequired[CompiledDefaults]


# A preset suite's name and its test groups (harness/model/suites.py).
SuiteName = Literal["dimitri", "callaghan"]
SuiteGroup = Literal["point", "range", "range-aggregation", "write"]


class Suite(TypedDict):
    name: SuiteName
    test: str
    group: SuiteGroup
    position: int


CheckResult = Literal["pass", "fail", "skip"]


class TpccConditionSet(TypedDict):
    result: CheckResult
    violations: int
    detail: str


class TpccCondition(TypedDict):
    name: str
    result: CheckResult
    sets: dict[str, TpccConditionSet]


class TpccCheck(TypedDict):
    passed: bool
    failed: list[str]
    skipped: list[str]
    conditions: dict[str, TpccCondition]


class WorkloadTpcc(TypedDict):
    mode: Required[Literal["compat", "spec"]]
    scale: Required[int]
    table_sets: Required[int]
    warehouses: Required[int]
    items: Required[int]
    items_rule: Required[bool]
    use_fk: Required[bool]
    force_pk: Required[bool]
    trx_level: Required[Literal["RR", "RC", "SER", "RU"]]
    enable_purge: Required[bool]
    storage_engine: Required[str]
    table_options: Required[str]
    expected_mix_pct: Required[TpccPct]
    check_after_load: NotRequired[TpccCheck]
    check_after_run: NotRequired[TpccCheck]


class DataOrigin(TypedDict):
    method: Required[Literal["prepared", "restored"]]
    pristine_key: NotRequired[str]
    loaded_by: NotRequired[str]
    load_seconds: NotRequired[float | None]
    restore_seconds: NotRequired[float | None]


class Workload(TypedDict):
    tool: Required[Literal["sysbench", "ibench"]]
    tool_version: Required[str]
    name: Required[str]
    script: NotRequired[str]
    note: NotRequired[str]
    options: Required[dict[str, str]]
    client_cpu_affinity: NotRequired[list[int] | None]
    data_bytes: NotRequired[int | None]
    trim_seconds: NotRequired[int]
    rows_after_prepare: NotRequired[int | None]
    suite: NotRequired[Suite]
    tpcc: NotRequired[WorkloadTpcc]
    data_origin: NotRequired[DataOrigin]


class ReproduceCommand(TypedDict):
    purpose: str
    command: str


class Reproduce(TypedDict):
    harness_command: str
    commands: list[ReproduceCommand]


class TpccCounts(TypedDict):
    count: int
    commits: int
    rollbacks: int
    retries: int
    deadlocks: int
    lock_waits: int
    other_errors: int


class TpccLatency(TypedDict):
    avg: float
    p95: float
    p99: float
    max: float


class TpccType(TpccCounts):
    latency_ms: TpccLatency


class TpccMix(TypedDict):
    expected_pct: TpccPct
    achieved_pct: TpccPct
    max_deviation_pp: float | None


class TpmcLike(TypedDict):
    value: float
    label: str
    unaudited: Literal[True]
    new_order_commits: int
    seconds: float


class TpccStep(TypedDict):
    mode: Required[Literal["compat", "spec"]]
    threads_reported: Required[int]
    nurand_c: NotRequired[dict[str, int] | None]
    types: Required[dict[str, TpccType]]
    totals: Required[TpccCounts]
    latency_sum_ms: Required[float]
    mix: Required[TpccMix]
    tpmc_like: NotRequired[TpmcLike]
    totals_problems: NotRequired[list[str]]


class Qps(TypedDict):
    total: float
    read: float
    write: float
    other: float


class Latency(TypedDict):
    min: Required[float]
    avg: Required[float]
    max: Required[float]
    p95: NotRequired[float]
    p99: NotRequired[float]


class StepSeries(TypedDict):
    t: Required[Series]
    tps: Required[Series]
    qps: Required[Series]
    # The latency, named by its percentile: p95_ms as the harness runs sysbench; an imported
    # log at another --percentile holds p<N>_ms instead (p99_ms), at 0 none.
    p95_ms: NotRequired[Series]
    errors_per_s: Required[Series]
    reconnects_per_s: Required[Series]


class Monitor(TypedDict):
    interval_s: float
    # "t" (seconds since the step began) is always there; every other key is a metric.
    series: dict[str, list[float]]
    # Each sampled INNODB_METRICS series' kind, keyed as in series; absent from older runs.
    kinds: NotRequired[dict[str, Literal["counter", "value"]]]


class PerOp(TypedDict):
    op: Literal["transaction", "query", "insert", "indexed_row"]
    cpu_us: float
    context_switches: float
    read_kb: float
    write_kb: float
    server_cpu_us: NotRequired[float | None]
    client_cpu_us: NotRequired[float | None]


class StepProfile(TypedDict):
    """A step's server profile in brief; its stacks are in the run's profile file."""

    samples: Required[int]
    kept_samples: Required[int]
    lost: NotRequired[int]
    unresolved_frames_pct: Required[float]
    median_depth: Required[float]


class PfsWaitEvent(TypedDict):
    """One performance_schema wait event over a waits pass's step."""

    event: Required[str]
    count: Required[int]
    total_ms: Required[float]
    avg_us: Required[float]


class PfsWaits(TypedDict):
    """A waits pass's step: the events that waited longest ($defs/pfs_waits)."""

    source: Required[Literal["performance_schema"]]
    events: Required[list[PfsWaitEvent]]


class Profiler(TypedDict):
    tool: Literal["perf"]
    version: str
    event: str
    frequency_hz: int
    call_graph: Literal["fp", "dwarf", "lbr", "none"]
    scope: NotRequired[Literal["cpu-wide", "process"]]


class ProfileSymbols(TypedDict):
    binary: Required[str]
    symbol_table: Required[Literal["full", "dynamic", "none"]]
    dynamic_symbols: NotRequired[int]


class Profile(TypedDict, total=False):
    """Either where the run's profile file is (file, sha256, profiler, symbols) or skipped."""

    file: str
    sha256: str
    profiler: Profiler
    symbols: ProfileSymbols
    skipped: str


class InstructionRepeat(TypedDict):
    connection: Required[int]
    background: Required[int]
    statements: Required[int]


class Instructions(TypedDict, total=False):
    """callgrind's counts of the server's instructions per event (tool ... commands), or
    skipped."""

    tool: str
    threads: Literal[1]
    events: int
    warmup_events: int
    repeats: list[InstructionRepeat]
    commands: list[ReproduceCommand]
    skipped: str


class OsCounters(TypedDict, total=False):
    cpu_user_pct: float
    cpu_system_pct: float
    cpu_iowait_pct: float
    cpu_idle_pct: float
    cpu_steal_pct: float
    context_switches_per_s: float
    read_kb_per_s: float
    write_kb_per_s: float


class SummaryQps(TypedDict):
    total: Required[float]


class SummaryLatency(TypedDict, total=False):
    avg: float
    p95: float
    p99: float
    max: float


class PrintedRatio(TypedDict):
    value: float
    decimals: int
    base: str


# final, as Step and IbenchStep: `"key" in step` narrows a union of step types to those that
# have the key (a step with "threads" is not an IbenchStep, one with "printed_ratios" a SummaryStep).
@final
class SummaryStep(TypedDict):
    """One thread level of a published table: only the figures the source gave."""

    threads: Required[int]
    tps: NotRequired[float]
    qps: NotRequired[SummaryQps]
    rows_per_s: NotRequired[float]
    latency_ms: NotRequired[SummaryLatency]
    printed_ratios: NotRequired[dict[str, PrintedRatio]]


@final
class Step(TypedDict):
    """One sysbench thread level ($defs/step)."""

    threads: Required[int]
    duration_s: Required[float]
    started_at: NotRequired[str]
    settle: NotRequired[Settle]
    tps: Required[float]
    rows_per_s: NotRequired[float]
    tpcc: NotRequired[TpccStep]
    qps: Required[Qps]
    latency_ms: Required[Latency]
    events: Required[int]
    errors: Required[int]
    reconnects: Required[int]
    series: NotRequired[StepSeries]
    server_status_delta: NotRequired[dict[str, float]]
    monitor: NotRequired[Monitor]
    per_op: NotRequired[PerOp]
    profile: NotRequired[StepProfile]
    waits: NotRequired[PfsWaits]
    os: NotRequired[OsCounters]


class IbenchSeries(TypedDict):
    t: Series
    inserts_per_s: Series
    deletes_per_s: Series
    queries_per_s: Series
    max_insert_us: Series
    max_delete_us: Series
    max_query_us: Series
    client_cpu_pct: Series


class RatePercentiles(TypedDict):
    p50: float
    p75: float
    p90: float
    p95: float
    p99: float


class IbenchRatePercentiles(TypedDict, total=False):
    inserts_per_s: RatePercentiles
    deletes_per_s: RatePercentiles
    queries_per_s: RatePercentiles


class ResponseHistogram(TypedDict):
    buckets_us: list[int]
    counts: list[int]
    calls: int
    avg_us: float
    max_us: float


class ResponseTimes(TypedDict, total=False):
    insert: ResponseHistogram
    delete: ResponseHistogram
    query: ResponseHistogram


class Retries(TypedDict, total=False):
    insert: int
    delete: int
    query: int


class RoleCpu(TypedDict):
    seconds: float
    us_per_op: float | None


class CpuByRole(TypedDict, total=False):
    insert: RoleCpu
    delete: RoleCpu
    query: RoleCpu


class ClientCpu(TypedDict):
    op: Literal["insert", "delete", "query"]
    seconds: float
    us_per_op: float | None
    by_role: CpuByRole
    busiest_process_pct: float


class FetchedPerQuery(TypedDict):
    expected: int
    actual: float


class Background(TypedDict):
    target_inserts_per_s: int
    achieved_inserts_per_s: float
    achieved_deletes_per_s: float
    ratio: float
    target_sustained: bool


class Flush(TypedDict):
    statements: list[str]
    wait_limit_s: float
    dirty_pages_after: int | None


class IbenchStepFigures(TypedDict):
    """An Insert Benchmark step but for its problems: the harness checks the figures it built."""

    step: Required[str]
    kind: Required[Literal["load", "index", "write", "flush", "query"]]
    started_at: Required[str]
    duration_s: Required[float]
    seed: NotRequired[int]
    clients: NotRequired[int]
    tables: NotRequired[int]
    rows_per_commit: NotRequired[int]
    target_inserts_per_s_per_client: NotRequired[int | None]
    inserts: NotRequired[int]
    deletes: NotRequired[int]
    queries: NotRequired[int]
    inserts_per_s: NotRequired[float]
    deletes_per_s: NotRequired[float]
    queries_per_s: NotRequired[float]
    inserts_per_s_per_client: NotRequired[float]
    deletes_per_s_per_client: NotRequired[float]
    queries_per_s_per_client: NotRequired[float]
    series: NotRequired[IbenchSeries]
    rate_percentiles: NotRequired[IbenchRatePercentiles]
    response_time: NotRequired[ResponseTimes]
    retries: NotRequired[Retries]
    client_cpu: NotRequired[ClientCpu]
    index_seconds: NotRequired[float]
    indexed_rows_per_s: NotRequired[float]
    query_mode: NotRequired[Literal["range", "point"]]
    fetched_per_query: NotRequired[FetchedPerQuery]
    background: NotRequired[Background]
    flush: NotRequired[Flush]
    rows: NotRequired[int]
    rows_before: NotRequired[int]
    rows_by_table: NotRequired[dict[str, int]]
    db_bytes: NotRequired[int]
    db_file_bytes: NotRequired[int | None]
    indexes: NotRequired[dict[str, list[str]]]
    server_status_delta: NotRequired[dict[str, float]]
    os: NotRequired[OsCounters]
    per_op: NotRequired[PerOp]
    monitor: NotRequired[Monitor]
    profile: NotRequired[StepProfile]
    waits: NotRequired[PfsWaits]


@final
class IbenchStep(IbenchStepFigures):
    """One Insert Benchmark step ($defs/ibench_step): l.i0, l.x, l.i1, l.i2, flush, qr<N>, qp<N>."""

    problems: Required[list[str]]


# A step this harness measured (counters, samples, costs), of either kind.
RecordedStep = Step | IbenchStep
# Any step of any run, a published table's included: for a reader that takes every kind.
AnyStep = Step | SummaryStep | IbenchStep


class RunFields(TypedDict):
    """A run document but for its host and server: a measured run as the harness builds it,
    before the run describes its host and server (harness/run/document.py)."""

    schema_version: Required[Literal[1]]
    id: Required[str]
    campaign: Required[Campaign]
    variant: Required[str]
    repeat: NotRequired[Repeat]
    reproduces: NotRequired[Reproduces]
    origin: NotRequired[Origin]
    settle: NotRequired[Settle]
    profile: NotRequired[Profile]
    instructions: NotRequired[Instructions]
    purpose: NotRequired[Literal["waits"]]
    status: Required[Literal["complete", "partial", "failed"]]
    status_reason: NotRequired[str]
    started_at: Required[str]
    ended_at: Required[str]
    harness: Required[Harness]
    server_host: NotRequired[ServerHost]
    workload: Required[Workload]
    # origin.kind "summary-table" runs hold SummarySteps; otherwise workload.tool decides:
    # "ibench" runs hold IbenchSteps, every other run Steps.
    steps: Required[list[Step] | list[IbenchStep] | list[SummaryStep]]
    reproduce: NotRequired[Reproduce]


class RunDocument(RunFields):
    """One run file, data/runs/<id>.json."""

    host: Required[Host]
    server: Required[Server]
