"""What became of every cell a campaign run planned (server x variant x workload x pass), so that
the end of a campaign names each one that did not produce a complete run, and why.

A cell ends in one of three ways: its run document was written (complete, partial or failed),
its document was measured but could not be written, or it never ran (its server did not start,
died during an earlier run of the same start, or the campaign stopped first).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import contract


@dataclass(frozen=True)
class Cell:
    variant: str  # the variant's label, <server>.<variant> when the campaign has several servers
    workload: str
    pass_index: int


@dataclass(frozen=True)
class Outcome:
    complete: bool
    reason: str  # for an incomplete cell: what happened, in a few words


@dataclass
class CellLedger:
    planned: list[Cell]  # in the order they run; a resumed campaign plans only what is left
    several_passes: bool
    outcomes: dict[Cell, Outcome] = field(default_factory=dict)
    stopped: str | None = None  # why the campaign ended early (the cells left never ran)

    def written(self, document: contract.RunDocument) -> None:
        """A run document reached the results directory."""
        if document["status"] == "complete":
            self.outcomes[cell_of(document)] = Outcome(True, "")
            return
        reason = f"{document['status']} ({document['id']}): {document.get('status_reason', '')}"
        self.outcomes[cell_of(document)] = Outcome(False, reason)

    def not_written(self, document: contract.RunDocument, cause: str) -> None:
        self.outcomes[cell_of(document)] = Outcome(False, f"measured but not written: {cause}")

    def not_run(self, cells: list[Cell], reason: str) -> None:
        """Cells that never ran; those that already have an outcome keep it."""
        for cell in cells:
            self.outcomes.setdefault(cell, Outcome(False, f"not run: {reason}"))

    def stop(self, reason: str) -> None:
        self.stopped = reason

    def missing(self) -> list[tuple[Cell, str]]:
        """Every planned cell without a complete run, with its reason, in the order planned."""
        found = []
        for cell in self.planned:
            outcome = self.outcomes.get(cell)
            if outcome is None:
                found.append(
                    (cell, f"not run: {self.stopped or 'the harness recorded nothing for it'}")
                )
            elif not outcome.complete:
                found.append((cell, outcome.reason))
        return found

    def name(self, cell: Cell) -> str:
        where = f"{cell.variant} / {cell.workload}"
        return f"pass {cell.pass_index} / {where}" if self.several_passes else where

    def report(self) -> list[str]:
        """One line per cell that did not complete: where, and why."""
        return [f"{self.name(cell)}: {reason}" for cell, reason in self.missing()]


def cell_of(document: contract.RunDocument) -> Cell:
    index = document.get("repeat", {}).get("index", 1)
    return Cell(document["variant"], document["workload"]["name"], index)
