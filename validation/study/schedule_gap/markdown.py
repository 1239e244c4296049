"""The ``report.md`` text of a schedule-gap study (``docs/schedule-based.md``, "Gap to the
optimum")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from instances.text import noun, plural
from planner import table
from validation.study.schedule_gap.spec import ScheduleGapSpec
from validation.study.schedule_gap.task import gap_text

HEADERS = ("policy", "snapshots proven", "mean extra delayed", "max extra delayed",
           "mean makespan gap", "max makespan gap", "lexicographically optimal",
           "beats a proven optimum", "checker violations")  # fmt: skip


def fmt(x: Any, spec: str) -> str:
    """Return ``x`` formatted by ``spec`` (``-`` for None)."""
    return "-" if x is None else format(x, spec)


def render(summary: Sequence[Mapping[str, Any]]) -> str:
    """Return the per-policy gap table as Markdown."""
    return table.markdown(HEADERS, [
        [s["policy"], s["proven"], fmt(s["extra_delayed"], ".2f"),
         fmt(s["max_extra_delayed"], "d"), fmt(s["makespan_gap"], ".1%"),
         fmt(s["max_makespan_gap"], ".1%"), s["optimal"],
         f"{s['beats_optimum']}{' **(!)**' if s['beats_optimum'] else ''}", s["violations"]]
        for s in summary])  # fmt: skip


def snapshot_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """Return one Markdown line per snapshot: status, optimum (bound) and each policy's U / C.

    The status reads ``optimal`` or ``within x % (bound b)`` (:func:`gap_text`).
    """
    policies = list(dict.fromkeys(r["policy"] for r in rows))
    headers = ["snapshot", "status", "delayed (bound)", "makespan (bound)", "checker",
               *(f"{p} U / C" for p in policies)]  # fmt: skip
    body = []
    for k in dict.fromkeys(r["snapshot"] for r in rows):
        mine = {r["policy"]: r for r in rows if r["snapshot"] == k}
        r = next(iter(mine.values()))
        body.append([k, gap_text(r),
                     f"{fmt(r['opt_delayed'], 'd')} ({fmt(r['delayed_bound'], 'd')})",
                     f"{fmt(r['opt_makespan'], 'd')} ({fmt(r['makespan_bound'], 'd')})",
                     r["optimum_violations"],
                     *(f"{mine[p]['delayed']} / {mine[p]['makespan']}" for p in policies)])
    return table.markdown(headers, body, left={1})


def markdown(info: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
             summary: Sequence[Mapping[str, Any]], statuses: Mapping[str, int],
             figures: Sequence[str],
             seconds: tuple[float, float]) -> tuple[list[str], list[str]]:  # fmt: skip
    """Return report.md's head (setting, warnings) and body (gap table, status counts,
    snapshots, figures); the report puts the Findings between them."""
    spec: ScheduleGapSpec = info["spec"]
    beats = sum(s["beats_optimum"] for s in summary)
    bad = sum(s["violations"] for s in summary) + sum(
        r["optimum_violations"] for r in {r["snapshot"]: r for r in rows}.values())  # fmt: skip
    lines = [
        "# Schedule-gap study: cluster policies vs the exact optimum", "",
        f"- {spec.snapshots} `klusacek2008` {noun(spec.snapshots, 'snapshot')} (seeds {spec.seed}.."
        f"{spec.seed + spec.snapshots - 1}) of {plural(spec.jobs, 'job')} on "
        f"{plural(spec.machines, 'machine')}, "
        f"mean inter-arrival {spec.interarrival:g} s (Klusáček & Rudová 2008)",
        f"- solver `{spec.solver}` (docs/exact-models.md), lexicographic (delayed jobs, then "
        f"makespan), {spec.time_limit:g} s and {plural(spec.threads, 'thread')} per snapshot, "
        "seeded with the best replay",
        f"- policies: {', '.join(spec.policies)}; planner {info['version']}, study {info['id']}",
        f"- command: `{spec.command()}`",
        f"- timing: created {info['created']}; replays {seconds[0]:.1f} s, solver "
        f"{seconds[1]:.1f} s in total", "",
    ]  # fmt: skip
    if beats:
        lines += [f"**WARNING: {plural(beats, 'replay')} beat a proven optimum or bound. The exact "
                  "model or the simulator is wrong; these numbers cannot be trusted.**", ""]
    if bad:
        lines += [f"**WARNING: the independent checkers found {plural(bad, 'violation')} (first "
                  "violation per row in `rows.csv`).**", ""]
    head, lines = lines, [
        "## Gap to the optimum", "",
        "Over the snapshots the solver proved optimal (both criteria): extra delayed jobs U − U*, "
        "makespan gap (C − C*) / C*, replays equal to the lexicographic optimum. A replay "
        "\"beats a proven optimum\" when it is lexicographically better than a proven "
        "optimum or delays fewer jobs than the proven lower bound; that must be 0. Checker "
        "violations: the replays' schedules against `validation/cluster_check.py` (must be "
        "0). Definitions: `docs/schedule-based.md`.", "",
        render(summary), "",
        "## Solver status", "",
        "A snapshot is optimal only when the solver proved both criteria; feasible: a schedule "
        "without proof; unknown: none found within the time limit.", "",
        table.markdown(list(statuses), [list(statuses.values())], left=0), "",
        "## Snapshots", "",
        "The solver's schedule is checked by `validation/snapshot_check.py` (column "
        "`checker`); status: `optimal`, or `within x % (bound b)`: the gap (value − bound) / "
        "value of the first criterion not proven (delayed jobs, then makespan) against its "
        "proven bound; U / C: each policy's delayed jobs and makespan (s).", "",
        snapshot_table(rows), "",
    ]  # fmt: skip
    if figures:
        lines += ["## Figure", "", *(f"![{f[:-4]}]({f})" for f in figures), ""]
    else:
        lines += ["The figure needs matplotlib: `pip install 'planner[plot]'`.", ""]
    lines += ["Every row: `rows.csv` (no run times); per policy: `summary.csv`."]
    return head, lines
