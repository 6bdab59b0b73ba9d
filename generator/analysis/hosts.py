"""Which host a run document comes from: the one answer every page uses (run and campaign pages,
/browse/, the home page lists, the drift banners).

A run records its host fingerprint (contract/_host_fingerprint.py). Runs written before the
fingerprint existed get one derived here from what they recorded (CPU, cores, threads, RAM,
datadir storage, and the hostname in place of the machine id), marked `derived` so the pages
can say so. The hostname alone never decides: two machines both called "vm" stay two hosts.

A host is named by its campaign's `[host] label`, else by a short description (hostname, CPU,
cores, RAM); either way the name ends with the fingerprint's first six digits, so two machines
never share a name even when someone gave both the same label.
"""

from __future__ import annotations

import re
from typing import TypedDict

from contract import Host, RunDocument, host_fingerprint, host_variant_prefix, ram_gib

SHORT_DIGITS = 6
# Trademarks, "CPU", "Processor", "64-Core" and the clock say nothing that tells machines apart.
_CPU_NOISE = re.compile(r"\((?:R|TM|tm)\)|\bCPU\b|\bProcessor\b|\b[0-9]+-Core\b|@.*$")
# A host's name is its /hosts/ page's path (contract.page_segment), where these are refused: a
# model the kernel reports with one ("w/ Radeon") must not cost a machine its page.
_PATH_CHARACTERS = re.compile(r"[/\\%#]")


class RunHost(TypedDict):
    fingerprint: str
    name: str
    derived: bool  # True: the run predates recorded fingerprints; derived from its facts


def cpu_name(model: str) -> str:
    """'Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz' -> 'Intel Xeon Gold 6248'."""
    return " ".join(_PATH_CHARACTERS.sub(" ", _CPU_NOISE.sub(" ", model)).split()) or "CPU"


def _hardware(host: Host) -> list[str]:
    """CPU, cores and RAM as recorded: a measured run has all three, an imported one only what
    its source said (often none: its hostname is the label the user gave)."""
    parts = []
    if "cpu_model" in host:
        parts.append(cpu_name(host["cpu_model"]))
    threads = host.get("cpu_threads")
    if threads is not None:
        cores = host.get("cpu_cores", threads)
        parts.append(f"{cores} cores" if cores == threads else f"{cores} cores, {threads} threads")
    if "ram_bytes" in host:
        parts.append(f"{ram_gib(host['ram_bytes'])} GiB")
    return parts


def host_of(run: RunDocument) -> RunHost:
    """The host run came from: its fingerprint (recorded, else derived), and its name."""
    host = run["host"]
    recorded = host.get("fingerprint")
    fingerprint = recorded or host_fingerprint(host, None)
    short = fingerprint[:SHORT_DIGITS]
    label = host.get("label")
    if label:
        name = f"{label} · {short}"
    else:
        name = " · ".join([host["hostname"], *_hardware(host), short])
    # An imported run's host is the label given at import, not facts a fingerprint could hold.
    derived = recorded is None and "origin" not in run
    return {"fingerprint": fingerprint, "name": name, "derived": derived}


def hosts_of(runs: list[RunDocument]) -> list[RunHost]:
    """The distinct hosts of runs, in order of first appearance, told apart by name as every
    other page does (drift banners, /hosts/): one machine under two labels, as when a fleet is
    tried out on one machine, is two hosts."""
    seen: dict[str, RunHost] = {}
    for run in runs:
        host = host_of(run)
        seen.setdefault(host["name"], host)
    return list(seen.values())


def same_variant_across_hosts(
    variants: list[str], runs: list[RunDocument]
) -> dict[str, list[str]]:
    """A fleet's variants by the variant each host ran: `<variant>` -> its
    `<host>.<variant>` names in the given order, for each variant run on two hosts or more
    (contract.host_variant_prefix). Empty for a campaign of one host, and for a fleet of one
    variant, whose ratios to the base are already host against host."""
    prefixes = _fleet_prefixes(runs)
    by_variant: dict[str, list[str]] = {}
    for variant in variants:
        if prefix := prefixes.get(variant):
            by_variant.setdefault(variant.removeprefix(prefix), []).append(variant)
    across = {variant: named for variant, named in by_variant.items() if len(named) > 1}
    return across if len(by_variant) > 1 else {}


def _fleet_prefixes(runs: list[RunDocument]) -> dict[str, str]:
    """variant -> its host's prefix, for the runs whose variant is named after their host."""
    prefixes = {
        run["variant"]: host_variant_prefix(run["host"]["label"])
        for run in runs
        if run["host"].get("label")
    }
    return {variant: p for variant, p in prefixes.items() if variant.startswith(p)}


def host_bases(variants: list[str], runs: list[RunDocument]) -> dict[str, str]:
    """A fleet's variants by the base of their ratios: the first variant their own host ran, so
    that each host's variants compare within that host (the hosts against each other are
    same_variant_across_hosts' tables). Empty for a campaign of one host, and for a fleet of
    one variant per host, whose ratios to the first host's are the comparison it is run for."""
    prefixes = _fleet_prefixes(runs)
    first: dict[str, str] = {}
    bases = {}
    for variant in variants:
        if prefix := prefixes.get(variant):
            bases[variant] = first.setdefault(prefix, variant)
    within_a_host = len(bases) > len(first)
    return bases if len(first) > 1 and within_a_host else {}
