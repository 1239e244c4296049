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
              "release and deadline; this read order breaks every remaining tie.")  # fmt: skip

TIES: dict[str, str] = {
    "amp": "the first start (step) whose n cheapest alive slots cost at most S; the n "
           "cheapest by (task cost, read order).",
    "alp": "the first start (step) with n alive slots priced at most C (max_price, else "
           "S/(V·n)); the n cheapest of them by (task cost, read order); no budget.",
    "csa": "the best of the AMP alternatives by the job's criterion; the first found among "
           "equals.",
}  # fmt: skip
AEP = ("the best value of the criterion over the steps; among equal values the earliest start, "
       "then the window met first (the faster square level, then the earlier step).")  # fmt: skip

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
    return f"{TIES.get(name, AEP)} {READ_ORDER} (docs/algorithms.md)"


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
