"""isinstance for IR objects, memoized per class: xDSL's op classes are ABCs, whose isinstance is a Python-level call."""

from __future__ import annotations

_IS_A: dict[tuple[type, object], bool] = {}


def is_a(obj: object, classes: type | tuple[type, ...]) -> bool:
    """isinstance(obj, classes), for the scans over every op of a module (a dict lookup once
    the class of `obj` has been seen: an ABC's check costs several times more)."""
    key = (type(obj), classes)
    found = _IS_A.get(key)
    if found is None:
        found = _IS_A[key] = isinstance(obj, classes)
    return found
