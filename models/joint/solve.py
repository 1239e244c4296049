"""The solve façade for joint co-allocation of a small batch (docs/exact-models.md): one
:class:`Result`.

The joint optimum is what the two-phase scheme of docs/concepts.md (alternatives,
then combination) approximates: it places the windows of all jobs at once.
"""

from __future__ import annotations

import math
import time as _clock
from collections.abc import Sequence
from typing import Any

from instances import CRITERIA, Instance, Job
from instances.errors import LimitError
from models.combination.problem import TIMES, Problem, Table, problem_of
from models.joint.exact import broken, largest
from models.progress import SearchProgress
from models.result import Result
from planner import METRICS, Window, make_window
from planner.deadline import DEFAULT_TIME_LIMIT, Deadline
from planner.registry import JOINT_SOLVERS

SENSES: dict[str, str] = {c.metric: c.sense for c in CRITERIA.values()}
"""docs/concepts.md metric → the sense of the docs/concepts.md criterion that optimises it (joint
objectives)."""


def _batch(instance: Instance, jobs: Sequence[Job | str] | None) -> list[Job]:
    if jobs is None:
        return list(instance.jobs)
    batch = [instance.job(j) if isinstance(j, str) else j for j in jobs]
    if len({j.id for j in batch}) != len(batch):
        raise ValueError("jobs must not repeat a job")
    return batch


def _hint_of(spaces: Sequence[Any], hint: Sequence[Window]) -> dict[int, tuple[int, list[int]]]:
    index = {sp.job.id: j for j, sp in enumerate(spaces)}
    out: dict[int, tuple[int, list[int]]] = {}
    for w in hint:
        if w.job not in index:
            raise ValueError(f"hint: window for job '{w.job}', which is not in the batch")
        sp = spaces[index[w.job]]
        chosen = []
        for p in w.placements:
            k = sp.option_of(p.node, p.start, p.end)
            if k is None:
                raise ValueError(
                    f"hint: job '{w.job}' task [{p.start}, {p.end}) on node '{p.node}' "
                    "fits no suitable slot"
                )
            chosen.append(k)
        out[index[w.job]] = (w.start, chosen)
    return out


def _two_phase_limit(
    instance: Instance, batch: Sequence[Job], kind: str, time: str, algorithm: str,
    deadline: Deadline,
) -> int | None:
    """Return docs/concepts.md's default limit from a two-phase run on the batch (None: the
    alternatives search did not finish before ``deadline``, so there is no such limit)."""
    import planner

    if not hasattr(planner, "find_alternatives"):
        raise ValueError("give t_star/b_star: planner.find_alternatives is not available")
    found = planner.find_alternatives(instance, algorithm, jobs=[j.id for j in batch],
                                      deadline=deadline)
    if not found.complete:
        return None
    table = Table.of(found.by_job(), time)
    return table.default_limit(kind) if table.jobs else 0


def _backend(solver: str, metric: str) -> str:
    from models.joint.cg import CG_METRICS

    if solver == "cg" and metric not in CG_METRICS:
        raise ValueError(
            f"the cg joint solver handles the objectives {', '.join(CG_METRICS)}, not '{metric}'"
        )
    if solver == "auto":
        return "cg" if metric in CG_METRICS else "cpsat"
    return solver


def _alternatives(
    instance: Instance, batch: Sequence[Job], spaces: Sequence[Any], algorithm: str,
    deadline: Deadline | None = None,
) -> list[dict[int, tuple[int, list[int]]]]:
    """Return the heuristic ``algorithm``'s alternatives as one placement per window: at most
    :data:`models.joint.cg.budget.SEED_ALTERNATIVES` per job, those found before
    ``deadline``."""
    import planner
    from models.joint.cg.budget import SEED_ALTERNATIVES

    if not hasattr(planner, "find_alternatives"):
        return []
    try:
        found = planner.find_alternatives(instance, algorithm, jobs=[j.id for j in batch],
                                          max_per_job=SEED_ALTERNATIVES,
                                          deadline=deadline).by_job()
    except LimitError:  # the heuristic's subset table is too large: no seeds (they only help)
        return []
    out = []
    for j, job in enumerate(batch):
        for w in found.get(job.id, []):
            chosen = [spaces[j].option_of(p.node, p.start, p.end) for p in w.placements]
            if None not in chosen:
                out.append({j: (w.start, chosen)})
    return out


class _Compact:
    """Builds the compact model of the batch on demand (``cg`` needs it only to close a gap):
    the :class:`JointModel`, its goal and the goal's scale over the objective's units."""

    def __init__(
        self, spaces: Sequence[Any], free_start: bool, vo_budget: int | None, objective: str,
        prob: Problem | None, time: str, limit: int | None,
    ) -> None:
        self.spaces, self.free_start, self.vo_budget = spaces, free_start, vo_budget
        self.objective, self.prob, self.time, self.limit = objective, prob, time, limit
        self.jm: Any = None
        self.slack = 0.0
        """Largest rounding error of the scaled goal (q scaled to integers), in its units."""

    def __call__(self) -> tuple[Any, Any, int]:
        from models.joint.cpsat import JointModel

        jm = self.jm = JointModel(self.spaces, free_start=self.free_start,
                                  vo_budget=self.vo_budget)  # fmt: skip
        J = range(len(self.spaces))
        if self.prob is None:
            parts = [jm.metric(j, self.objective) for j in J]
            scale = math.lcm(*(s for _, s in parts)) if parts else 1
            self.slack = sum(jm.rounding.get(j, 0.0) * (scale // s) for j, (_, s) in
                             enumerate(parts))  # fmt: skip
            return jm, sum(e * (scale // s) for e, s in parts), scale

        def part(j: int, kind: str) -> Any:
            return jm.cost(j) if kind == "cost" else jm.metric(j, self.time)[0]

        jm.model.Add(sum(part(j, self.prob.constraint) for j in J) <= self.limit)
        return jm, sum(part(j, self.prob.objective) for j in J), 1


def solve_joint(
    instance: Instance,
    objective: str = "proc_time",
    solver: str = "cpsat",
    *,
    problem: int | None = None,
    vo_budget: int | None = None,
    hint: Sequence[Window] | None = None,
    time_limit: float | Deadline | None = DEFAULT_TIME_LIMIT,
    threads: int = 1,
    jobs: Sequence[Job | str] | None = None,
    time: str = "proc_time",
    t_star: int | None = None,
    b_star: int | None = None,
    algorithm: str = "amp",
    free_start: bool = True,
    seed: int = 0,
    progress: bool | None = None,
) -> Result:
    """Co-allocate a small batch at once: most jobs placed, then the best batch objective.

    docs/exact-models.md (beyond the seeds): at most one window per job, no two windows
    sharing a node's time, all within the instance's free slots, each job's
    budget and the optional VO budget. Lexicographic objective: maximise the
    number of placed jobs, then optimise ``objective`` (or ``problem``).

    Parameters
    ----------
    instance
        The instance (its geometry sets the durations, docs/concepts.md).
    objective
        A docs/concepts.md metric summed over the placed jobs; ``q`` and
        ``near_distance`` are maximised, the others minimised (the sense of
        the docs/concepts.md criterion on that metric). Ignored when ``problem`` is set.
    solver
        A :data:`JOINT_SOLVERS` name: ``cpsat`` (the compact model), ``cg``
        (column generation, then CP-SAT; objectives in
        :data:`models.joint.cg.CG_METRICS` and problems 6–9, else ValueError) or
        ``auto`` (``cg`` where it applies, else ``cpsat``: the better measured
        one, docs/benchmarks.md). ``info["cg"]`` holds the decomposition's counts.
    problem
        6–9: optimise that combination problem's Σ f over the placed jobs
        under Σ g ≤ g* (docs/concepts.md; "time" is ``time``). g* is ``t_star`` /
        ``b_star`` if given, else docs/concepts.md's default computed from a two-phase
        run: ``planner.find_alternatives(instance, algorithm)`` on the batch.
    vo_budget
        Optional cap on the total cost of the placed windows.
    hint
        Windows (e.g. alternatives + combination) to seed CP-SAT (AddHint);
        jobs without a hint window are hinted unplaced.
    time_limit
        Seconds for the whole solve — building the model, the two-phase run
        that sets a default limit, seeding and every stage (docs/exact-models.md,
        "Time budget") — or a :class:`planner.deadline.Deadline` to share with
        the caller (the solve takes what is left of it); default
        :data:`planner.deadline.DEFAULT_TIME_LIMIT` (60 s), None for no limit.
        A stopped solve is ``feasible`` or ``unknown``; when the two-phase run
        that sets the default limit does not finish in time, ``unknown`` with
        ``info["stopped_in"]`` = ``"two-phase run"`` and no limit.
    threads
        CP-SAT workers (1, with the fixed ``seed``, makes runs repeatable).
    jobs
        The batch (jobs or ids, batch order); default all the instance's jobs.
    free_start
        True (default): any integer start. False: only starts of the job's
        suitable slots (the seeds' AEP space) -- in a batch this can lose
        windows that start where another job's task ends, which the
        two-phase scheme finds on its reduced slot lists.
    seed
        CP-SAT random seed.
    progress
        Write the stage, elapsed time, incumbent and bound to stderr while
        solving, on one line of at most 79 columns rewritten every second
        (:mod:`models.progress`); None (default): only when stderr is a
        terminal and ``CI`` is not set.

    Returns
    -------
    Result
        ``windows``: the placed windows in batch order; ``objective``: the
        batch objective of those windows; ``bound``: its best proven bound
        (None unless the placed count is proven); ``info``: ``placed``,
        ``postponed``, ``objective`` or ``problem``/``limit``/``t_star``/
        ``b_star``/``constraint_value``, ``placed_bound``, stage statuses.
    """
    began = _clock.perf_counter()
    budget = Deadline.of(time_limit).rest()
    if solver not in JOINT_SOLVERS:
        choices = ", ".join(JOINT_SOLVERS)
        raise ValueError(f"unknown joint solver '{solver}' (choose from: {choices})")
    if time not in TIMES:
        raise ValueError(f"time must be one of {', '.join(TIMES)}, not {time!r}")
    batch = _batch(instance, jobs)
    info: dict[str, Any] = {"free_start": free_start, "vo_budget": vo_budget}
    prob = None
    if problem is None:
        if objective not in METRICS:
            raise ValueError(f"unknown objective '{objective}' (choose from: {', '.join(METRICS)})")
        sense, linear = SENSES[objective], objective
        info["objective"] = objective

        def value(w: Window) -> float:
            return w.metric(objective)
    else:
        prob = problem_of(problem)
        sense = prob.sense
        linear = time if prob.objective == "time" else "cost"

        def metric_of(w: Window, kind: str) -> int:
            return w.cost if kind == "cost" else w.metric(time)

        def value(w: Window) -> float:
            return metric_of(w, prob.objective)

    track = SearchProgress("joint", enabled=progress, deadline=budget,
                           sign=1 if sense == "min" else -1)  # fmt: skip
    track.update(stage="loading the solvers")
    with track.ticking():  # from here on the line is drawn every second, imports included
        from models.joint.lexicographic import solve_lexicographic
        from models.joint.space import JobSpace

        backend = _backend(solver, linear)
        track.label = f"joint ({backend})"
        track.update(stage="job spaces")
        spaces = [JobSpace(instance, job) for job in batch]
        hinted = _hint_of(spaces, hint) if hint is not None else None
        # no solution's sum passes the jobs' largest values: a larger limit (up to any
        # integer) binds nothing, and the models get one within their 64-bit sums
        vo = None if vo_budget is None else min(vo_budget, sum(largest(sp, "cost")
                                                               for sp in spaces))
        sides: list[tuple[str, int]] = [("cost", vo)] if vo is not None else []
        limit = binding = None
        if prob is not None:
            limit = t_star if prob.constraint == "time" else b_star
            if limit is None:
                track.update(stage=f"two-phase run ({algorithm}) for the default limit")
                limit = _two_phase_limit(instance, batch, prob.constraint, time, algorithm,
                                         budget)  # fmt: skip
            info.update(problem=prob.number, time=time, limit=limit, t_star=t_star,
                        b_star=b_star)  # fmt: skip
            info[prob.limit_name] = limit
            if limit is not None:
                name = time if prob.constraint == "time" else "cost"
                binding = min(limit, sum(largest(sp, name) for sp in spaces))
                sides.append((name, binding))
        compact = _Compact(spaces, free_start, vo, objective, prob, time, binding)
        if prob is not None and limit is None:
            info["stopped_in"] = "two-phase run"
            out: dict[str, Any] = {"status": "unknown", "solution": None, "bound": None,
                                   "placed_bound": None, "stage1": None, "stage2": None}
            scale = 1
        elif backend == "cg":
            from models.joint.cg import solve_cg
            from models.joint.cg.budget import BUDGET

            track.update(stage=f"seeding ({algorithm} alternatives)")
            seeds = [hinted] if hinted else []
            seeds += _alternatives(instance, batch, spaces, algorithm,
                                   budget.stage(BUDGET.seeding))  # fmt: skip
            out = solve_cg(spaces, compact, sense, linear, sides, seeds=seeds,
                           free_start=free_start, deadline=budget, threads=threads, seed=seed,
                           track=track)  # fmt: skip
            out["cg"]["seeds"] = len(seeds)
            info["cg"] = out["cg"]
            scale = 1
        else:
            track.update(stage="building the compact model")
            jm, goal, scale = compact()
            out = solve_lexicographic(jm, goal, sense, hint=hinted, deadline=budget,
                                      threads=threads, seed=seed, scale=scale, track=track)
    if out["solution"] is not None:
        reason = broken(spaces, out["solution"], sides, free_start=free_start)
        if reason is not None:  # never met: no solver may return a solution that breaks a row
            info["rejected"] = reason
            out = {**out, "solution": None, "status": "unknown", "bound": None}
    windows: list[Window] = []
    for j, (T, chosen) in sorted((out["solution"] or {}).items()):
        slots = sorted(
            (spaces[j].options[k].host for k in chosen), key=lambda s: instance.node_index[s.node]
        )
        windows.append(make_window(instance, batch[j], T, slots))
    found = out["solution"] is not None
    result_objective = sum(value(w) for w in windows) if found else None
    status, raw = out["status"], out["bound"]
    if status == "optimal" and (raw is None or raw != out.get("value")):
        status = "feasible"  # a proof is the exact integer value equal to the integer bound
    if compact.slack:  # q scaled by 10^k and rounded: the model's optimum is proven only when exact
        status = "feasible" if status == "optimal" else status
        raw = raw + compact.slack if raw is not None else None
    bound = raw if raw is None or scale == 1 else raw / scale
    if status == "optimal":
        bound = result_objective
    placed = {w.job for w in windows}
    info.update(
        placed=[j.id for j in batch if j.id in placed] if found else [],
        postponed=[j.id for j in batch if j.id not in placed] if found else [j.id for j in batch],
        placed_bound=out["placed_bound"],
        stage1=out["stage1"],
        stage2=out["stage2"],
    )
    if prob is not None and found:
        info["constraint_value"] = sum(metric_of(w, prob.constraint) for w in windows)
    return Result(
        status=status,
        objective=result_objective,
        bound=bound,
        runtime=_clock.perf_counter() - began,
        solver=backend,
        windows=tuple(windows),
        info=info,
    )
