"""VO job flows over slots: cycles of alternatives search and combination (Toporkov et al. 2015).

:func:`run_flow` simulates cycles; :mod:`planner.vo.policies` holds the
policies (CSS, batch-slicer) as plug-ins; :mod:`planner.vo.metrics` the
per-cycle metrics. The VO policy (a combination problem (6)–(9)) is passed
in as a callable, built by ``models.combination.vo_policy``. See
``docs/vo-flows.md``.
"""

from planner.vo.cycle import Combine, CycleOutcome, Phase, run_phase
from planner.vo.flow import (
    CycleRecord,
    Flow,
    JobRecord,
    cycle_seed,
    family_environment,
    run_flow,
    schedule_cycle,
)
from planner.vo.metrics import NodeUsage, node_usage
from planner.vo.policies import (
    BSF,
    CSS,
    POLICIES,
    Backfill,
    BatchSlicer,
    EasyBackfill,
    Policy,
    make_policy,
)
from planner.vo.search import SEARCHES, algorithm_for, criterion_algorithm, search_alternatives

__all__ = [
    "BSF",
    "CSS",
    "POLICIES",
    "SEARCHES",
    "Backfill",
    "BatchSlicer",
    "Combine",
    "CycleOutcome",
    "CycleRecord",
    "EasyBackfill",
    "Flow",
    "JobRecord",
    "NodeUsage",
    "Phase",
    "Policy",
    "algorithm_for",
    "criterion_algorithm",
    "cycle_seed",
    "family_environment",
    "make_policy",
    "node_usage",
    "run_flow",
    "run_phase",
    "schedule_cycle",
    "search_alternatives",
]
