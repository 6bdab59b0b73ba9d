"""A campaign as the harness runs it: servers, my.cnf variants, workloads with their sweeps, and
what is measured besides (profiles, instruction counts)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.model.ibench_params import IbenchSpec
from harness.model.suites import SuiteTest
from harness.model.tpcc_options import TpccOptions

OptionValue = str | int | float | bool  # a my.cnf option's value, as TOML gives it
DEFAULT_FREQUENCY_HZ = 99  # perf's samples per second (harness/measure/profile.py)


@dataclass(frozen=True)
class Server:
    label: str
    kind: str
    basedir: Path
    cpus: tuple[int, ...] = ()  # empty: not pinned
    datadir_root: Path | None = None  # where datadirs live (storage under test); None: workdir
    # kind = "existing": a running server the harness connects to (harness/servers/existing/).
    host: str | None = None  # TCP host; None: socket
    port: int = 3306
    socket: Path | None = None
    user: str | None = None
    password_env: str | None = None  # the variable's name; its value is never stored here
    option_file: Path | None = None  # client option file holding the password
    restart_command: str | None = None  # applies non-dynamic options ($MYBENCH_VARIANT_CNF)


@dataclass(frozen=True)
class Variant:
    label: str
    description: str
    options: dict[str, OptionValue]


@dataclass(frozen=True)
class Sweep:
    threads: list[int]
    step_seconds: int
    sleep_seconds: float = 0
    warmup_seconds: int = 0
    trim_seconds: int | None = None  # None: generator/analysis/stats.py's default
    settle: str | None = None  # "checkpoint": let write debt settle first (harness/run/settle.py)
    settle_timeout_s: int = 300


@dataclass(frozen=True)
class Profiling:
    """[profile]: perf samples the server during every measured step (harness/measure/profile.py)."""

    enabled: bool = True
    frequency_hz: int = DEFAULT_FREQUENCY_HZ
    # One more run per (variant, workload) after the passes, performance_schema timing its
    # waits (harness/measure/waits.py); never a measurement.
    waits_pass: bool = False


@dataclass(frozen=True)
class InstructionCounts:
    """[instructions]: before each pass's measured runs of a variant, a separate start of its
    server under callgrind counts the instructions of a fixed number of events per sysbench
    workload at one thread (harness/measure/instructions.py)."""

    events: int = 2000
    warmup_events: int = 500
    repeats: int = 2
    workloads: tuple[str, ...] = ()  # workload labels; empty: every sysbench workload

    def covers(self, label: str) -> bool:
        return not self.workloads or label in self.workloads


@dataclass(frozen=True)
class Workload:
    label: str
    test: str  # a stock sysbench test or a project Lua test (harness/workloads/sysbench/project_lua.py)
    tables: int
    table_size: int  # rows per table; 0 for tpcc (its population rules size the tables)
    options: dict[str, str]  # sysbench option name (dashes) -> value text
    sweep: Sweep = Sweep([1], 1)
    suite: SuiteTest | None = None  # set when the workload is one test of a preset suite
    tpcc: TpccOptions | None = None  # set for test = "tpcc" (harness/workloads/tpcc/)
    ibench: IbenchSpec | None = None  # set for test = "ibench" (harness/workloads/ibench)

    @property
    def step_count(self) -> int:
        """Measured steps: thread levels, or the Insert Benchmark's steps."""
        return len(self.ibench.steps) if self.ibench else len(self.sweep.threads)


@dataclass(frozen=True)
class Campaign:
    path: Path
    name: str
    title: str
    description: str
    servers: list[Server]
    base_mycnf: str
    variants: list[Variant]
    workloads: list[Workload]
    repeats: int = 1  # passes over the whole matrix, interleaved
    client_cpus: tuple[int, ...] = ()  # empty: not pinned
    innodb_metrics: tuple[str, ...] = ()  # INNODB_METRICS names or LIKE patterns to sample
    reproduces: dict[str, object] | None = None  # written by mybench reproduce: run_id, source ...
    host_label: str | None = None  # [host] label: the machine's name on the site
    profile: Profiling = Profiling()
    instructions: InstructionCounts | None = None  # None: no [instructions] section
