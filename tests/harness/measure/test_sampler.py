"""The per-second sampler's recording of sampled INNODB_METRICS: counters as rates, values as
read, and each series' kind kept beside it."""

from harness.measure.counters import OsSample
from harness.measure.sampler import ProcessCpu, StepSampler

CPU = {"user": 0, "nice": 0, "system": 0, "idle": 100, "iowait": 0, "irq": 0, "softirq": 0,
       "steal": 0}  # fmt: skip


def snapshot(at: float, commits: float, checkpoint_age: float) -> tuple:
    """What StepSampler._snapshot returns, for a server that runs elsewhere (no server pid)."""
    metrics = {
        "trx_rw_commits": (commits, True),
        "log_lsn_checkpoint_age": (checkpoint_age, False),
    }
    return (at, OsSample(at, CPU, 0, 0, 0), {}, ProcessCpu(None, 0.0, {}), None, metrics)


def test_counters_become_rates_values_stay_and_both_kinds_are_recorded():
    sampler = StepSampler(connection=None, server_pid=None, innodb_metrics=("trx_rw_commits",))
    first = snapshot(10.0, commits=100, checkpoint_age=5000)
    second = snapshot(12.0, commits=300, checkpoint_age=7000)
    sampler._record(first, first, second)
    series = sampler._series  # what stop() returns once the thread has ended
    assert series["innodb_metrics.trx_rw_commits"] == [100.0]  # 200 commits over 2 s
    assert series["innodb_metrics.log_lsn_checkpoint_age"] == [7000.0]
    assert sampler.kinds == {
        "innodb_metrics.trx_rw_commits": "counter",
        "innodb_metrics.log_lsn_checkpoint_age": "value",
    }
