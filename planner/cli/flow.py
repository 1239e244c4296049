"""``planner flow FAMILY``: simulate a VO job flow over slots, cycle by cycle (docs/vo-flows.md).

Each cycle draws its environment and new jobs from FAMILY (seeded per
cycle), adds the jobs postponed by earlier cycles, and schedules the batch
with the policy (``css`` or ``slicer --k K``) and the VO policy (combination
problem 6-9). Prints one row per cycle (or JSON Lines with ``--json``),
then the flow's means; ``--jobs FILE`` writes the per-job records as CSV;
``--plot DIR`` draws the per-cycle metrics and one cycle's reservations;
``--replay SEED [--replan]`` executes every cycle's schedule with real run
times below the reserved ones and adds scheduled vs real times
(docs/slot-backfilling.md).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
from typing import Any

from instances.limits import SEED_MAX
from planner.cli.common import UsageError, emit_json, param_value, print_table, writable


def _int(flag: str, minimum: int, maximum: int) -> Any:
    """Return a parser of an ASCII integer in [minimum, maximum] (UsageError otherwise)."""

    def parse(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 19) or not (
            minimum <= int(digits) <= maximum
        ):
            raise UsageError(f"planner flow: {flag} must be an integer in [{minimum}, {maximum}]")
        return int(digits)

    return parse


FLOW_SIZES: dict[str, int] = {
    "nodes": 1000, "max_procs": 1000, "jobs": 1000, "jobs_max": 1000, "slots": 10**4,
    "slots_max": 10**4, "interval": 10**5,
}  # fmt: skip
"""Largest per-cycle environment and batch of a flow (a cycle at 1000 nodes takes ~1 min)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``flow`` command."""
    p = sub.add_parser(
        "flow",
        help="simulate a VO job flow over slots (CSS, batch-slicer)",
        description="Simulate cycles of a VO job flow: per cycle, the family's environment and "
        "new jobs plus the postponed ones, scheduled by the policy (docs/vo-flows.md).",
    )
    p.add_argument("family", help="instance family drawing each cycle (e.g. css2015)")
    p.add_argument("--policy", default="slicer",
                   help="css, slicer (default), backfill (conservative), easy (EASY-like) "
                   "or bsf (docs/slot-backfilling.md)")  # fmt: skip
    p.add_argument("--k", type=_int("--k", 1, 1000), default=1,
                   help="sub-batches of the slicer (1)")  # fmt: skip
    p.add_argument("--share", type=float, default=None,
                   help="bsf: n_CSS/n, the batch share given to the slicer (0.5)")  # fmt: skip
    p.add_argument("--variant", default=None,
                   help="bsf: backfilling of the rest, conservative (default) or easy")  # fmt: skip
    p.add_argument("--search", default=None,
                   help="alternatives search: criterion (each job's own) or amp; "
                   "default: amp for css, criterion for slicer")  # fmt: skip
    p.add_argument("--problem", default="7", help="VO policy: combination problem 6-9 (7)")
    p.add_argument("--time", default="proc_time", help="proc_time (default) or runtime")
    p.add_argument("--cycles", type=_int("--cycles", 1, 10**4), default=10, help="cycles (10)")
    p.add_argument("--seed", type=_int("--seed", 0, SEED_MAX), default=0, help="flow seed (0)")
    p.add_argument("--max-postponements", type=_int("--max-postponements", 0, 10**4), default=2,
                   help="a job postponed more often is dropped (2)")  # fmt: skip
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="family parameter (repeatable), e.g. --param load_max=0.3")  # fmt: skip
    p.add_argument("--json", action="store_true", help="JSON Lines: one object per cycle")
    p.add_argument("--jobs", metavar="FILE", help="write the per-job records as CSV")
    p.add_argument("--plot", metavar="DIR", help="write cycles.png and timeline.png to DIR")
    p.add_argument("--timeline-cycle", type=_int("--timeline-cycle", 0, 10**4), default=0,
                   help="the cycle drawn in timeline.png (0)")  # fmt: skip
    p.add_argument("--replay", type=_int("--replay", 0, SEED_MAX), default=None, metavar="SEED",
                   help="execute each cycle's schedule with real task times uniform in "
                   "[0.2, 1] x reserved, drawn from SEED; print scheduled vs real start, "
                   "execution and finish (docs/slot-backfilling.md)")  # fmt: skip
    p.add_argument("--replan", action="store_true",
                   help="with --replay and --policy backfill: jobs not yet started move to "
                   "earlier windows on released time")  # fmt: skip
    p.set_defaults(run=run)


def _params(args: argparse.Namespace) -> dict[str, Any]:
    from instances import FAMILIES

    if args.family not in FAMILIES:
        raise UsageError(f"planner flow: unknown family '{args.family}' "
                         f"(choose from: {', '.join(FAMILIES)})")  # fmt: skip
    defaults = FAMILIES[args.family].defaults
    out: dict[str, Any] = {}
    for item in args.param:
        name, eq, text = item.partition("=")
        name = name.replace("-", "_")
        if not eq or not name:
            raise UsageError(f"planner flow: --param must be NAME=VALUE, got '{item}'")
        out[name] = param_value("planner flow", name, text, defaults.get(name))
    try:
        merged = FAMILIES[args.family].check_params(out)
    except ValueError as err:
        raise UsageError(f"planner flow: {err}") from None
    for key, top in FLOW_SIZES.items():
        value = merged.get(key)
        if isinstance(value, int) and value > top:
            raise UsageError(f"planner flow: parameter '{key}' must be <= {top} for a flow "
                             "(docs/vo-flows.md, limits)")  # fmt: skip
    return out


def _policy(args: argparse.Namespace) -> Any:
    from instances.errors import did_you_mean
    from planner.vo import POLICIES, make_policy

    if args.policy not in POLICIES:
        raise UsageError(f"planner flow: unknown policy '{args.policy}'"
                         f"{did_you_mean(args.policy, POLICIES)} "
                         f"(choose from: {', '.join(POLICIES)})")  # fmt: skip
    options: dict[str, Any] = {}
    if args.search is not None:
        if args.policy in ("backfill", "easy"):
            raise UsageError("planner flow: --search does not apply to backfilling (always AMP)")
        options["search"] = args.search
    if args.policy in ("slicer", "bsf"):
        options["k"] = args.k
    elif args.k != 1:
        raise UsageError("planner flow: --k applies to the slicer and bsf policies only")
    for name in ("share", "variant"):
        if getattr(args, name) is not None:
            if args.policy != "bsf":
                raise UsageError(f"planner flow: --{name} applies to the bsf policy only")
            options[name] = getattr(args, name)
    try:
        return make_policy(args.policy, **options)
    except (KeyError, ValueError) as err:
        raise UsageError(f"planner flow: {str(err).strip(chr(39))}") from None


def run(args: argparse.Namespace) -> int:
    """Simulate the flow and print the per-cycle records and the means."""
    from models.combination import VoPolicy
    from planner.vo import family_environment, run_flow

    params = _params(args)
    policy = _policy(args)
    if args.problem not in ("6", "7", "8", "9"):
        raise UsageError("planner flow: --problem must be 6, 7, 8 or 9")
    if args.time not in ("proc_time", "runtime"):
        raise UsageError("planner flow: --time must be proc_time or runtime")
    if args.plot and args.timeline_cycle >= args.cycles:
        raise UsageError("planner flow: --timeline-cycle must be below --cycles")
    if args.replan and args.replay is None:
        raise UsageError("planner flow: --replan needs --replay SEED")
    if args.replan and args.policy != "backfill":
        raise UsageError("planner flow: --replan applies to the backfill policy only")
    combine = VoPolicy(int(args.problem), args.time)
    env = family_environment(args.family, args.seed, **params)
    try:
        keep = bool(args.plot) or args.replay is not None
        flow = run_flow(policy, combine, env, args.cycles, seed=args.seed,
                        max_postponements=args.max_postponements, keep=keep)  # fmt: skip
    except ValueError as err:
        raise UsageError(f"planner flow: {str(err).splitlines()[0]}") from None
    rep = None
    if args.replay is not None:
        from planner.vo.flow_replay import replay_flow

        rep = replay_flow(flow, args.replay, replan=args.replan)
    if args.jobs:
        _write_jobs(flow, args.jobs, rep)
    if args.plot:
        _plot(flow, args.plot, args.timeline_cycle)
    if args.json:
        for c in flow.cycles:
            row = dataclasses.asdict(c)
            row["nodes"] = [dataclasses.asdict(u) for u in c.nodes]
            if rep is not None:
                row["replay"] = _replay_fields(rep.cycles[c.cycle])
            emit_json(row)
        return 0
    cols = ["cycle", "batch", "new", "carried", "placed", "postponed", "dropped", "alternatives",
            "start", "runtime", "finish", "cost", "t_cpu", "utilisation"]  # fmt: skip
    print_table(cols, [[_fmt(getattr(c, k)) for k in cols] for c in flow.cycles])
    print()
    print(_summary(flow, policy))
    if rep is not None:
        print()
        _print_replay(rep)
    return 0


REPLAY_COLUMNS = ("placed", "moved", "start", "real_start", "exec", "real_exec", "finish",
                  "real_finish")  # fmt: skip
"""Per-cycle replay means: scheduled and real start, execution time (Σ task times), finish."""


def _replay_fields(c: Any) -> dict[str, Any]:
    return {k: getattr(c, k) for k in REPLAY_COLUMNS}


def _print_replay(rep: Any) -> None:
    print(f"execution replay (seed {rep.seed}, {'re-planned' if rep.replan else 'fixed'} "
          "schedule): scheduled vs real, means over placed jobs")  # fmt: skip
    cols = ["cycle", *REPLAY_COLUMNS]
    print_table(cols, [[_fmt(getattr(c, k)) for k in cols] for c in rep.cycles])
    print()
    total = rep.overall()
    print("replay  " + "  ".join(f"{k}={_fmt(getattr(total, k))}" for k in REPLAY_COLUMNS))


def _name(policy: Any) -> str:
    if hasattr(policy, "share"):
        return f"{policy.name}(share={policy.share:g}, k={policy.k}, {policy.variant})"
    return f"{policy.name}(k={policy.k})" if hasattr(policy, "k") else policy.name


def _fmt(value: Any) -> Any:
    return round(value, 2) if isinstance(value, float) else value


def _summary(flow: Any, policy: Any) -> str:
    from planner.vo.metrics import mean

    placed = [j for j in flow.jobs if j.status == "placed"]
    seen = len({j.job for j in flow.jobs})
    parts = {
        "policy": _name(policy),
        "jobs": seen,
        "placed": len(placed),
        "dropped": sum(c.dropped for c in flow.cycles),
        "Y_jobs": _fmt(mean([c.failure_rate for c in flow.cycles])),
        "Y_cycles": _fmt(mean([float(c.failed) for c in flow.cycles])),
        "NA": _fmt(mean([j.alternatives for j in placed])),
        "start": _fmt(mean([j.start for j in placed])),
        "runtime": _fmt(mean([j.runtime for j in placed])),
        "finish": _fmt(mean([j.finish for j in placed])),
        "cost": _fmt(mean([j.cost for j in placed])),
        "T_CPU": _fmt(mean([c.t_cpu for c in flow.cycles])),
    }
    return "  ".join(f"{k}={v}" for k, v in parts.items())


REPLAY_JOB_FIELDS = ("real_start", "real_exec", "real_finish", "real_hosts", "moved")
"""Columns ``--replay`` adds to ``--jobs``: the real run of each placed job."""


def _write_jobs(flow: Any, path: str, rep: Any = None) -> None:
    fields = [f.name for f in dataclasses.fields(flow.jobs[0])] if flow.jobs else ["job"]
    if rep is not None:
        fields += REPLAY_JOB_FIELDS
    writable("planner flow", path)
    try:
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(fields)
            for j in flow.jobs:
                row = dataclasses.asdict(j)
                row["hosts"] = " ".join(row["hosts"])
                run = None if rep is None else rep.jobs.get((j.cycle, j.job))
                if run is not None:
                    row.update(real_start=run.real_start, real_exec=run.real_time,
                               real_finish=run.real_finish, moved=int(bool(run.moves)),
                               real_hosts=" ".join(run.window.nodes))  # fmt: skip
                w.writerow(["" if row.get(f) is None else row[f] for f in fields])
    except OSError as err:
        raise UsageError(f"planner flow: cannot write {path}: {err.strerror}") from None


def _plot(flow: Any, directory: str, cycle: int) -> None:
    from pathlib import Path

    from planner.plot import plot_windows
    from planner.vo.plot import plot_cycles

    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        plot_cycles(flow, out / "cycles.png")
        inst, outcome = flow.kept[cycle]
        plot_windows(inst, list(outcome.reservations), out / "timeline.png",
                     title=f"cycle {cycle}: reservations of policy {flow.policy}")  # fmt: skip
    except RuntimeError as err:
        raise UsageError(str(err)) from None
    except OSError as err:
        raise UsageError(f"planner flow: cannot write to {directory}: {err.strerror}") from None
