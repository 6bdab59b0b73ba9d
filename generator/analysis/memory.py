"""In-memory or IO-bound: the workload's data size against the InnoDB buffer pool.

The same sysbench test measures different things on either side of that line (CPU and latches
in memory, the storage and the flushing otherwise), so every run page says which side it is on.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, whole_number
from contract.fields import server_variable

SIZE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB")
TIMES = "\u00d7"  # the multiplication sign: "data is 15 times the buffer pool"
# Above this many times the buffer pool, tenths of a "times" are noise to the reader.
WHOLE_TIMES_FROM = 10


def size_text(count: float) -> str:
    """Bytes in binary units with at most one decimal: '1.9 GiB', '128 MiB'."""
    unit = 0
    while count >= 1024 and unit < len(SIZE_UNITS) - 1:
        count /= 1024
        unit += 1
    return f"{count:.1f}".removesuffix(".0") + f" {SIZE_UNITS[unit]}"


def memory_fit(run: RunDocument) -> dict[str, Any] | None:
    """{"fit": "in-memory" | "io-bound", "short": ..., "text": ...}; None when the run lacks
    its data size or buffer pool size."""
    data = run["workload"].get("data_bytes")
    pool = whole_number(server_variable(run, "innodb_buffer_pool_size") or "")
    if data is None or not pool:
        return None
    sizes = f"data {size_text(data)}, buffer pool {size_text(pool)}"
    if data <= pool:
        share = round(100 * data / pool)
        share_text = f"{share} %" if share >= 1 else "under 1 %"
        return {
            "fit": "in-memory",
            "short": f"in-memory (data {share_text} of the buffer pool)",
            "text": f"{sizes}: in-memory (data fits in the buffer pool, {share_text} of it)",
        }
    times = data / pool
    times_text = f"{times:.0f}" if times >= WHOLE_TIMES_FROM else f"{times:.1f}"
    return {
        "fit": "io-bound",
        "short": f"IO-bound (data {times_text}{TIMES} the buffer pool)",
        "text": f"{sizes}: IO-bound (data is {times_text}{TIMES} the buffer pool)",
    }
