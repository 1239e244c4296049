"""examples/verify through ``planner verify``: the Java AMP agrees with planner on every job;
its planted-bug variant is caught and shrunk to a small counterexample with an explanation.

Compiled with ``javac`` into a temporary directory and run with ``{instances}``
(one JVM for many instances); skipped where no JDK is installed. The runs use
a reduced corpus (``--scale``) or one hand-made instance; the default run and
10,000 jobs are commands (examples/verify/README.md, docs/verify.md), not tests.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from instances import Instance, Job, Node, Slot, read_instance, write_instance
from planner.cli import main
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


def _verify(classes: Path, main_class: str, out: Path, *options: str) -> int:
    argv = ["verify", "--algorithm", "amp", "--out", str(out), *options, "--",
            "java", "-cp", str(classes), main_class, "{instances}"]  # fmt: skip
    return main(argv)


def test_java_amp_agrees_with_planner(
    classes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Amp on a tenth of the default corpus (edge cases included): every job identical or
    tied, exit 0, no counterexample written."""
    code = _verify(classes, "Amp", tmp_path / "out", "--scale", "0.1")
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[-1] == "184 jobs, all identical or tied"
    assert not (tmp_path / "out").exists()


def test_java_amp_with_the_planted_bug_is_caught_and_shrunk(
    classes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """AmpBuggy (budget test ``<``) on the budget met exactly: exit 3, one counterexample of
    one job on at most 3 nodes and 3 slots per node, explained at the reference's step."""
    inst = tmp_path / "exact.json"
    write_instance(_budget_met_exactly(), inst)
    code = _verify(classes, "AmpBuggy", tmp_path / "out", "--instance", str(inst))
    out = capsys.readouterr().out
    assert code == 3, out
    assert "differ 1" in out and "1 of 1 jobs disagree" in out
    folder = tmp_path / "out" / "counterexample-1"
    small = read_instance(folder / "instance.json")
    per_node = max(sum(s.node == n.id for s in small.slots) for n in small.nodes)
    assert len(small.jobs) == 1 and len(small.nodes) <= 3 and per_node <= 3
    text = (folder / "explanation.txt").read_text(encoding="utf-8")
    assert "verdict: differs" in text and "<= S = " in text and "AmpBuggy" in text
