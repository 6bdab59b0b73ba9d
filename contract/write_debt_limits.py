"""Write-debt limits shared by the harness, which waits before each measured step until the
debt is under them (harness/run/settle.py), and the generator, which judges a step's start by
the same limits (generator/analysis/write_debt.py): a step the harness settled starts where the
judgement calls it settled. One definition of the redo log's capacity serves both.
"""

from __future__ import annotations

from collections.abc import Mapping

from contract._numbers import whole_number

# Settled: the checkpoint age at most this share of the redo capacity, and the dirty pages at
# most this share of the buffer pool's pages.
SETTLED_SHARE = 0.05
DIRTY_SETTLED_SHARE = 0.01


def redo_capacity_bytes(variables: Mapping[str, str | None]) -> int | None:
    """innodb_log_file_size x innodb_log_files_in_group (1 when the server has no such variable:
    MariaDB 10.5 and later keep one file), from server variables as text; None without a size."""
    size = whole_number(variables.get("innodb_log_file_size") or "")
    if not size:
        return None
    return size * (whole_number(variables.get("innodb_log_files_in_group") or "") or 1)
