"""The data contract between harness/ and generator/: the run document and its JSON Schema.

This is the one place that knows the schema version and where the schema lives.
"""

from datetime import UTC, datetime

from contract._validate import Problem, load_run, validate_dir, validate_document
from contract._write import RunExistsError, write_run

SCHEMA_VERSION = 1
# Monitoring series named <prefix><INNODB_METRICS name> hold the metrics a campaign sampled.
INNODB_METRICS_PREFIX = "innodb_metrics."


def utc_timestamp() -> str:
    """Now, in the form the schema's timestamps take."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


__all__ = [
    "INNODB_METRICS_PREFIX",
    "SCHEMA_VERSION",
    "Problem",
    "RunExistsError",
    "load_run",
    "utc_timestamp",
    "validate_dir",
    "validate_document",
    "write_run",
]
