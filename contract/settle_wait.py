"""The write-debt wait as a reader's shell runs it: the harness records it among a run's
`reproduce.commands` (harness/run/settle.py), and the generator's replay.sh runs it
(generator/replay/commands.py), which also rewrites the form documents recorded before the wait
failed loudly: that loop gave up after its timeout without a word and the step went on, on a
server still paying its write debt.
"""

from __future__ import annotations

import re
import shlex

# The loop as older documents recorded it: silent when it timed out.
_SILENT_WAIT = re.compile(
    r'for second in \$\(seq (?P<timeout>\d+)\); do \[ "\$\((?P<check>.*) \| tail -n 1\)" = 1 \]'
    r" && break; sleep 1; done"
)
# What the wait's recorded purpose says it waits for (harness/run/settle.py).
_AWAITED = re.compile(r"wait \(at most \d+ s\) for (?P<limits>.+)")


def wait_command(check: str, timeout_s: int, limits: str) -> str:
    """The check (a client command line whose last output line reads 1 once the debt is under
    limits, said in words) once a second, at most timeout_s times; if it never reads 1, a
    one-line cause on stderr and exit status 1: a step measured on a server still paying its
    debt would not be the step the run measured."""
    cause = (
        f"the write debt did not settle within {timeout_s} s ({limits} not reached):"
        " the next step would measure a server still paying it"
    )
    return (
        f'settled=0; for _ in $(seq {timeout_s}); do if [ "$({check} | tail -n 1)" = 1 ];'
        " then settled=1; break; fi; sleep 1; done;"
        f' [ "$settled" = 1 ] || {{ echo {shlex.quote(cause)} >&2; exit 1; }}'
    )


def loud_wait(command: str, purpose: str) -> str:
    """command, the silent wait of an older document rewritten as wait_command writes it, with
    the limits its purpose names."""
    silent = _SILENT_WAIT.fullmatch(command)
    if not silent:
        return command
    awaited = _AWAITED.search(purpose)
    limits = awaited["limits"] if awaited else "the recorded limits"
    return wait_command(silent["check"], int(silent["timeout"]), limits)
