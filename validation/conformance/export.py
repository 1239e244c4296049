"""A conformance corpus for another project's CI (``planner verify --export DIR``, docs/verify.md).

The folder holds ``instances/NAME.json``, planner's expected lines
``expected/NAME.jsonl`` and ``manifest.json``: the format, planner's version,
the algorithm and its criterion, the mode, the seed, the constraint the
checker applies, the rules that decide ties, the verdicts, the command that
regenerates the corpus, and the list of cases. ``planner verify --corpus
DIR -- PROGRAM`` runs a program against it offline; any other tool can
compare lines itself by the manifest's rules.
"""

from __future__ import annotations

import os
from typing import Any

from instances import dumps_instance
from planner import __version__, resolve
from validation.conformance.corpus import CORPUS_FORMAT, MANIFEST, Case, dumps_manifest
from validation.conformance.reference import constraint_of, expected
from validation.results import FORMAT

READ_ORDER = ("Slots are read in (start, node order) order, the start clipped to the job's "
              "release and deadline; at each step the alive slots are ordered by (task cost, "
              "read index), and 'the n cheapest' are the first n; this read order breaks every "
              "remaining tie.")  # fmt: skip

FIRST_FIT = ("Square geometry: one pass per performance level, fastest first; the earliest "
             "start over the levels wins, the faster level on equal starts.")  # fmt: skip
EVERY = "Evaluated at every formed step (several at one start included)"
ONCE = "Evaluated once per distinct start (at the last slot read with it)"
BEST = ("the least (value, start) wins, a later window only when strictly smaller: among equal "
        "values the earliest start, then the window met first (the earlier square level, then "
        "the earlier step)")  # fmt: skip
SWAP = ("the runtime swap heuristic: the n cheapest if they fit S (square levels: unchanged); "
        "otherwise spares in (cost, read index) order replace the result slot with the longest "
        "task (of equally long ones the dearest, then the later read) when strictly shorter and "
        "the total stays at most S")  # fmt: skip

TIES: dict[str, str] = {
    "amp": "The first formed step whose n cheapest alive slots cost at most S: those n. "
           + FIRST_FIT,
    "alp": "Slots priced above C (max_price, else S/(V·n), compared exactly) are dropped; the "
           "first formed step: its n cheapest alive slots, whatever their total (no budget). "
           + FIRST_FIT,
    "min_cost": f"{ONCE}, square levels per task duration (shortest first): the n cheapest if "
                f"they fit S; {BEST}.",
    "min_runtime": f"{EVERY}, square levels per performance (fastest first): {SWAP}; {BEST}.",
    "min_finish": f"{EVERY}, square levels per performance (fastest first): {SWAP}; valued by "
                  f"finish; {BEST}.",
    "max_q": f"{ONCE}, square levels per task duration (shortest first): the n of greatest q (ties "
             "to the cheaper, then the earlier in (cost, read index) order) if they fit S, else "
             "the knapsack's optimal subset — among optimal subsets the one whose last item "
             "(items in (cost, read index) order) comes first, then its second-to-last, ...; "
             "past a budget axis of 4,096 money units (after the reductions of the docs) the "
             f"least costly optimal subset first; values are Σq rounded to 9 decimals; {BEST}.",
    "csa": "AMP alternatives on the job's slots, each subtracted before the next; the best by "
           "the job's own criterion, ties to the earlier start, then the one found first.",
}  # fmt: skip
AEP = f"The algorithm's selector at each step (docs/algorithms.md); {BEST}."

VERDICTS: dict[str, str] = {
    "identical": "the same start and the same (node, start, end) placements",
    "tie": "the same value of the algorithm's criterion (the job's own for csa) on other "
           "placements: accepted unless --strict",
    "differs": "another value, or a window where the other has none",
    "infeasible": "the independent checker finds a broken rule (planner check)",
    "missing": "no line for the job",
}  # fmt: skip


def tie_rule(algorithm: str) -> str:
    """Return the rule that decides ties for ``algorithm`` (docs/algorithms.md has them all)."""
    name = resolve(algorithm).name
    return f"{TIES.get(name, AEP)} {READ_ORDER} (docs/algorithms.md, \"The single pass\")"


def export(cases: list[Case], folder: str, algorithm: str, mode: str, seed: int,
           command: str) -> list[str]:  # fmt: skip
    """Write the corpus of ``cases`` into ``folder``; return the paths written."""
    algo = resolve(algorithm)
    os.makedirs(os.path.join(folder, "instances"), exist_ok=True)
    os.makedirs(os.path.join(folder, "expected"), exist_ok=True)
    items: list[dict[str, Any]] = []
    written = []
    jobs = 0
    for case in cases:
        inst_rel = f"instances/{case.name}.json"
        exp_rel = f"expected/{case.name}.jsonl"
        text, _ = expected(case.instance, algo.name, mode, seed=seed)
        for rel, body in ((inst_rel, dumps_instance(case.instance)), (exp_rel, text)):
            with open(os.path.join(folder, rel), "w", encoding="utf-8") as fh:
                fh.write(body)
            written.append(os.path.join(folder, rel))
        items.append({"name": case.name, "instance": inst_rel, "expected": exp_rel,
                      "jobs": len(case.instance.jobs)})  # fmt: skip
        jobs += len(case.instance.jobs)
    manifest = {
        "format": CORPUS_FORMAT,
        "planner": __version__,
        "algorithm": algo.name,
        "criterion": algo.criterion or "each job's own",
        "mode": mode,
        "seed": seed,
        "result_format": FORMAT,
        "constraint": constraint_of(algo.name),
        "ties": tie_rule(algo.name),
        "verdicts": VERDICTS,
        "command": command,
        "instances": len(cases),
        "jobs": jobs,
        "cases": items,
    }
    path = os.path.join(folder, MANIFEST)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(dumps_manifest(manifest))
    written.append(path)
    return written
