"""Shared by the file-format tests: a document with one value changed or deleted."""

from __future__ import annotations

import copy
from typing import Any


def with_value(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """Return a copy of ``base`` with the value at ``path`` (``jobs.0.nodes``) set.

    ``value`` ``...`` deletes the key instead.
    """
    doc = copy.deepcopy(base)
    *parents, last = path.split(".")
    target: Any = doc
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    key: Any = int(last) if isinstance(target, list) else last
    if value is ...:
        del target[key]
    else:
        target[key] = value
    return doc
