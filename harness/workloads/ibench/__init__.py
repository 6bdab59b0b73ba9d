"""Mark Callaghan's Insert Benchmark, reimplemented from its description in
Python with PyMySQL: one OS process per role per client, results as JSON-ready dicts.

    from harness.model.ibench_params import DEFAULT_STEPS, IbenchParams
    from harness.workloads.ibench.steps import run_steps
    steps = run_steps({"unix_socket": sock, "user": "root"}, IbenchParams(clients=2,
                      rows_l0=100_000, rows_l12=50_000, query_seconds=60), DEFAULT_STEPS,
                      on_step=document["steps"].append, around_step=sampler_hook)

Modules: rows (row generator), sql (statements), ratelimit, worker_counters (per-second
counters, merging), metrics (rates, percentiles, histograms), workers (the processes), overlap (the
inserter's send, next batch, then reply), flush
(the pause between writes and queries), steps (runs the named steps against a connection),
driver (the Insert Benchmark as a campaign workload). The parameters and step plans are part
of the campaign model (harness/model/ibench_params.py).

The package imports none of its modules, so each imports its siblings without a cycle.
"""
