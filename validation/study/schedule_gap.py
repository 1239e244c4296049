"""Gap of the cluster policies to the proven optimum on small static snapshots.

Each snapshot is a ``klusacek2008`` workload shrunk to a few machines and jobs
(Klusáček & Rudová 2008's distributions). Every policy replays it in the
simulator (it learns the jobs as they are released); the CP-SAT model of
:mod:`models.cluster` solves it offline, lexicographically (fewest delayed
jobs, then makespan), seeded with the best replay. For each policy and each
snapshot proven optimal the study reports the extra delayed jobs (U − U*),
the makespan gap (C − C*) / C*, and whether the replay is lexicographically
optimal. Rows (CSV) hold no run times, so the same command writes the same
bytes when every solve is proven.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from instances.generators.registry import generate_workload
from models.cluster import solve_snapshot
from planner.cluster import simulate

POLICIES = ("fcfs", "easy", "flex", "egedf", "tabu")
COLUMNS = ("snapshot", "jobs", "machines", "status", "opt_delayed", "opt_makespan",
           "delayed_bound", "makespan_bound", "policy", "delayed", "makespan")  # fmt: skip


@dataclass(frozen=True)
class GapSpec:
    """The snapshots of a gap study: ``snapshots`` seeds from ``seed`` on."""

    snapshots: int = 10
    jobs: int = 20
    machines: int = 5
    interarrival: float = 40.0
    time_limit: float = 20.0
    seed: int = 0
    policies: tuple[str, ...] = POLICIES


def run_gap_study(spec: GapSpec, progress: Any = None) -> tuple[list[dict[str, Any]], float]:
    """Return one row per snapshot and policy, and the CP-SAT seconds spent in total."""
    rows: list[dict[str, Any]] = []
    spent = 0.0
    for k in range(spec.seed, spec.seed + spec.snapshots):
        wl = generate_workload("klusacek2008", k, machines=spec.machines, jobs=spec.jobs,
                               interarrival=spec.interarrival)  # fmt: skip
        replays = {p: simulate(wl, p) for p in spec.policies}
        scores = {p: (r.summary()["delayed"], r.summary()["makespan"]) for p, r in replays.items()}
        best = replays[min(spec.policies, key=lambda p: scores[p])]
        hint = {j.id: (wl.machines[best.machine[i]].id, best.start[i])
                for i, j in enumerate(wl.jobs)}  # fmt: skip
        res = solve_snapshot(wl, time_limit=spec.time_limit, hint=hint)
        spent += res.runtime
        for p in spec.policies:
            rows.append({"snapshot": k, "jobs": spec.jobs, "machines": spec.machines,
                         "status": res.status, "opt_delayed": res.objective,
                         "opt_makespan": res.info.get("makespan"), "delayed_bound": res.bound,
                         "makespan_bound": res.info.get("makespan_bound"), "policy": p,
                         "delayed": scores[p][0], "makespan": scores[p][1]})  # fmt: skip
        if progress is not None:
            progress(k, res)
    return rows, spent


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per policy, over the snapshots proven optimal: extra delayed jobs and makespan gap."""
    out = []
    for p in dict.fromkeys(r["policy"] for r in rows):
        mine = [r for r in rows if r["policy"] == p and r["status"] == "optimal"]
        n = len(mine)
        extra = [r["delayed"] - r["opt_delayed"] for r in mine]
        gaps = [(r["makespan"] - r["opt_makespan"]) / r["opt_makespan"] for r in mine
                if r["opt_makespan"]]  # fmt: skip
        lex = sum((r["delayed"], r["makespan"]) == (r["opt_delayed"], r["opt_makespan"])
                  for r in mine)  # fmt: skip
        beats = sum((r["delayed"], r["makespan"]) < (r["opt_delayed"], r["opt_makespan"])
                    for r in mine)  # fmt: skip
        out.append({"policy": p, "proven": n,
                    "extra_delayed": sum(extra) / n if n else None,
                    "max_extra_delayed": max(extra, default=None),
                    "makespan_gap": sum(gaps) / len(gaps) if gaps else None,
                    "max_makespan_gap": max(gaps, default=None),
                    "optimal": lex, "beats_optimum": beats})  # fmt: skip
    return out


def render(summary: list[dict[str, Any]]) -> str:
    """Return the summary as a Markdown table."""

    def f(x: Any, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    lines = ["| policy | snapshots proven | mean extra delayed | max extra delayed | "
             "mean makespan gap | max makespan gap | lexicographically optimal |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for s in summary:
        lines.append(f"| {s['policy']} | {s['proven']} | {f(s['extra_delayed'], '.2f')} | "
                     f"{f(s['max_extra_delayed'], 'd')} | {f(s['makespan_gap'], '.1%')} | "
                     f"{f(s['max_makespan_gap'], '.1%')} | {s['optimal']} |")  # fmt: skip
    return "\n".join(lines)


def write_rows(rows: list[dict[str, Any]], path: str | Path) -> None:
    """Write the rows as CSV."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.DictWriter(fh, COLUMNS, lineterminator="\n")
        out.writeheader()
        out.writerows(rows)
