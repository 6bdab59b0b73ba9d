"""What became of each planned cell (harness/run/cells.py), without a server."""

from harness.run.cells import Cell, CellLedger


def document(variant: str, workload: str, status: str, pass_index: int = 1, **extra) -> dict:
    run_id = f"c.{variant}.{workload}.p{pass_index}"
    repeat = {"index": pass_index, "of": 2}
    return {"id": run_id, "variant": variant, "workload": {"name": workload},
            "status": status, "repeat": repeat, **extra}  # fmt: skip


def test_every_cell_without_a_complete_run_is_named_in_the_order_planned():
    planned = [Cell(v, w, p) for p in (1, 2) for v in ("a", "b") for w in ("rw", "upd")]
    ledger = CellLedger(planned, several_passes=True)
    ledger.written(document("a", "rw", "complete"))
    ledger.written(document("a", "upd", "partial", status_reason="server exited"))
    ledger.not_run([Cell("b", "rw", 1), Cell("b", "upd", 1)], "the server did not start: x")
    ledger.not_written(document("a", "rw", "complete", 2), "disk full; saved to /tmp/r.json")
    ledger.not_run([Cell("a", "rw", 2)], "a later reason does not replace the first")
    ledger.stop("interrupted by Ctrl-C")
    assert ledger.report() == [
        "pass 1 / a / upd: partial (c.a.upd.p1): server exited",
        "pass 1 / b / rw: not run: the server did not start: x",
        "pass 1 / b / upd: not run: the server did not start: x",
        "pass 2 / a / rw: measured but not written: disk full; saved to /tmp/r.json",
        "pass 2 / a / upd: not run: interrupted by Ctrl-C",
        "pass 2 / b / rw: not run: interrupted by Ctrl-C",
        "pass 2 / b / upd: not run: interrupted by Ctrl-C",
    ]
    assert len(ledger.missing()) == 7


def test_a_campaign_of_one_pass_names_cells_without_the_pass():
    ledger = CellLedger([Cell("a", "rw", 1)], several_passes=False)
    ledger.written({"id": "c.a.rw", "variant": "a", "workload": {"name": "rw"},
                    "status": "failed", "status_reason": "loading the data failed"})  # fmt: skip
    assert ledger.report() == ["a / rw: failed (c.a.rw): loading the data failed"]
