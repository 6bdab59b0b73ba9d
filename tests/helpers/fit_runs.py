"""Copies of committed sysbench runs whose every step is fit to judge
(generator/analysis/verdict.py), for tests of what a page or draft does with judged ratios: the
committed campaigns ran on a busy VM, and most of their steps carry a flag (write debt, steal,
unsteady), so their ratio cells are greyed, not coloured.

A fit copy keeps every figure a ratio is taken from, and changes only what flags a step:
- no VM steal;
- no redo in the kept window: write debt is judged on the kept window only, so none is judged;
  the redo of the warm-up seconds stays, and with it the checkpoint age each run started from
  (the campaign's write-debt rule, generator/analysis/write_debt.py start_spread, still reads it);
- an unsteady step's per-second throughput swings by SWING around its step's figure, alternating
  second by second: steady, and its interval as tight as the steady steps' of the committed runs
  or tighter.
"""

from __future__ import annotations

import copy

from contract import RunDocument, sysbench_steps
from generator.analysis import stats as _stats
from generator.analysis.trust import kept_series, step_trust

SWING = 0.01


def _swinging(value: float, seconds: int) -> list[float]:
    return [value * (1 + SWING * (-1) ** second) for second in range(seconds)]


def fit(run: RunDocument) -> RunDocument:
    """A copy of a sysbench run with every step fit to judge."""
    run = copy.deepcopy(run)
    for step in sysbench_steps(run):
        step.setdefault("os", {})["cpu_steal_pct"] = 0.0
        redo = step.get("monitor", {}).get("series", {}).get("redo_kb_per_s")
        if redo:
            kept = len(kept_series(run, step, "tps"))
            redo[len(redo) - kept :] = [0] * kept
        if _stats.steady_state(kept_series(run, step, "tps"))["steady"] is False:
            series = step["series"]
            series["tps"] = _swinging(step["tps"], len(series["tps"]))
            if series.get("qps"):
                series["qps"] = _swinging(step["qps"]["total"], len(series["qps"]))
        assert step_trust(run, step)["flags"] == [], (run["id"], step["threads"])
    return run
