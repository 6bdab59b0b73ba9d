"""How lists name a run: as its run page's title does, with the pass of a repeated run."""

import copy

from generator.pages.run_label import run_name


def test_a_run_is_named_by_workload_server_and_variant(fixture_runs):
    run = copy.deepcopy(fixture_runs[0].doc)
    run.pop("repeat", None)
    run["server"]["product"] = "mariadb"
    workload, version = run["workload"]["name"], run["server"]["version"]
    assert run_name(run) == f"{workload} on MariaDB {version}, {run['variant']}"


def test_a_pass_of_a_repeated_run_is_named_with_its_repeat(fixture_runs):
    run = copy.deepcopy(fixture_runs[0].doc)
    run["repeat"] = {"index": 2, "of": 3}
    run["server"]["product"] = "percona"
    assert run_name(run).endswith(
        f"on Percona Server {run['server']['version']}, {run['variant']}, repeat 2 of 3"
    )
