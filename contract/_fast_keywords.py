"""A faster Draft 2020-12 validator for run documents, with the same verdicts and messages.

Most of a run document is long runs of plain values: per-second series (arrays of numbers),
SHOW GLOBAL VARIABLES and status deltas (maps of strings or numbers). jsonschema descends into
each value one by one, which made validation most of a site build's time. Here `items`,
`additionalProperties` and `properties` check such values in one loop when their subschema is a
plain scalar type (with an optional minimum/maximum); only when a value fails do they hand over
to jsonschema's own descent, so every error is reported exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import jsonschema

_BASE = jsonschema.Draft202012Validator
_PLAIN_KEYS = frozenset({"type", "minimum", "maximum", "maxLength", "description"})


def _is_type(kind: object) -> Callable[[object], bool] | None:
    """None for anything but one named scalar type (e.g. ["string", "null"]): jsonschema's own
    keyword then checks it."""
    if not isinstance(kind, str):
        return None
    # JSON Schema: booleans are not numbers, and 1.0 is an integer.
    checks: dict[str, Callable[[object], bool]] = {
        "string": lambda value: isinstance(value, str),
        "number": lambda value: isinstance(value, int | float) and not isinstance(value, bool),
        "integer": lambda value: (
            (isinstance(value, int) and not isinstance(value, bool))
            or (isinstance(value, float) and value.is_integer())
        ),
    }
    return checks.get(kind)


def plain_check(subschema: object) -> Callable[[object], bool] | None:
    """A one-value predicate for a subschema that only states a scalar type and bounds (a
    number's minimum and maximum, a string's maxLength)."""
    if not isinstance(subschema, dict) or not subschema.keys() <= _PLAIN_KEYS:
        return None
    of_type = _is_type(subschema.get("type", ""))
    if of_type is None:
        return None
    low, high = subschema.get("minimum"), subschema.get("maximum")
    longest = subschema.get("maxLength")
    return lambda value: (
        of_type(value)
        and (low is None or isinstance(value, str) or value >= low)
        and (high is None or isinstance(value, str) or value <= high)
        and (longest is None or not isinstance(value, str) or len(value) <= longest)
    )


_CHECKS: dict[int, tuple[object, Callable[[object], bool] | None]] = {}


def _cached_check(subschema: object) -> Callable[[object], bool] | None:
    """plain_check, once per subschema: the same few schema nodes are met for every value."""
    seen = _CHECKS.get(id(subschema))
    if seen is None or seen[0] is not subschema:  # a recycled id is a different schema
        seen = _CHECKS[id(subschema)] = (subschema, plain_check(subschema))
    return seen[1]


# jsonschema's keyword signature: (validator, the keyword's value, instance, enclosing schema).
def _items(
    validator: Any, items: object, instance: Any, schema: dict[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    check = _cached_check(items)
    plain = "prefixItems" not in schema and isinstance(instance, list)
    if check is not None and plain and all(check(value) for value in instance):
        return
    yield from _BASE.VALIDATORS["items"](validator, items, instance, schema)


def _additional(
    validator: Any, extra: object, instance: object, schema: dict[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    check = _cached_check(extra)
    if check and "patternProperties" not in schema and isinstance(instance, dict):
        named = schema.get("properties", {})
        if all(check(value) for key, value in instance.items() if key not in named):
            return
    yield from _BASE.VALIDATORS["additionalProperties"](validator, extra, instance, schema)


def _properties(
    validator: Any, properties: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    # jsonschema's own `properties`, with plain values checked in place instead of descended into.
    if not validator.is_type(instance, "object"):
        return
    for name, subschema in properties.items():
        if name not in instance:
            continue
        check = _cached_check(subschema)
        if check is not None and check(instance[name]):
            continue
        yield from validator.descend(instance[name], subschema, path=name, schema_path=name)


FastValidator = jsonschema.validators.extend(
    _BASE, {"items": _items, "additionalProperties": _additional, "properties": _properties}
)
