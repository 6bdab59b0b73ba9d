"""The storage under a run's datadir, as fio characterised it (host.storage, recorded by
harness/measure/storage.py): one sentence for every disclosure box, and a table per host page.

A disclosure says it in one line because it bounds every durable-commit figure on the page: a
run with innodb_flush_log_at_trx_commit=1 cannot commit faster than one fdatasync, and a flush
under 10 microseconds means a write cache that acknowledges flushes it has not made durable.
The host pages (/hosts/<host>/) list every distinct measurement of the host, newest first, from
the site-wide data/hosts.json that the campaigns' pieces join into (generator/hugo/build_tree.py).
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, Storage
from generator.analysis.hosts import host_of
from generator.pages.numbers import format_number

NOT_CHARACTERISED = "not characterised: no fio figures were recorded for this run's host"
MAX_MEASUREMENTS = 10  # per host page, newest first: a re-measured host shows how it moved

_FLUSHES = {
    True: "flushes honoured",
    False: (
        "flushes NOT honoured: an fdatasync returns in under 10 µs, so a volatile write cache"
        " acknowledges it and durable commits look cheaper than on crash-safe storage"
    ),
    None: "whether flushes are honoured is unknown",
}


def _us(latency: float | None) -> str:
    return f"{format_number(latency)} µs" if latency is not None else "unknown"


def storage_sentence(storage: Storage) -> str:
    """'fdatasync p50 136 µs (p99 220 µs), 16 KiB random reads 15,267 IOPS at QD1 ...'."""
    sync, qd1 = storage["sync_write_4k"], storage["rand_read_16k_qd1"]
    qd32, sequential = storage["rand_read_16k_qd32"], storage["seq_write"]
    cache = storage["write_cache"] or "not reported"
    return (
        f"fdatasync p50 {_us(sync.get('p50_us'))} (p99 {_us(sync.get('p99_us'))}),"
        f" 16 KiB random reads {format_number(qd1['iops'])} IOPS at QD1"
        f" (p50 {_us(qd1.get('p50_us'))}) and {format_number(qd32['iops'])} at QD32,"
        f" 1 MiB sequential writes {format_number(sequential['mb_per_s'])} MB/s;"
        f" write cache {cache}; {_FLUSHES[storage.get('flushes_honoured')]}"
        f" (fio {storage['version']}, {storage['measured_at'][:10]})"
    )


def run_storage(run: RunDocument) -> dict[str, Any]:
    """The run disclosure's storage line: its text and whether the host was characterised."""
    storage = run["host"].get("storage")
    if storage is None:
        return {"measured": False, "text": NOT_CHARACTERISED}
    return {"measured": True, "text": storage_sentence(storage)}


def campaign_storage(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """The campaign disclosure's storage lines: one per host (a fleet has several), from the
    host's latest run that recorded the storage; host: its name, None with one host."""
    latest: dict[str, Storage | None] = {}
    for run in sorted(runs, key=lambda run: run["started_at"]):
        name = host_of(run)["name"]
        latest[name] = run["host"].get("storage") or latest.get(name)
    several = len(latest) > 1
    return [
        {
            "host": name if several else None,
            "measured": storage is not None,
            "text": storage_sentence(storage) if storage is not None else NOT_CHARACTERISED,
        }
        for name, storage in sorted(latest.items())
    ]


def host_measurements(runs: list[RunDocument]) -> dict[str, list[Storage]]:
    """A campaign's piece of data/hosts.json: each host's name (its /hosts/ page's term) ->
    the distinct storage measurements its runs carry."""
    found: dict[str, dict[tuple[str, str | None], Storage]] = {}
    for run in runs:
        if (storage := run["host"].get("storage")) is not None:
            name = host_of(run)["name"]
            found.setdefault(name, {})[(storage["measured_at"], storage["device"])] = storage
    return {name: list(by_key.values()) for name, by_key in found.items()}


def host_pages(pieces: list[dict[str, list[Storage]]]) -> dict[str, list[dict[str, Any]]]:
    """data/hosts.json from every campaign's piece: per host name, its distinct
    measurements newest first (at most MAX_MEASUREMENTS), each a row of formatted cells
    (layouts/_partials/hosts/storage.html)."""
    merged: dict[str, dict[tuple[str, str | None], Storage]] = {}
    for piece in pieces:
        for name, measurements in piece.items():
            for storage in measurements:
                key = (storage["measured_at"], storage["device"])
                merged.setdefault(name, {})[key] = storage
    return {
        name: [
            _row(storage)
            for _, storage in sorted(by_key.items(), key=lambda item: item[0], reverse=True)
        ][:MAX_MEASUREMENTS]
        for name, by_key in sorted(merged.items())
    }


def _row(storage: Storage) -> dict[str, Any]:
    sync = storage["sync_write_4k"]
    honoured = storage.get("flushes_honoured")
    return {
        "measured_at": storage["measured_at"],
        "device": storage["device"] or "—",
        "fsync_p50": format_number(sync.get("p50_us")),
        "fsync_p99": format_number(sync.get("p99_us")),
        "read_qd1": format_number(storage["rand_read_16k_qd1"]["iops"]),
        "read_qd32": format_number(storage["rand_read_16k_qd32"]["iops"]),
        "seq_write": format_number(storage["seq_write"]["mb_per_s"]),
        "write_cache": storage["write_cache"] or "not reported",
        "flushes": {True: "yes", False: "no", None: "unknown"}[honoured],
        "lying": honoured is False,
        "fio": storage["version"],
    }
