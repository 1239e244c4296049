"""Problem data for planner: nodes, slots, jobs, instances, files and generators.

The bottom layer of the package stack (instances ← planner ← models ← validation).
"""

from instances.criteria import CRITERIA, GEOMETRIES, Criterion
from instances.errors import DataError, InstanceFileError, LimitError
from instances.generators import FAMILIES, Family, generate
from instances.instance import Instance
from instances.io import dumps_instance, loads_instance, read_instance, write_instance
from instances.job import Job
from instances.node import Node
from instances.slot import Busy, Slot
from instances.subtract import subtract, subtract_interval
from instances.traces import SwfError, SwfLog, read_swf
from instances.units import budget_from_price, cost, duration

__all__ = [
    "CRITERIA",
    "FAMILIES",
    "GEOMETRIES",
    "Busy",
    "Criterion",
    "DataError",
    "Family",
    "Instance",
    "InstanceFileError",
    "Job",
    "LimitError",
    "Node",
    "Slot",
    "SwfError",
    "SwfLog",
    "budget_from_price",
    "cost",
    "dumps_instance",
    "duration",
    "generate",
    "loads_instance",
    "read_instance",
    "read_swf",
    "subtract",
    "subtract_interval",
    "write_instance",
]
