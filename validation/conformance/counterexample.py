"""A shrunk disagreement and its folder: the minimal and the original instance, both answers,
the explanation and the commands that rerun and check it (docs/verify.md)."""

from __future__ import annotations

import shlex
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from instances import Instance, dumps_instance
from validation.conformance.compare import Outcome


@dataclass
class Counterexample:
    """A shrunk disagreement and the files written for it."""

    number: int
    signature: tuple[str, str]
    job: str
    case: str
    original: Instance
    minimal: Instance
    outcome: Outcome
    expected: str
    actual: str
    runs: int
    source_job: str = ""
    """The job of the generated instance that first showed the disagreement."""
    files: list[str] = field(default_factory=list)
    rerun: str = ""


def write(cx: Counterexample, out: Path, settings: Any, argv: list[str]) -> None:
    """Write the counterexample's folder ``out/counterexample-K/`` and set its rerun command
    and files."""
    folder = out / f"counterexample-{cx.number}"
    folder.mkdir(parents=True, exist_ok=True)
    inst_path = folder / "instance.json"
    files = {
        "instance.json": dumps_instance(cx.minimal),
        "original.json": dumps_instance(cx.original),
        "expected.jsonl": cx.expected,
        "actual.jsonl": cx.actual,
    }
    mode = " --alternatives" if settings.mode == "alternatives" else ""
    seed = f" --seed {settings.seed}" if settings.seed else ""
    program = shlex.join(argv)
    cx.rerun = (f"planner verify --algorithm {settings.algorithm}{mode}{seed} --instance "
                f"{shlex.quote(str(inst_path))} -- {program}")  # fmt: skip
    kind = " --kind alternatives" if settings.mode == "alternatives" else ""
    check = (f"planner check {shlex.quote(str(inst_path))} "
             f"{shlex.quote(str(folder / 'actual.jsonl'))} --algorithm "
             f"{settings.algorithm}{kind}{seed}")  # fmt: skip
    files["explanation.txt"] = explanation(cx, settings, check)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    cx.files = [str(folder / name) for name in files]




def explanation(cx: Counterexample, settings: Any, check: str) -> str:
    """Return the text of a counterexample's ``explanation.txt``."""
    verdict, kind = cx.signature
    lines = [
        f"planner verify: counterexample {cx.number} ({settings.algorithm}, {settings.mode})",
        f"verdict: {verdict}" + (f" ({kind})" if kind else ""),
        f"job {cx.outcome.job}: {cx.outcome.explanation}",
        f"instance: {size(cx.minimal)} (from {cx.case}: {size(cx.original)}; "
        f"{cx.runs} program runs to shrink it)",
        "expected (planner): expected.jsonl; actual (the program): actual.jsonl",
        f"rerun: {cx.rerun}",
        f"check: {check}",
    ]
    return "\n".join(lines) + "\n"


def size(inst: Instance) -> str:
    """Return "1 job, 2 nodes, 3 slots (at most 2 per node)"."""
    per: dict[str, int] = defaultdict(int)
    for s in inst.slots:
        per[s.node] += 1
    most = max(per.values(), default=0)

    def n(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    return (f"{n(len(inst.jobs), 'job')}, {n(len(inst.nodes), 'node')}, "
            f"{n(len(inst.slots), 'slot')} (at most {most} per node)")  # fmt: skip


def dimensions(inst: Instance) -> dict[str, int]:
    """Return the sizes of :func:`size` as numbers: jobs, nodes, slots, slots_per_node (most)."""
    per: dict[str, int] = defaultdict(int)
    for s in inst.slots:
        per[s.node] += 1
    return {"jobs": len(inst.jobs), "nodes": len(inst.nodes), "slots": len(inst.slots),
            "slots_per_node": max(per.values(), default=0)}  # fmt: skip


def summary_dict(summary: Any) -> dict[str, Any]:
    """Return the JSON form of a summary (``planner verify --json``)."""
    return {
        "algorithm": summary.algorithm,
        "mode": summary.mode,
        "instances": summary.instances,
        "jobs": summary.jobs,
        "counts": summary.counts,
        "runs": summary.runs,
        "agree": summary.agree,
        "first_disagreement": summary.first,
        "counterexamples": [
            {"number": c.number, "verdict": c.signature[0], "kind": c.signature[1],
             "job": c.outcome.job, "explanation": c.outcome.explanation, "case": c.case,
             "source_job": c.source_job, "size": size(c.minimal),
             "dimensions": dimensions(c.minimal), "shrink_runs": c.runs, "files": c.files,
             "rerun": c.rerun}
            for c in summary.counterexamples
        ],
    }  # fmt: skip
