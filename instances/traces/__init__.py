"""Real workload traces (SWF logs) and their conversion to node-level busy time.

The readers load on first use (PEP 562), so that importing
:mod:`instances.traces.bundled` (the list of bundled logs) stays free of numpy.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "PackedJob": "packing", "Packing": "packing", "pack": "packing", "window_busy": "packing",
    "SwfError": "swf", "SwfLog": "swf", "SwfRecord": "swf", "SwfTable": "swf",
    "read_swf": "swf", "read_swf_table": "swf",
}  # fmt: skip

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'instances.traces' has no attribute '{name}'")
    return getattr(importlib.import_module(f"instances.traces.{_HOMES[name]}"), name)
