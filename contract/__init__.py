"""The data contract between harness/ and generator/: the run document and its JSON Schema.

This is the one place that knows the schema version and where the schema lives.
"""

from datetime import UTC, datetime

from contract._fleet import host_variant_prefix
from contract._host_fingerprint import host_fingerprint, ram_gib
from contract._inferno import InfernoMissing, inferno
from contract._numbers import (
    LARGEST_COUNT,
    LARGEST_FIGURE,
    SMALLEST_FIGURE,
    NotAFigure,
    figure,
    whole_number,
)
from contract._page_names import PageNameError, page_segment
from contract._profiles import (
    MAX_STACKS_PER_STEP,
    PROFILE_SCHEMA_PATH,
    ProfileFile,
    Stack,
    folded,
    interned,
    load_profile,
    profile_file_name,
    profile_fits,
    step_key,
    write_profile,
)
from contract._results_dir import validate_dir
from contract._run_document import (
    Background,
    Build,
    Campaign,
    ClientCpu,
    CompiledDefaults,
    DataOrigin,
    FioResult,
    Harness,
    Host,
    IbenchStep,
    Latency,
    Monitor,
    Origin,
    OsCounters,
    PerOp,
    Profile,
    Qps,
    Repeat,
    Reproduce,
    Reproduces,
    ResponseHistogram,
    RunDocument,
    Server,
    ServerHost,
    Snapshot,
    Step,
    StepProfile,
    StepSeries,
    Storage,
    Suite,
    SummaryStep,
    TpccStep,
    Workload,
    WorkloadTpcc,
)
from contract._secrets import (
    REDACTED,
    credential_leaks,
    is_secret_name,
    redact_document,
    redact_options,
    redact_text,
)
from contract._steps import ibench_steps, is_ibench, recorded_steps, sysbench_steps
from contract._strict_json import parse_strict
from contract._validate import (
    SCHEMA_PATH,
    Problem,
    check_run,
    load_run,
    run_files,
    schema_problems,
    unreadable,
    validate_document,
)
from contract._write import RunExistsError, write_new_file, write_run

# Version 1 has grown by optional fields only; README.md beside this file lists them and says
# what change would need version 2 and how version 1 documents would be read then.
SCHEMA_VERSION = 1
# Monitoring series named <prefix><INNODB_METRICS name> hold the metrics a campaign sampled.
INNODB_METRICS_PREFIX = "innodb_metrics."


def utc_timestamp() -> str:
    """Now, in the form the schema's timestamps take."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


__all__ = [
    "INNODB_METRICS_PREFIX",
    "LARGEST_COUNT",
    "LARGEST_FIGURE",
    "MAX_STACKS_PER_STEP",
    "PROFILE_SCHEMA_PATH",
    "REDACTED",
    "SCHEMA_PATH",
    "SCHEMA_VERSION",
    "SMALLEST_FIGURE",
    "Background",
    "Build",
    "Campaign",
    "ClientCpu",
    "CompiledDefaults",
    "DataOrigin",
    "FioResult",
    "Harness",
    "Host",
    "IbenchStep",
    "InfernoMissing",
    "Latency",
    "Monitor",
    "NotAFigure",
    "Origin",
    "OsCounters",
    "PageNameError",
    "PerOp",
    "Problem",
    "Profile",
    "ProfileFile",
    "Qps",
    "Repeat",
    "Reproduce",
    "Reproduces",
    "ResponseHistogram",
    "RunDocument",
    "RunExistsError",
    "Server",
    "ServerHost",
    "Snapshot",
    "Stack",
    "Step",
    "StepProfile",
    "StepSeries",
    "Storage",
    "Suite",
    "SummaryStep",
    "TpccStep",
    "Workload",
    "WorkloadTpcc",
    "check_run",
    "credential_leaks",
    "figure",
    "folded",
    "host_fingerprint",
    "host_variant_prefix",
    "ibench_steps",
    "inferno",
    "interned",
    "is_ibench",
    "is_secret_name",
    "load_profile",
    "load_run",
    "page_segment",
    "parse_strict",
    "profile_file_name",
    "profile_fits",
    "ram_gib",
    "recorded_steps",
    "redact_document",
    "redact_options",
    "redact_text",
    "run_files",
    "schema_problems",
    "step_key",
    "sysbench_steps",
    "unreadable",
    "utc_timestamp",
    "validate_dir",
    "validate_document",
    "whole_number",
    "write_new_file",
    "write_profile",
    "write_run",
]
