"""Step counters from /proc: rates and Callaghan's per-operation efficiency columns."""

from harness.measure.counters import (
    CLOCK_TICKS_PER_S,
    OsSample,
    os_delta,
    per_operation,
    status_delta,
)


def sample(at: float, user: int, idle: int, steal: int, switches: int, read: int, written: int):
    cpu = {"user": user, "nice": 0, "system": user // 2, "idle": idle, "iowait": 0, "irq": 0,
           "softirq": 0, "steal": steal}  # fmt: skip
    return OsSample(at, cpu, switches, read, written)


BEFORE = sample(at=10.0, user=1000, idle=5000, steal=0, switches=0, read=0, written=0)
AFTER = sample(at=12.0, user=1200, idle=5100, steal=100, switches=40_000, read=2048, written=8192)


def test_rates_over_the_step():
    rates = os_delta(BEFORE, AFTER)
    # ticks: user 200, system 100, idle 100, steal 100 -> 500 in all
    assert rates["cpu_user_pct"] == 40.0
    assert rates["cpu_system_pct"] == 20.0
    assert rates["cpu_idle_pct"] == 20.0
    assert rates["cpu_steal_pct"] == 20.0
    assert rates["context_switches_per_s"] == 20_000.0
    assert rates["read_kb_per_s"] == 512.0  # 2048 sectors of 512 bytes over 2 s
    assert rates["write_kb_per_s"] == 2048.0


def test_per_operation_costs():
    costs = per_operation(BEFORE, AFTER, operations=1000)
    busy_seconds = 300 / CLOCK_TICKS_PER_S  # user + system ticks; idle and steal are not busy
    assert costs["op"] == "transaction"
    assert costs["cpu_us"] == round(busy_seconds * 1e6 / 1000, 2)
    assert costs["context_switches"] == 40.0
    assert costs["read_kb"] == 1.024
    assert costs["write_kb"] == 4.096


def test_per_operation_survives_a_step_without_operations():
    assert per_operation(BEFORE, AFTER, operations=0)["context_switches"] == 40_000.0


def test_status_delta_keeps_what_moved():
    before = {"Com_select": 10.0, "Uptime": 5.0, "Innodb_row_lock_time_avg": 0.0}
    after = {"Com_select": 110.0, "Uptime": 7.0, "Innodb_row_lock_time_avg": 0.0, "New": 1.5}
    assert status_delta(before, after) == {"Com_select": 100, "Uptime": 2, "New": 1.5}
