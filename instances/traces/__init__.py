"""Real workload traces (SWF logs) and their conversion to node-level busy time."""

from instances.traces.packing import PackedJob, Packing, pack, window_busy
from instances.traces.swf import SwfError, SwfLog, SwfRecord, read_swf

__all__ = [
    "PackedJob",
    "Packing",
    "SwfError",
    "SwfLog",
    "SwfRecord",
    "pack",
    "read_swf",
    "window_busy",
]
