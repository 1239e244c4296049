"""``planner list [WHAT]``: every name the other commands accept, read from the registries.

Sections: algorithms (criterion, exact or not, source), criteria (metric and
sense), families (source and parameters with defaults), solvers (window,
combination and joint methods), problems (combination problems 6-9),
cluster-policies (``planner simulate --policy``), vo-policies (``planner flow
--policy``), workload-families (``planner generate`` job flows) and traces (the
bundled logs). A name added to a registry appears here without any change to
this command.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Callable
from typing import Any

from planner.cli.common import choice


def print_table(headers: list[str], rows: list[list[Any]]) -> None:
    """Print a left-aligned plain-text table (names and prose read better left-aligned)."""
    from planner import table

    print(table.text(headers, [[str(c) for c in r] for r in rows], left=len(headers)))


PAPERS: dict[str, str] = {
    "000": "Toporkov et al. 2011", "001": "Klusáček & Rudová 2008",
    "002": "Toporkov et al. 2012", "003": "Toporkov et al. 2015",
    "004": "Toporkov & Yemelyanov 2018",
}  # fmt: skip
"""Developer shorthand for the papers (docs/references.md) -> their author-year citation."""


def cite(text: str) -> str:
    """Return a registry ``source`` with the papers cited by author and year.

    A registry (a plug-in's, say) written with the shorthand ``seed 002 §3.1`` for the
    papers of docs/references.md is shown as ``Toporkov et al. 2012 §3.1``; text already
    in author-year form is unchanged.
    """
    return re.sub(r"seeds? (\d{3})", lambda m: PAPERS.get(m.group(1), m.group(0)), text)


def _algorithms() -> None:
    from planner import ALGORITHMS

    rows = [[a.name, ",".join(a.aliases) or "-", a.criterion or "(job's own)",
             "yes" if a.exact else "no", cite(a.source)] for a in ALGORITHMS.values()]  # fmt: skip
    print_table(["algorithm", "aliases", "criterion", "exact", "source"], rows)


def _criteria() -> None:
    from instances import CRITERIA

    rows = [[c.name, c.metric, c.sense] for c in CRITERIA.values()]
    print_table(["criterion", "metric", "sense"], rows)


def _families() -> None:
    from instances import FAMILIES

    for f in FAMILIES.values():
        print(f"{f.name}: {cite(f.source)}")
        params = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in f.defaults.items())
        print(textwrap.fill(params or "(no parameters)", 100, initial_indent="    ",
                            subsequent_indent="    ", break_on_hyphens=False))  # fmt: skip


def _solvers() -> None:
    from models import COMBINATION_SOLVERS, JOINT_SOLVERS, SOLVERS

    rows = [["exact (window)", k, cite(v)] for k, v in SOLVERS.items()]
    rows += [["combine", k, cite(v)] for k, v in COMBINATION_SOLVERS.items()]
    rows += [["combine --joint", k, cite(v)] for k, v in JOINT_SOLVERS.items()]
    from planner.registry import SNAPSHOT_SOLVERS

    rows += [["study schedule-gap", k, v] for k, v in SNAPSHOT_SOLVERS.items()]
    print_table(["used by", "solver", "method"], rows)


def _problems() -> None:
    from models import PROBLEMS

    rows = [[p.number, p.name, f"{p.sense} Σ {p.objective}",
             f"Σ {p.constraint} <= {'t*' if p.constraint == 'time' else 'b*'}"]
            for p in PROBLEMS.values()]  # fmt: skip
    print_table(["problem", "name", "objective", "constraint"], rows)


def _first_line(obj: Any) -> str:
    """Return the first line of ``obj``'s docstring, without reST markup."""
    return (obj.__doc__ or "-").strip().splitlines()[0].replace("``", "")


def _cluster_policies() -> None:
    from planner.cluster.policies import POLICIES

    print_table(["policy", "planner simulate --policy"],
                [[k, _first_line(v)] for k, v in POLICIES.items()])  # fmt: skip


def _vo_policies() -> None:
    from planner.vo.policies import POLICIES

    print_table(["policy", "planner flow --policy"],
                [[k, _first_line(v)] for k, v in POLICIES.items()])  # fmt: skip


def _workload_families() -> None:
    from instances import WORKLOAD_FAMILIES

    for f in WORKLOAD_FAMILIES.values():
        print(f"{f.name}: {cite(f.source)}")
        params = " ".join(f"--{k.replace('_', '-')} {v if v != '' else chr(34) * 2}"
                          for k, v in f.defaults.items())  # fmt: skip
        print(textwrap.fill(params or "(no parameters)", 100, initial_indent="    ",
                            subsequent_indent="    ", break_on_hyphens=False))  # fmt: skip


def _traces() -> None:
    from instances.traces.bundled import bundled_traces

    print_table(["bundled file (usable by its bare name)", "kind"],
                [[k, v] for k, v in bundled_traces().items()])  # fmt: skip


SECTIONS: dict[str, Callable[[], None]] = {
    "algorithms": _algorithms,
    "criteria": _criteria,
    "families": _families,
    "solvers": _solvers,
    "problems": _problems,
    "cluster-policies": _cluster_policies,
    "vo-policies": _vo_policies,
    "workload-families": _workload_families,
    "traces": _traces,
}
"""Section name → printer, in display order."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``list`` command."""
    p = sub.add_parser(
        "list",
        help="algorithms, criteria, families, solvers, problems, policies and traces "
        "(from the registries)",
        description="List the names every other command accepts (docs/index.md).",
    )
    p.add_argument("what", nargs="?", help=f"one section: {', '.join(SECTIONS)} (default: all)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the chosen section, or all of them with a heading each."""
    if args.what is not None:
        SECTIONS[choice("section", args.what, SECTIONS)]()
        return 0
    for k, (name, show) in enumerate(SECTIONS.items()):
        print(("\n" if k else "") + f"== {name}")
        show()
    return 0
