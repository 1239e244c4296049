"""``planner combine``: alternatives, then the best combination (docs/formats.md).

JSON Lines output (``--json``): one line per job in batch order,
``{"job", "status": "placed"|"postponed", "alternative": k|null, "window": {...}|null}``
(``k`` counts from 1 per job, as in ``planner alternatives``),
then one summary line ``{"problem", "solver", "status", "objective", "bound", "gap",
"constraint", "limit", "time", "runtime"}`` (``gap`` as :attr:`models.Result.gap`).
``--joint`` solves the joint co-allocation model (docs/exact-models.md) of the same problem
instead, under the limit of the two-phase run and hinted with its combination; its
windows are not alternatives, so ``alternative`` is null and ``solver`` is
``joint-cpsat`` or ``joint-cg`` (``--solver`` then picks the joint method). The table
output ends with what is proven: ``optimal`` or ``within x % (bound b)``.
``--joint --objective NAME`` solves the joint model for Σ NAME over the placed jobs instead
(any metric :func:`models.solve_joint` takes; no two-phase run): ``problem`` is null and the
summary names the ``metric``.

The whole command runs under one deadline of ``--time-limit`` seconds from its start
(:mod:`planner.deadline`): the alternatives search, the combination and the joint solve
share it. An alternatives search still running when it passes is stopped; nothing is then
combined, the status is ``unknown`` and stderr says so.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from instances.text import plural
from planner.cli.common import (
    DEFAULT_TIME_LIMIT,
    UsageError,
    choice,
    emit_json,
    exit_fast,
    load,
    one_line,
    print_table,
    time_limit,
)

PROBLEM_CHOICES: tuple[str, ...] = ("6", "7", "8", "9")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``combine`` command."""
    p = sub.add_parser(
        "combine",
        help="alternatives, then the best combination",
        description="Find the batch's alternatives, then choose one per job for "
        "combination problem (6)-(9) of Toporkov et al. 2015 (docs/exact-models.md).",
    )
    p.add_argument("file", help="instance file (planner.instance/1)")
    p.add_argument("--problem", default=None, help="6, 7, 8 or 9 (docs/exact-models.md)")
    p.add_argument("--objective", default=None, metavar="NAME",
                   help=f"with --joint, instead of --problem: {_objectives()} over the placed "
                   "jobs (docs/exact-models.md)")
    p.add_argument("--solver", default=None,
                   help="dp (default), cpsat or milp; with --joint: cpsat, cg or auto (default)")
    p.add_argument("--algorithm", default="amp",
                   help="alternatives search algorithm (amp; with --objective: the seeds')")
    p.add_argument("--time", default=None, help="proc_time (default) or runtime")
    p.add_argument("--t-star", type=int, default=None, help="time limit t* (integer)")
    p.add_argument("--b-star", type=int, default=None, help="VO budget b* (integer)")
    p.add_argument("--time-limit", type=time_limit, default=DEFAULT_TIME_LIMIT,
                   help=f"seconds for the whole command (default {DEFAULT_TIME_LIMIT:g}; "
                   "'none': no limit)")
    p.add_argument("--joint", action="store_true",
                   help="solve the joint co-allocation model (docs/exact-models.md)")
    p.add_argument("--json", action="store_true", help="JSON Lines output")
    p.set_defaults(run=run)


def _objectives() -> str:
    """Return the joint objectives for the help text: Σ of each metric, with its sense."""
    import planner
    from instances import CRITERIA

    sense = {c.metric: c.sense for c in CRITERIA.values()}
    groups = {s: [m for m in planner.METRICS if sense[m] == s] for s in ("min", "max")}
    return f"min Σ {'|'.join(groups['min'])}, or max Σ {'|'.join(groups['max'])},"


def _check(args: argparse.Namespace) -> None:
    import planner
    from models import COMBINATION_SOLVERS
    from models.combination import TIMES
    from models.result import LIMIT_MAX

    if args.objective is not None:
        if args.problem is not None:
            raise UsageError("planner: give --problem or --objective, not both")
        if not args.joint:
            raise UsageError("planner: --objective needs --joint (a combination of "
                             "alternatives solves problems 6-9: --problem)")
        choice("objective", args.objective, planner.METRICS)
        for flag, given in (("--t-star", args.t_star), ("--b-star", args.b_star),
                            ("--time", args.time)):
            if given is not None:
                raise UsageError(f"planner: {flag} belongs to --problem, not --objective")
    elif args.problem is None:
        raise UsageError("planner: give --problem 6|7|8|9 (or, with --joint, --objective NAME)")
    else:
        choice("problem", args.problem, PROBLEM_CHOICES)
    args.time = args.time or "proc_time"
    from models import JOINT_SOLVERS

    if args.joint:
        args.joint_solver = args.solver or "auto"
        choice("solver", args.joint_solver, JOINT_SOLVERS)
        args.solver = "dp"
    args.solver = args.solver or "dp"
    choice("solver", args.solver, COMBINATION_SOLVERS)
    choice("time", args.time, TIMES)
    if not hasattr(planner, "find_alternatives"):
        raise UsageError("planner: the alternatives search is not available in this build")
    choice("algorithm", args.algorithm, planner.ALGORITHMS)
    for flag, value in (("--t-star", args.t_star), ("--b-star", args.b_star)):
        if value is not None and not 0 <= value <= LIMIT_MAX:
            raise UsageError(f"planner: {flag} must be an integer >= 0 and <= 2^62")


def run(args: argparse.Namespace) -> int:
    """Run the alternatives search and the combination (or joint) solve; print the result."""
    _check(args)
    exit_fast()
    from planner.deadline import Deadline
    from planner.progress import phase

    deadline = Deadline(args.time_limit, began=getattr(args, "began", None))
    problem = None if args.objective is not None else int(args.problem)
    solver = args.solver
    chosen: dict[str, tuple[int | None, Any]] = {}
    label = f"reading {args.file}" if problem is None else \
        f"two-phase run ({args.algorithm}, {args.solver})"
    with phase(label):
        import planner
        from models import Result, solve_combination, solve_joint

        inst = load(args.file)
        if problem is not None:
            found = planner.find_alternatives(inst, args.algorithm, deadline=deadline)
            if found.complete:
                by_job = found.by_job()
                result = solve_combination(
                    {job.id: list(by_job.get(job.id, [])) for job in inst.jobs},
                    problem,
                    args.solver,
                    time=args.time,
                    t_star=args.t_star,
                    b_star=args.b_star,
                    time_limit=deadline,
                )
    if problem is None:
        result = solve_joint(inst, args.objective, args.joint_solver, algorithm=args.algorithm,
                             time_limit=deadline)
        chosen = {w.job: (None, w) for w in result.windows}
        solver = f"joint-{result.solver}"
    elif not found.complete:
        print(one_line(f"planner: combine: the time limit passed during the alternatives "
                       f"search ({plural(len(found), 'alternative')} found): nothing combined"),
              file=sys.stderr)  # fmt: skip
        result = Result("unknown", None, None, deadline.elapsed(), args.solver, (),
                        {"limit": None, "constraint_value": None})  # fmt: skip
    else:
        chosen = {w.job: (result.info["choice"][w.job] + 1, w) for w in result.windows}
        if args.joint:
            limits = {"t_star": result.info["t_star"], "b_star": result.info["b_star"]}
            result = solve_joint(
                inst,
                problem=problem,
                time=args.time,
                hint=list(result.windows),
                time_limit=deadline,
                solver=args.joint_solver,
                **limits,
            )
            chosen = {w.job: (None, w) for w in result.windows}
            solver = f"joint-{result.solver}"
    summary = {
        "problem": problem,
        **({"metric": args.objective} if args.objective is not None else {}),
        "solver": solver,
        "status": result.status,
        "objective": result.objective,
        "bound": result.bound,
        "gap": result.gap,
        "constraint": result.info.get("constraint_value"),
        "limit": result.info.get("limit"),
        "time": args.time if problem is not None else None,
        "runtime": round(result.runtime, 6),
    }
    if args.json:
        for job in inst.jobs:
            k, w = chosen.get(job.id, (None, None))
            emit_json(
                {
                    "job": job.id,
                    "status": "placed" if w is not None else "postponed",
                    "alternative": k,
                    "window": w.to_dict() if w is not None else None,
                }
            )
        emit_json(summary)
        return 0
    rows = []
    for job in inst.jobs:
        k, w = chosen.get(job.id, (None, None))
        if w is None:
            rows.append([job.id, "postponed", None, None, None, None, None, None])
        else:
            time = w.metric(args.time)
            rows.append([job.id, "placed", k, w.start, w.finish, w.cost, time, ",".join(w.nodes)])
    print_table(["job", "status", "alt", "start", "finish", "cost", args.time, "nodes"], rows)
    print()
    print("  ".join(f"{key}={value}" for key, value in summary.items()))
    print(f"proof: {result.proof}")
    return 0
