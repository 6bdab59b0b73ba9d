"""Version ranges and the tables keyed by them: a value per product family and version range."""

from __future__ import annotations

from dataclasses import dataclass

Version = tuple[int, ...]


@dataclass(frozen=True)
class Versions:
    """The versions from `first` up to, not including, `before`."""

    first: Version = (0,)
    before: Version | None = None

    def __contains__(self, version: Version) -> bool:
        return self.first <= version and (self.before is None or version < self.before)


ALL = Versions()


def since(*first: int) -> Versions:
    return Versions(first)


def until(*before: int) -> Versions:
    return Versions(before=before)


Rows = tuple[tuple[Versions, str], ...]


def first_value(rows: Rows, version: Version) -> str | None:
    """The value of the first row whose range holds the version."""
    return next((value for versions, value in rows if version in versions), None)


def in_force(
    table: dict[str, dict[str, Versions]], family: str, version: Version
) -> frozenset[str]:
    """The keys of a table whose range for this family holds the version."""
    return frozenset(
        key
        for key, families in table.items()
        if family in families and version in families[family]
    )
