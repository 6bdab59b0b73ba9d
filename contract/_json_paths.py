"""JSON paths ($.steps[0].tps) of a parsed document's members, for problems that name them."""

from __future__ import annotations


def children(value: object, path: str) -> list[tuple[str, object]]:
    """(JSON path, member) of each member of an object or array; none for a scalar."""
    if isinstance(value, dict):
        return [(f"{path}.{key}", item) for key, item in value.items()]
    if isinstance(value, list):
        return [(f"{path}[{index}]", item) for index, item in enumerate(value)]
    return []
