"""Campaign files with `test = "ibench"`: options become IbenchParams, steps are checked at load
time, and every mistake is one line naming the file and the key."""

import pytest

from harness.campaign.load import load_campaign
from harness.errors import UserError
from harness.model.ibench_params import DEFAULT_STEPS
from harness.workloads.ibench.driver import ibench_command
from tests.helpers.campaign_files import HEAD, write

CAMPAIGN = (
    HEAD
    + """[workloads.ib]
test = "ibench"
options = { clients = 2, rows_l0 = 1000, query_seconds = 3, only1t = true }
"""
)


def test_options_and_default_steps_need_no_sweep(tmp_path):
    (workload,) = load_campaign(write(tmp_path, CAMPAIGN)).workloads
    params = workload.ibench.params
    assert (params.clients, params.rows_l0, params.query_seconds, params.only1t) == (
        2,
        1000,
        3,
        True,
    )
    assert workload.ibench.steps == DEFAULT_STEPS
    assert workload.step_count == len(DEFAULT_STEPS)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("clients = 2", "client = 2"), r"\[workloads.ib.options\]: client is not an ibench option"),
        (("clients = 2", 'clients = "2"'), r"\[workloads.ib.options\]: clients = '2': expected int"),
        (("clients = 2", "clients = 0"), r"\[workloads.ib.options\]: .*clients must be >= 1"),
        (('test = "ibench"', 'test = "ibench"\nsteps = ["l.i0", "qx1"]'), r"\[workloads.ib.steps\]: unknown ibench step 'qx1'"),
        (('test = "ibench"', 'test = "ibench"\nsteps = ["l.x"]'), r"\[workloads.ib.steps\]: the first step must be l.i0"),
        (('test = "ibench"', 'test = "ibench"\nsteps = ["l.i0", "qr10", "qr10"]'), r"step qr10 appears twice"),
        (('test = "ibench"', 'test = "ibench"\ntable_size = 5'), r"\[workloads.ib.table_size\]: not an ibench key"),
        (('test = "ibench"', 'test = "oltp_insert"\nsteps = ["l.i0"]'), r"\[workloads.ib.steps\]: only for test = \"ibench\""),
    ],
)  # fmt: skip
def test_mistakes_name_the_file_and_key(tmp_path, change, expected):
    path = write(tmp_path, CAMPAIGN.replace(*change))
    with pytest.raises(UserError, match=expected) as caught:
        load_campaign(path)
    assert str(caught.value).startswith(f"{path}: ") and "\n" not in str(caught.value)


def test_replay_command_carries_the_non_default_parameters(tmp_path):
    class Box:
        def connect_args(self):
            return {"unix_socket": "/tmp/s/mysqld.sock", "user": "root"}

    (workload,) = load_campaign(write(tmp_path, CAMPAIGN)).workloads
    command = ibench_command(Box(), workload.ibench.params, ("l.i0", "qr100"))
    assert command == (
        ".venv/bin/python -m harness.workloads.ibench --socket /tmp/s/mysqld.sock --user root --clients 2"
        " --rows-l0 1000 --query-seconds 3 --only1t --steps l.i0,qr100"
    )
