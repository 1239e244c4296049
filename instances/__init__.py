"""Problem data for planner: nodes, slots, jobs, instances, files and generators.

The bottom layer of the package stack (instances ← planner ← models ← validation).
"""

from instances.criteria import CRITERIA, GEOMETRIES, Criterion
from instances.errors import DataError, InstanceFileError, LimitError
from instances.instance import Instance
from instances.io import dumps_instance, loads_instance, read_instance, write_instance
from instances.job import Job
from instances.node import Node
from instances.slot import Busy, Slot
from instances.subtract import subtract, subtract_interval
from instances.units import budget_from_price, cost, duration
from instances.workload import ClusterJob, Machine, Workload
from instances.workload_io import dumps_workload, loads_workload, read_workload, write_workload

_LAZY = {
    **dict.fromkeys(("FAMILIES", "WORKLOAD_FAMILIES", "Family", "generate", "generate_workload"),
                    "instances.generators"),
    **dict.fromkeys(("SwfError", "SwfLog", "read_swf"), "instances.traces"),
}  # fmt: skip
"""Names imported on first use: the generators load the heuristics, the SWF readers numpy."""


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'instances' has no attribute {name!r}")


__all__ = [
    "CRITERIA",
    "FAMILIES",
    "GEOMETRIES",
    "WORKLOAD_FAMILIES",
    "Busy",
    "ClusterJob",
    "Criterion",
    "DataError",
    "Family",
    "Instance",
    "InstanceFileError",
    "Job",
    "LimitError",
    "Machine",
    "Node",
    "Slot",
    "SwfError",
    "SwfLog",
    "Workload",
    "budget_from_price",
    "cost",
    "dumps_instance",
    "dumps_workload",
    "duration",
    "generate",
    "generate_workload",
    "loads_instance",
    "loads_workload",
    "read_instance",
    "read_swf",
    "read_workload",
    "subtract",
    "subtract_interval",
    "write_instance",
    "write_workload",
]
