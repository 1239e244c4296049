"""Klusáček & Rudová 2008's experiment: five policies on five job streams, claim by claim.

The setting of the paper's "Experimental Evaluation": ``klusacek2008`` workloads
(150 machines, 3,000 jobs per stream; ``docs/workloads.md``) at five mean
inter-arrival times, each repeated with different seeds; FCFS, EASY and
Flexible backfilling against EG-EDF and Tabu search (``docs/schedule-based.md``).
The six criteria of its Figs. 1–6 are averaged over the repetitions. The paper
gives trends, not numbers, so each of its claims is stated and checked in our
numbers (``holds`` / ``differs``), with the numbers.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from instances.generators.registry import generate_workload
from instances.text import plural
from planner.cluster import simulate
from validation.study.engine.executors import make_executor
from validation.study.reproduce.common import bullets

SOURCE = "Klusáček & Rudová 2008, Figs. 1-6"

NAME = "egedf"
TITLE = "EG-EDF and Tabu search vs FCFS, EASY and Flexible backfilling (Klusáček & Rudová 2008)"
"""The heading of the printed result."""
SHORT_TITLE = "EG-EDF and Tabu search vs FCFS, EASY and Flexible backfilling"
"""The title in ``planner study reproduce``'s list."""
INTERARRIVALS = (1.0, 2.0, 3.0, 4.0, 5.0)
"""Mean inter-arrival times of the five streams, seconds (5 s: no queue build-up)."""
POLICIES = ("fcfs", "easy", "flex", "egedf", "tabu")
QUEUE, SCHEDULE = ("fcfs", "easy", "flex"), ("egedf", "tabu")
CRITERIA = (
    ("delayed_pct", "delayed jobs (%)", "Fig. 1"),
    ("utilisation", "machine usage", "Fig. 2"),
    ("weighted_utilisation", "weighted machine usage", "Fig. 3"),
    ("makespan", "makespan (s)", "Fig. 4"),
    ("us_per_job", "scheduler time per job (µs)", "Fig. 5"),
    ("mean_slowdown", "average slowdown", "Fig. 6"),
)
JOBS, REPETITIONS = 3000, 20


@dataclass
class Outcome:
    """Mean criteria per (inter-arrival time, policy), and the claims' verdicts."""

    jobs: int
    repetitions: int
    means: dict[tuple[float, str], dict[str, float]]
    seconds: float
    verdicts: list[tuple[str, bool, str]]


def run(jobs: int = JOBS, repetitions: int = REPETITIONS, seed: int = 0,
        progress: Callable[[str], None] | None = None, workers: int = 1) -> Outcome:  # fmt: skip
    """Replay every stream under every policy; return the means and the verdicts.

    ``workers`` > 1 replays the streams in that many processes. The means are the
    same as a serial run's except the scheduler time, which is measured per replay.
    """
    began = time.perf_counter()
    tasks = [(seed + rep, ia, jobs, POLICIES, {}) for rep in range(repetitions)
             for ia in INTERARRIVALS]  # fmt: skip
    done: dict[tuple[int, float], dict[str, dict[str, float]]] = {}
    executor = make_executor("local", workers=workers)
    try:
        for s, ia, rows in executor.map_unordered(replay, tasks):
            done[(s, ia)] = rows
            if progress is not None:
                progress(f"{len(done)}/{len(tasks)}: repetition {s - seed + 1}, "
                         f"inter-arrival {ia:g} s, {', '.join(POLICIES)}")  # fmt: skip
    finally:
        executor.close()
    cells: dict[tuple[float, str], list[dict[str, float]]] = {}
    for s, ia, _, policies, _ in tasks:
        for p in policies:
            cells.setdefault((ia, p), []).append(done[(s, ia)][p])
    means = {k: {c: statistics.fmean(r[c] for r in v) for c, _, _ in CRITERIA}
             for k, v in cells.items()}  # fmt: skip
    return Outcome(jobs, repetitions, means, time.perf_counter() - began, claims(means))


def replay(task: tuple[int, float, int, tuple[str, ...], dict[str, dict[str, Any]]]
           ) -> tuple[int, float, dict[str, dict[str, float]]]:  # fmt: skip
    """Replay one stream (seed, inter-arrival, jobs) under ``policies`` with their options.

    Returns (seed, inter-arrival, the six criteria per policy). Module-level, so
    worker processes can run it.
    """
    seed, ia, jobs, policies, options = task
    wl = generate_workload("klusacek2008", seed, jobs=jobs, interarrival=ia)
    out = {}
    for p in policies:
        s = simulate(wl, p, **options.get(p, {})).summary()
        out[p] = {
            "delayed_pct": 100.0 * s["delayed"] / max(s["with_deadline"], 1),
            "utilisation": s["utilisation"],
            "weighted_utilisation": s["weighted_utilisation"],
            "makespan": s["makespan"],
            "us_per_job": 1e6 * s["scheduler_seconds_per_job"],
            "mean_slowdown": s["mean_slowdown"],
        }
    return seed, ia, out


def claims(m: dict[tuple[float, str], dict[str, float]]) -> list[tuple[str, bool, str]]:
    """Return (claim, holds, our numbers) for each of the paper's statements."""
    ias, low, high = INTERARRIVALS, INTERARRIVALS[-1], INTERARRIVALS[0]

    def v(ia: float, p: str, c: str) -> float:
        return m[(ia, p)][c]

    def row(c: str, ia: float, fmt: str = ".2f") -> str:
        return f"at {ia:g} s: " + ", ".join(f"{p} {v(ia, p, c):{fmt}}" for p in POLICIES)

    def rows(c: str, fmt: str = ".2f") -> str:
        return "; ".join(row(c, ia, fmt) for ia in ias)

    def falls(p: str, c: str) -> bool:
        return all(v(a, p, c) >= v(b, p, c) - 1e-9 for a, b in itertools.pairwise(ias))

    out: list[tuple[str, bool, str]] = []
    d = "delayed_pct"
    out.append(("Fig. 1: delayed jobs decrease as the inter-arrival time grows (every policy)",
                all(falls(p, d) for p in POLICIES), rows(d)))  # fmt: skip
    out.append(("Fig. 1: EG-EDF and Tabu search delay fewer jobs than FCFS, EASY and Flex "
                "(every stream)",
                all(max(v(a, s, d) for s in SCHEDULE) <= min(v(a, q, d) for q in QUEUE)
                    for a in ias), rows(d)))  # fmt: skip
    out.append(("Fig. 1: Tabu search has the fewest delayed jobs at every load",
                all(v(a, "tabu", d) <= min(v(a, p, d) for p in POLICIES) for a in ias),
                rows(d)))  # fmt: skip
    out.append((f"Fig. 1: at low contention ({low:g} s) Tabu search is nearly EG-EDF "
                "(within 1 percentage point)",
                abs(v(low, "tabu", d) - v(low, "egedf", d)) <= 1.0, row(d, low)))  # fmt: skip
    u, w = "utilisation", "weighted_utilisation"
    out.append((f"Fig. 2: at low contention ({low:g} s) schedule-based machine usage is lower",
                max(v(low, s, u) for s in SCHEDULE) < min(v(low, q, u) for q in QUEUE),
                row(u, low, ".3f")))  # fmt: skip
    out.append((f"Fig. 2: at high contention ({high:g} s) schedule-based machine usage is higher",
                min(v(high, s, u) for s in SCHEDULE) > max(v(high, q, u) for q in QUEUE),
                row(u, high, ".3f")))  # fmt: skip
    out.append(("Fig. 3: schedule-based weighted machine usage is higher (every stream)",
                all(min(v(a, s, w) for s in SCHEDULE) > max(v(a, q, w) for q in QUEUE)
                    for a in ias), rows(w, ".3f")))  # fmt: skip
    out.append((f"Figs. 2–3: at low contention ({low:g} s) schedule-based usage is lower "
                "but weighted usage higher",
                max(v(low, s, u) for s in SCHEDULE) < min(v(low, q, u) for q in QUEUE)
                and min(v(low, s, w) for s in SCHEDULE) > max(v(low, q, w) for q in QUEUE),
                f"usage {row(u, low, '.3f')}; weighted {row(w, low, '.3f')}"))  # fmt: skip
    c = "makespan"
    out.append(("Fig. 4: schedule-based makespan is shorter (every stream)",
                all(max(v(a, s, c) for s in SCHEDULE) < min(v(a, q, c) for q in QUEUE)
                    for a in ias), rows(c, ".0f")))  # fmt: skip
    t = "us_per_job"
    # At low load FCFS and EASY do the same work (an empty queue), so their CPU times differ
    # only by measurement noise: a tie within 1 µs counts as least.
    out.append(("Fig. 5: FCFS needs the least scheduler time per job (every stream; within "
                "1 µs of the least counts)",
                all(v(a, "fcfs", t) <= min(v(a, p, t) for p in POLICIES) + 1 for a in ias),
                rows(t, ".1f")))  # fmt: skip
    out.append(("Fig. 5: EG-EDF and Tabu search need less time per job than EASY and Flex "
                "(every stream)", all(max(v(a, s, t) for s in SCHEDULE)
                                      < min(v(a, q, t) for q in ("easy", "flex")) for a in ias),
                rows(t, ".0f")))  # fmt: skip

    def growth(p: str) -> float:
        return v(high, p, t) / max(v(low, p, t), 1e-9)

    out.append((f"Fig. 5: schedule-based time per job is stable: it grows less from {low:g} s "
                f"to {high:g} s than EASY's and Flex's",
                max(growth(s) for s in SCHEDULE) < min(growth(q) for q in ("easy", "flex")),
                ", ".join(f"{p} x{growth(p):.2f}" for p in POLICIES)))  # fmt: skip
    s = "mean_slowdown"
    out.append(("Fig. 6: slowdown grows with contention (every policy)",
                all(falls(p, s) for p in POLICIES), rows(s)))  # fmt: skip
    out.append(("Fig. 6: Tabu search has the lowest slowdown, nearly that of Flex "
                "(within 10%, every stream)",
                all(v(a, "tabu", s) <= 1.1 * min(v(a, p, s) for p in POLICIES)
                    and abs(v(a, "tabu", s) - v(a, "flex", s)) <= 0.1 * v(a, "flex", s)
                    for a in ias), rows(s)))  # fmt: skip
    return out


def differences(o: Outcome) -> list[str]:
    """Return the claims that differ, with our numbers (the paper gives trends, not numbers)."""
    return [f"{claim} ({numbers})" for claim, ok, numbers in o.verdicts if not ok]


def findings(o: Outcome) -> list[str]:
    """Return the Findings lines: claims held / total and the claims that differ."""
    held = sum(1 for _, ok, _ in o.verdicts if ok)
    lines = [f"claims held: {held} of {len(o.verdicts)} ({len(o.verdicts) - held} differ); "
             "the paper gives trends, not numbers, so no standard error applies"]
    return lines + [f"differs: {d}" for d in differences(o)]


def render(o: Outcome) -> str:
    """Return the table of means and the claim-by-claim verdicts."""
    lines = [f"{NAME}: {TITLE}",
             f"ours: klusacek2008, {plural(o.jobs, 'job')} per stream, "
             f"{plural(o.repetitions, 'repetition')}, "
             f"inter-arrival means {', '.join(f'{a:g}' for a in INTERARRIVALS)} s; "
             f"{o.seconds:.0f} s", "", "findings:", *bullets(findings(o)),
             ""]  # fmt: skip
    head = ["inter-arrival", "policy"] + [label for _, label, _ in CRITERIA]
    body = []
    for ia in INTERARRIVALS:
        for p in POLICIES:
            mm = o.means[(ia, p)]
            body.append([f"{ia:g}", p] + [
                f"{mm[c]:.0f}" if c in ("makespan", "us_per_job") else
                f"{mm[c]:.3f}" if "utilisation" in c else f"{mm[c]:.2f}"
                for c, _, _ in CRITERIA])  # fmt: skip
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    for k, r in enumerate([head, *body]):
        cells = enumerate(zip(r, widths, strict=True))
        lines.append("  ".join(x.rjust(wd) if i > 1 else x.ljust(wd) for i, (x, wd) in cells))
        if k == 0:
            lines.append("  ".join("-" * wd for wd in widths))
    lines += ["", "the paper's claims in our numbers:"]
    for claim, ok, numbers in o.verdicts:
        lines.append(f"  [{'holds' if ok else 'differs'}] {claim}")
        lines.append(f"      {numbers}")
    return "\n".join(lines)


def plot(o: Outcome, out: str | Path) -> list[Path]:
    """Draw the six criteria against the inter-arrival time (the paper's Figs. 1–6)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    styles = dict(zip(POLICIES, (("o", "-", 9), ("s", "--", 7.5), ("^", "-.", 6.5),
                                 ("D", ":", 5), ("v", (0, (5, 1)), 4)), strict=False))  # fmt: skip
    for ax, (c, label, figure) in zip(axes.flat, CRITERIA, strict=True):
        for p in POLICIES:
            marker, line, size = styles.get(p, ("o", "-", 6))
            ax.plot(INTERARRIVALS, [o.means[(a, p)][c] for a in INTERARRIVALS], marker=marker,
                    ls=line, ms=size, label=p, alpha=0.85)  # fmt: skip
        if max(o.means[(a, p)][c] for a in INTERARRIVALS for p in POLICIES) == 0:
            ax.set_ylim(-0.05, 1)  # all zero: a plain axis, not a ±0.04 offset scale
        ax.set_title(f"{figure}: {label}")
        ax.set_xlabel("mean inter-arrival time (s)")
        ax.grid(alpha=0.3)
    axes.flat[0].legend(title="policy (coinciding lines overlap)", fontsize="small")
    fig.suptitle(f"Klusáček & Rudová 2008 setting: {plural(o.jobs, 'job')}, "
                 f"{plural(o.repetitions, 'repetition')}")
    fig.tight_layout()
    path = out / "egedf-figures.png"
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return [path]


def as_rows(o: Outcome) -> list[dict[str, Any]]:
    """Return the means as rows (inter-arrival, policy, criteria)."""
    return [{"interarrival": ia, "policy": p, **o.means[(ia, p)]}
            for ia in INTERARRIVALS for p in POLICIES]  # fmt: skip


@dataclass(frozen=True)
class Result:
    """What ``planner study reproduce egedf`` prints and saves: the outcome, claim by claim."""

    outcome: Outcome

    def render(self) -> str:
        """Return the table of means and the verdicts (:func:`render`)."""
        return render(self.outcome)

    @property
    def orderings(self) -> list[tuple[str, bool]]:
        """Return (claim, holds) for each of the paper's claims."""
        return [(claim, ok) for claim, ok, _ in self.outcome.verdicts]

    def differences(self) -> list[str]:
        """Return the claims that differ, with our numbers."""
        return differences(self.outcome)


def reproduce(seed: int = 0, runs: int = REPETITIONS, *, jobs: int = JOBS,
              workers: int | None = None) -> Result:  # fmt: skip
    """Run the experiment with ``runs`` repetitions (streams count on the progress line)."""
    from planner.progress import advance

    return Result(run(jobs, runs, seed=seed, progress=lambda _: advance(),
                      workers=workers or 1))  # fmt: skip


def write(result: Result, out: str | Path) -> list[Path]:
    """Write the figure (PNG) and the means (CSV) to ``out``; return their paths."""
    import csv

    paths = plot(result.outcome, out)
    rows = as_rows(result.outcome)
    path = Path(out) / "egedf-means.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return [*paths, path]
