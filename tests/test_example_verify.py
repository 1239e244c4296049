"""examples/verify: the Java AMP agrees with planner job by job; its planted-bug variant does not.

Compiled with ``javac`` into a temporary directory and run on several
instances in one JVM; skipped where no JDK is installed. The comparison over
10,000 jobs is a command (examples/verify/README.md), not a test.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from instances import Instance, Job, Node, Slot, generate, write_instance
from planner import search
from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "examples" / "verify" / f for f in ("Amp.java", "AmpBuggy.java")]

pytestmark = [
    pytest.mark.skipif(shutil.which("javac") is None or shutil.which("java") is None,
                       reason="no JDK (javac, java)"),
    pytest.mark.slow,  # javac alone takes several seconds on 2 busy cores
]  # fmt: skip


def _budget_met_exactly() -> Instance:
    """a (price 2) and b (price 3) free on [0, 5), c (price 1) on [4, 9); n = 2, V = 1, S = 5.

    AMP: at T = 0 the n cheapest {a, b} cost exactly 5 ≤ S: window {a, b} at 0.
    A strict test (< S) reads on to T = 4, where {c, a} cost 3.
    """
    nodes = (Node("a", 1.0, price=2.0), Node("b", 1.0, price=3.0), Node("c", 1.0, price=1.0))
    slots = (Slot("a", 0, 5), Slot("b", 0, 5), Slot("c", 4, 9))
    return Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=2, volume=1.0, budget=5),))


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled classes of Amp.java and AmpBuggy.java."""
    out = tmp_path_factory.mktemp("classes")
    subprocess.run(["javac", "-d", str(out), *map(str, SOURCES)], check=True,
                   capture_output=True, timeout=HANG_GUARD_S)  # fmt: skip
    return out


@pytest.fixture(scope="module")
def instances(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Instance]:
    """Path → instance: rough and square tiny instances, the example file, the exact budget."""
    out = tmp_path_factory.mktemp("instances")
    made = {
        "exact.json": _budget_met_exactly(),
        **{f"tiny-{s}.json": generate("tiny", s, jobs=10) for s in range(3)},
        **{f"square-{s}.json": generate("tiny", s, jobs=10, geometry="square") for s in range(3)},
    }
    got = {}
    for name, inst in made.items():
        write_instance(inst, out / name)
        got[str(out / name)] = inst
    return got


def _run(classes: Path, main: str, paths: list[str]) -> dict[tuple[str, str], dict]:
    done = subprocess.run(["java", "-cp", str(classes), main, *paths], capture_output=True,
                          text=True, timeout=HANG_GUARD_S, check=True)  # fmt: skip
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return {(d["instance"], d["job"]): d for d in lines}


def _planner(inst: Instance, job: str) -> tuple[int, tuple[str, ...]] | None:
    w = search(inst, job, "amp")
    return None if w is None else (w.start, w.nodes)


def _java(line: dict) -> tuple[int, tuple[str, ...]] | None:
    w = line.get("window")
    return None if w is None else (w["start"], tuple(p["node"] for p in w["placements"]))


def test_java_amp_agrees_with_planner(classes: Path, instances: dict[str, Instance]) -> None:
    """Every job of seven instances (one JVM run): the same start and nodes as planner's AMP."""
    got = _run(classes, "Amp", list(instances))
    for path, inst in instances.items():
        for job in inst.jobs:
            assert _java(got[(path, job.id)]) == _planner(inst, job.id), (path, job.id)
    exact = next(p for p in instances if p.endswith("exact.json"))
    assert _java(got[(exact, "j")]) == (0, ("a", "b"))


def test_java_amp_with_the_planted_bug_differs(
    classes: Path, instances: dict[str, Instance]
) -> None:
    """AmpBuggy refuses a budget met exactly: {c, a} at T = 4 instead of planner's {a, b} at 0."""
    got = _run(classes, "AmpBuggy", list(instances))
    exact = next(p for p in instances if p.endswith("exact.json"))
    assert _java(got[(exact, "j")]) == (4, ("a", "c"))
    assert _planner(instances[exact], "j") == (0, ("a", "b"))
