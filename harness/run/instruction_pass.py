"""A campaign's [instructions] counts for one variant's workloads in one pass: a start of the
variant's server under callgrind from the same loaded data as its measured runs, a fixed number
of sysbench events per workload at one thread, the instructions of each repeat
(harness/measure/instructions.py). The result goes into each run document of the pass as its
`instructions` field; a count that cannot be made costs the runs only that field, with why."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import contract
from harness.errors import ServerStartError, UserError
from harness.measure.instructions import (
    READY_TIMEOUT_S,
    Callgrind,
    callgrind_server_args,
    launch_prefix,
    valgrind_version,
)
from harness.model.campaign import InstructionCounts, Workload
from harness.run.document import commands_in_variables
from harness.servers.sandbox import Sandbox
from harness.workloads.sysbench.commands import SysbenchFailed, events_argv
from harness.workloads.sysbench.dataset import SysbenchCalls

_QUERIES = re.compile(r"^\s*queries:\s+(\d+)", re.MULTILINE)


def counted_workloads(plan: InstructionCounts, group: list[Workload]) -> list[Workload]:
    return [w for w in group if w.tpcc is None and w.ibench is None and plan.covers(w.label)]


def _statements(output: str, where: Path) -> int:
    match = _QUERIES.search(output)
    if match is None:
        raise UserError(f"{where}: sysbench printed no queries total")
    return int(match[1])


def count_group(
    box: Sandbox,
    valgrind: str,
    sysbench: str,
    client_cpus: tuple[int, ...],
    plan: InstructionCounts,
    workloads: list[Workload],
    note: Callable[[str], None],
) -> dict[str, contract.Instructions]:
    """workload label -> its run documents' `instructions` field. box: a sandbox built but not
    started; it is started here under callgrind and stopped before returning."""
    out_dir = box.workdir / "tmp"  # made before the server starts, removed when it stops
    box.launch_prefix = launch_prefix(valgrind, out_dir)
    box.server_args = callgrind_server_args(box.tuned_mycnf)
    box.ready_timeout_s = READY_TIMEOUT_S
    tool = valgrind_version(valgrind)
    try:
        with box:
            callgrind = Callgrind(box.pid, out_dir)
            started = box.reproduce_commands()
            variables = box.replay_variables()
            counts: dict[str, contract.Instructions] = {}
            for workload in workloads:
                log = box.workdir / f"{workload.label}.instructions.log"
                calls = SysbenchCalls(sysbench, client_cpus, log, box.sysbench_target())
                note(f"{workload.label}: counting instructions under callgrind")
                argv = events_argv(sysbench, workload, box.sysbench_target(), plan.events)
                if plan.warmup_events:
                    warmup = events_argv(
                        sysbench, workload, box.sysbench_target(), plan.warmup_events
                    )
                    calls("warm-up, not counted", warmup)
                repeats: list[contract.InstructionRepeat] = []
                for index in range(plan.repeats):
                    purpose = f"counted repeat {index + 1} (callgrind_control --instr=on/off)"
                    with callgrind.counting() as counted:
                        output = calls(purpose, argv)
                    repeats.append(
                        {
                            "connection": counted["connection"],
                            "background": counted["background"],
                            "statements": _statements(output, log),
                        }
                    )
                counts[workload.label] = {
                    "tool": tool,
                    "threads": 1,
                    "events": plan.events,
                    "warmup_events": plan.warmup_events,
                    "repeats": repeats,
                    "commands": commands_in_variables([*started, *calls.commands], variables),
                }
            return counts
    except (ServerStartError, UserError, SysbenchFailed) as exc:
        why = f"the callgrind start failed: {exc}"
        note(f"{box.workdir}: no instruction counts: {why}")
        return {workload.label: {"skipped": why} for workload in workloads}
