"""The ``aep-criteria`` strategies with a share of the nodes busy at the interval start.

Toporkov et al. 2012 §3.2 explains why minFinish starts at t = 0 by "the
local tasks minimum length value, that is equal to 10": a window at t = 10
exists because local tasks occupy [0, 10), i.e. some nodes begin the
interval with a local task. The generator places each node's tasks at
random gaps, so few do. This reading moves each node's first local task to
the interval start on a seeded share of the nodes (the other nodes keep
theirs) and measures the quantities the layout can move.
"""

from __future__ import annotations

from typing import Any

from planner.progress import track
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce.common import mean, paper

SHARES = (0.0, 0.25, 0.5, 1.0)
COLUMNS = (("amp", "start"), ("min_finish", "start"), ("min_finish", "finish"),
           ("min_runtime", "start"), ("min_runtime", "runtime"), ("min_cost", "start"),
           ("min_proc_time", "proc_time"), ("csa", "start"), ("csa", "alternatives"))  # fmt: skip


def measure(seed: int, runs: int, params: dict[str, Any], share: float,
            family: str) -> dict[tuple[str, str], float | None]:  # fmt: skip
    """Return the :data:`COLUMNS` means over ``runs`` instances with ``share`` busy at 0."""
    from instances import generate
    from planner import find_alternatives, search
    from validation.study.reproduce.dep_coord_readings import busy_at_start

    got: dict[tuple[str, str], list[float]] = {c: [] for c in COLUMNS}
    for r in track(range(runs), "busy share: runs"):
        inst = generate(family, instance_seed(seed, r), **params)
        if share:
            inst = busy_at_start(inst, share, instance_seed(seed, r))
        job = inst.jobs[0]
        for name in dict.fromkeys(a for a, _ in COLUMNS if a != "csa"):
            w = search(inst, job, name, seed=instance_seed(seed + 1, r))
            if w is not None:
                for a, m in COLUMNS:
                    if a == name:
                        got[a, m].append(w.metric(m))
        alts = find_alternatives(inst, "amp").windows
        got["csa", "alternatives"].append(len(alts))
        if alts:
            got["csa", "start"].append(min(w.start for w in alts))
    return {c: mean(v) for c, v in got.items()}


def table(ref: dict[str, Any], seed: int, runs: int,
          params: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:  # fmt: skip
    """Return the header and rows (paper first) of the sensitivity table."""
    head = ["nodes busy at the start", *(f"{a} {m}" for a, m in COLUMNS)]
    rows: list[list[Any]] = [["paper", *(paper(ref, a, m) for a, m in COLUMNS)]]
    for share in SHARES:
        label = "none moved (used)" if share == 0 else f"{share:.0%} of the nodes"
        got = measure(seed, runs, params, share, ref["family"])
        rows.append([label, *(got[c] for c in COLUMNS)])
    return head, rows
