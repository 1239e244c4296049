"""Real workload traces (SWF logs) and their conversion to node-level busy time."""

from instances.traces.packing import PackedJob, Packing, pack, window_busy
from instances.traces.swf import SwfError, SwfLog, SwfRecord, SwfTable, read_swf, read_swf_table

__all__ = [
    "PackedJob",
    "Packing",
    "SwfError",
    "SwfLog",
    "SwfRecord",
    "SwfTable",
    "pack",
    "read_swf",
    "read_swf_table",
    "window_busy",
]
