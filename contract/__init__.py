"""The data contract between harness/ and generator/: the run document and its JSON Schema.

This is the one place that knows the schema version and where the schema lives.
"""

from contract._validate import Problem, load_run, validate_dir, validate_document
from contract._write import RunExistsError, write_run

SCHEMA_VERSION = 1
# Monitoring series named <prefix><INNODB_METRICS name> hold the metrics a campaign sampled.
INNODB_METRICS_PREFIX = "innodb_metrics."

__all__ = [
    "INNODB_METRICS_PREFIX",
    "SCHEMA_VERSION",
    "Problem",
    "RunExistsError",
    "load_run",
    "validate_dir",
    "validate_document",
    "write_run",
]
