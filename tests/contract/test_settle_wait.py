"""The write-debt wait as bash runs it (contract/settle_wait.py): it stops as soon as the check
reads 1, fails with a one-line cause naming its limits and timeout when it never does, and the
silent loop older documents recorded is rewritten into it."""

from __future__ import annotations

import subprocess

from contract.settle_wait import loud_wait, wait_command

CHECK = 'mariadb --socket="$SOCKET" -u root -e "SELECT 1"'
OLD_FORM = f'for second in $(seq 300); do [ "$({CHECK} | tail -n 1)" = 1 ] && break; sleep 1; done'
LIMITS = "checkpoint age <= 3276 KB and dirty pages <= 324"
PURPOSE = f"settle write debt: wait (at most 300 s) for {LIMITS}"


def _bash(command: str) -> subprocess.CompletedProcess:
    script = f"set -euo pipefail\n{command}\necho after"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=False)


def test_a_check_that_reads_1_ends_the_wait_and_the_script_goes_on():
    done = _bash(wait_command("printf 'x\\n1\\n'", 5, LIMITS))
    assert (done.returncode, done.stdout, done.stderr) == (0, "after\n", "")


def test_a_wait_that_times_out_stops_the_script_with_its_cause():
    done = _bash(wait_command("echo 0", 1, LIMITS))
    assert done.returncode == 1 and "after" not in done.stdout
    assert done.stderr == (
        f"the write debt did not settle within 1 s ({LIMITS} not reached): the next step would"
        " measure a server still paying it\n"
    )


def test_the_silent_loop_of_older_documents_becomes_the_loud_one():
    assert loud_wait(OLD_FORM, PURPOSE) == wait_command(CHECK, 300, LIMITS)
    assert loud_wait(OLD_FORM, "wait") == wait_command(CHECK, 300, "the recorded limits")
    assert loud_wait("sysbench oltp_read_only run", PURPOSE) == "sysbench oltp_read_only run"
