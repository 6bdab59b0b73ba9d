"""Where a step's server CPU went, from its folded stacks (contract/_profiles.py), and which
functions changed most between two profiles.

A function's total share is the percentage of samples with it anywhere on the stack (counted
once per sample, however deep the recursion); its self share, of samples where it is the leaf.
Profiles are compared by shares, never by raw samples: two passes or two variants sample for
different lengths of time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from contract import Stack


@dataclass(frozen=True)
class Share:
    total_pct: float
    self_pct: float


@dataclass(frozen=True)
class ShareChange:
    function: str
    base: Share
    variant: Share

    @property
    def total_change_pp(self) -> float:
        """Percentage points the function's total share moved, variant minus base."""
        return self.variant.total_pct - self.base.total_pct


def merged(profiles: Iterable[Mapping[Stack, int]]) -> dict[Stack, int]:
    """Several profiles' samples as one (a cell's passes)."""
    total: Counter[Stack] = Counter()
    for stacks in profiles:
        total.update(stacks)
    return dict(total)


def shares(stacks: Mapping[Stack, int]) -> dict[str, Share]:
    samples = sum(stacks.values())
    if not samples:
        return {}
    total: Counter[str] = Counter()
    leaf: Counter[str] = Counter()
    for stack, count in stacks.items():
        for function in set(stack):
            total[function] += count
        leaf[stack[-1]] += count
    return {
        function: Share(100 * count / samples, 100 * leaf[function] / samples)
        for function, count in total.items()
    }


NO_SHARE = Share(0.0, 0.0)


def share_changes(
    base: Mapping[Stack, int], variant: Mapping[Stack, int], limit: int = 15
) -> list[ShareChange]:
    """The functions whose total share moved most between base and variant, largest move
    first; functions on every sample of both (the process, the thread start) say nothing."""
    base_shares, variant_shares = shares(base), shares(variant)
    changes = [
        ShareChange(
            function, base_shares.get(function, NO_SHARE), variant_shares.get(function, NO_SHARE)
        )
        for function in base_shares.keys() | variant_shares.keys()
    ]
    moved = [change for change in changes if change.total_change_pp != 0]
    moved.sort(key=lambda change: (-abs(change.total_change_pp), change.function))
    return moved[:limit]


def folded_text(stacks: Mapping[Stack, int]) -> str:
    """The stacks in the folded format inferno reads: frames joined by ';', a space, samples."""
    return "".join(f"{';'.join(stack)} {count}\n" for stack, count in sorted(stacks.items()))
