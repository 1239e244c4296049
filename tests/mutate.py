"""Mutating a valid JSON document for the fuzz tests (instance and workload files)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st


def json_paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys/indices) to a value in ``doc``."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += json_paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += json_paths(v, (*prefix, i))
    return out


def mutate(draw: st.DrawFn, valid: Any, nasty: Sequence[Any], ops: Sequence[str],
           extra_keys: Sequence[str]) -> Any:  # fmt: skip
    """Return a copy of ``valid`` with 1-3 drawn mutations: ``replace`` a value by a nasty
    one, ``delete`` it, add an ``extra`` key beside it, or ``nest`` it in a list."""
    doc = json.loads(json.dumps(valid))
    paths = json_paths(valid)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent: Any = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            last = path[-1]
            parent[last]  # the path may be gone after an earlier mutation
        except (KeyError, IndexError, TypeError):
            continue
        op = draw(st.sampled_from(ops))
        if op == "replace":
            parent[last] = draw(st.sampled_from(nasty) | st.floats() | st.integers())
        elif op == "delete":
            del parent[last]
        elif op == "extra" and isinstance(parent, dict):
            parent[draw(st.sampled_from(extra_keys))] = 1
        elif op == "nest":
            parent[last] = [parent[last]] * 2
    return doc
