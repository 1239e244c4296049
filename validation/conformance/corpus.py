"""The instances ``planner verify`` runs a program on: generated, read from files, or read from
an exported corpus (docs/verify.md).

The default corpus is the generated families at small sizes plus the
``edge`` family (boundary cases): about 2,000 jobs. Every job id is unique
across the corpus (``c007-j3``: case 7, job j3), so a program given several
instances in one run (``{instances}``) prints lines that are told apart by
their job alone. Single-job families get variants of their job (number of
nodes, volume, budget and criterion drawn around the family's own) so that
each instance carries 20 jobs. Everything is drawn from the seed.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from instances import CRITERIA, Instance, InstanceFileError, Job, generate, read_instance
from instances.io import load_json, read_text


@dataclass(frozen=True)
class Case:
    """One instance of a run: its file stem, the instance, and planner's expected lines when
    they were read from an exported corpus (otherwise planner computes them)."""

    name: str
    instance: Instance
    expected: str | None = None


PLAN: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("tiny", {"jobs": 20, "nodes": 5, "slots": 10, "bounds": 0.3}, 25),
    ("toporkov2011", {"slots_min": 30, "slots_max": 40, "jobs_min": 20, "jobs_max": 20,
                      "job_nodes_max": 4}, 12),
    ("toporkov2012", {"nodes": 15, "interval": 300, "job_nodes": 3}, 12),
    ("css2015", {"nodes": 10, "jobs": 20, "job_nodes_max": 4}, 12),
    ("toporkov2018", {"nodes": 15, "interval": 600, "job_nodes": 3}, 10),
    ("edge", {"jobs": 16}, 40),
)  # fmt: skip
"""(family, parameters, instances) of the default corpus: 2,000+ jobs, of which 640 edge cases."""

VARIANTS = 20
"""Jobs per instance of a single-job family (the family's job and its variants)."""


def default_corpus(seed: int = 0, *, scale: float = 1.0) -> list[Case]:
    """Return the default corpus for ``seed``; ``scale`` multiplies the instance counts."""
    cases: list[Case] = []
    for f, (family, params, count) in enumerate(PLAN):
        for k in range(max(1, round(count * scale))):
            inst = generate(family, seed * 1000 + k, **params)
            if family in ("tiny", "toporkov2011", "css2015") and k % 2:
                inst = dataclasses.replace(inst, geometry="square")
            if len(inst.jobs) == 1:
                rng = np.random.default_rng([seed, f, k])
                inst = dataclasses.replace(inst, jobs=_variants(rng, inst.jobs[0]))
            cases.append(unique(f"c{len(cases) + 1:03d}-{family}", inst))
    return cases


def _variants(rng: np.random.Generator, job: Job) -> tuple[Job, ...]:
    """Return the job and VARIANTS - 1 variants (n, V, S and criterion drawn around it)."""
    out = [job]
    for i in range(1, VARIANTS):
        n = int(rng.integers(1, job.nodes + 2))
        volume = round(job.volume * float(rng.uniform(0.5, 1.5)), 1)
        budget = None
        if job.budget is not None:
            budget = int(job.budget * n / job.nodes * float(rng.uniform(0.6, 1.3)))
        crit = str(rng.choice(list(CRITERIA)))
        out.append(dataclasses.replace(job, id=f"{job.id}v{i}", nodes=n, volume=volume,
                                       budget=budget, criterion=crit))  # fmt: skip
    return tuple(out)


def unique(name: str, instance: Instance) -> Case:
    """Return the case ``name`` with job ids prefixed by its number (``c007-j3``)."""
    prefix = name.split("-")[0]
    jobs = tuple(dataclasses.replace(j, id=f"{prefix}-{j.id}") for j in instance.jobs)
    return Case(name, dataclasses.replace(instance, jobs=jobs, name=name))


def from_files(paths: list[str]) -> list[Case]:
    """Return one case per instance file (job ids as the files give them)."""
    cases = []
    for path in paths:
        stem = Path(path).stem or "instance"
        cases.append(Case(stem, read_instance(path)))
    return cases


MANIFEST = "manifest.json"
CORPUS_FORMAT = "planner.conformance/1"


def read_corpus(folder: str) -> tuple[dict[str, Any], list[Case]]:
    """Return an exported corpus's manifest and cases (each with its expected lines)."""
    path = os.path.join(folder, MANIFEST)
    manifest = load_json(read_text(path), path)
    if not isinstance(manifest, dict) or manifest.get("format") != CORPUS_FORMAT:
        raise InstanceFileError(path, "format", f"must equal '{CORPUS_FORMAT}'")
    cases = []
    items = manifest.get("cases")
    if not isinstance(items, list):
        raise InstanceFileError(path, "cases", "must be an array")
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not all(
            isinstance(item.get(k), str) for k in ("name", "instance", "expected")
        ):
            rule = "must hold the strings name, instance and expected"
            raise InstanceFileError(path, f"cases[{i}]", rule)
        inst = read_instance(os.path.join(folder, item["instance"]))
        expected = read_text(os.path.join(folder, item["expected"]))
        cases.append(Case(item["name"], inst, expected))
    return manifest, cases


def dumps_manifest(manifest: dict[str, Any]) -> str:
    """Return the manifest's JSON text (indented, keys in insertion order)."""
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
