"""The cluster study's rows as Findings input: mean bounded slowdown, paired by seed.

See docs/studies.md, "Findings".
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from instances.text import plural
from validation.study.engine.findings import Parts
from validation.study.engine.observations import Measure, Observation

Row = Mapping[str, Any]


def cluster_study(rows: Sequence[Row]) -> Parts:
    """Cluster study: mean bounded slowdown per (workload, estimates), paired by seed."""
    obs = [Observation(f"{os.path.basename(r['workload'])} [{r['estimates']}]", r["policy"],
                       str(r["seed"]), r["mean_bounded_slowdown"])
           for r in rows]  # fmt: skip
    seeds = len({r["seed"] for r in rows})
    bad = sum(r["violations"] for r in rows)
    notes = [f"{plural(len(rows), 'replay')}: {plural(seeds, 'seed')} per (workload, estimates, "
             "policy); policies are scored against each other (no optimum is computed for a "
             "replay), on the same seeds (the same job streams). The checker found "
             f"{plural(bad, 'violation')} in the replays"
             f"{' (must be 0)' if bad else ''}."]  # fmt: skip
    return notes, [(Measure("mean bounded slowdown", optimum=False, digits=3), obs)]
