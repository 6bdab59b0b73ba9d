"""This machine's storage as a campaign records it: the fio jobs of harness/measure/storage.py,
measured now (never from the cache) on the filesystem of --datadir-at.

    .venv/bin/python bench/storage.py [--datadir-at .scratch/sandboxes] [--file-mb 256]
                                      [--seconds 3] [--repeats 1]

Prints each measurement's figures and, with --repeats above 1, the spread of the headline ones
(fdatasync p50, QD1 and QD32 read IOPS, sequential MB/s) as min / median / max: on shared or
virtual storage two measurements minutes apart can differ, and a campaign keeps only the
first. Nothing is asserted: the figures describe this machine.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from harness import PROJECT_ROOT
from harness.measure import storage

HEADLINES = {
    "fdatasync p50 (µs)": lambda found: found["sync_write_4k"].get("p50_us"),
    "16 KiB reads QD1 (IOPS)": lambda found: found["rand_read_16k_qd1"]["iops"],
    "16 KiB reads QD32 (IOPS)": lambda found: found["rand_read_16k_qd32"]["iops"],
    "1 MiB writes (MB/s)": lambda found: found["seq_write"]["mb_per_s"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datadir-at", type=Path, default=PROJECT_ROOT / ".scratch" / "sandboxes")
    parser.add_argument("--file-mb", type=int, default=storage.DEFAULT_FILE_MB)
    parser.add_argument("--seconds", type=float, default=storage.DEFAULT_SECONDS)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    _, device = storage.host_key(args.datadir_at)
    measured = []
    for index in range(args.repeats):
        found = storage.measure(args.datadir_at, device, args.file_mb, args.seconds)
        measured.append(found)
        print(f"measurement {index + 1} of {args.repeats} under {args.datadir_at}:")
        print("\n".join(storage.report_lines(found)))
    if args.repeats > 1:
        print("spread (min / median / max):")
        for name, figure in HEADLINES.items():
            values = [value for value in map(figure, measured) if value is not None]
            low, middle, high = min(values), statistics.median(values), max(values)
            print(f"  {name}: {low:,.0f} / {middle:,.0f} / {high:,.0f}")


if __name__ == "__main__":
    main()
