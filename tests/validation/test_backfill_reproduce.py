"""The backfilling reproductions of seed 003 §7: tiny runs, stored paper numbers, exact gaps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planner.cli import main
from validation.study.reproduce import REPRODUCTIONS
from validation.study.reproduce.common import reference

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "003_8bc2e1ce15fc5ce2.txt"


def _norm(text: str) -> str:
    """Whitespace collapsed and hyphens dropped (the seed text hyphenates at line ends)."""
    return " ".join(text.replace("-", "").split())


def test_registered_with_5000_cycles_by_default() -> None:
    """bsf and estimates are registered, 5,000 cycles each by default."""
    assert all(REPRODUCTIONS[n].default_runs == 5000 for n in ("bsf", "estimates"))


def test_table3_numbers_are_consistent() -> None:
    """The stored Table 3 advantages and the 46% follow from the stored cells (as the paper's)."""
    p = reference("estimates")["paper"]
    bf = {q: e["value"] for q, e in p["backfilling"].items()}
    sl = {q: e["value"] for q, e in p["slicer"].items()}
    assert 1 - sl["exec_scheduled"] / bf["exec_scheduled"] == pytest.approx(0.262, abs=5e-4)
    assert 1 - sl["exec_real"] / bf["exec_real"] == pytest.approx(0.275, abs=5e-4)
    assert bf["start_scheduled"] / sl["start_scheduled"] - 1 == pytest.approx(-0.69, abs=5e-3)
    assert bf["start_real"] / sl["start_real"] - 1 == pytest.approx(-0.83, abs=5e-3)
    assert 1 - bf["start_real"] / bf["start_scheduled"] == pytest.approx(0.46, abs=5e-3)


@pytest.mark.skipif(not SEED.exists(), reason="the seed text is not checked out beside the tree")
@pytest.mark.parametrize("name", ["bsf", "estimates"])
def test_stored_sentences_are_in_the_paper(name) -> None:
    """Every stored sentence (Table 3 rows split at ' / ') occurs in the seed text."""
    text = _norm(SEED.read_text(encoding="utf-8").replace("-\n", ""))
    for sentence in reference(name)["sentences"].values():
        for part in sentence.split(" (Table 3.")[0].split(" / "):
            assert _norm(part) in text, part


def test_bsf_tiny_run() -> None:
    """Two cycles: T_CPU and start per share, the three claims judged."""
    cmp = REPRODUCTIONS["bsf"].run(seed=0, runs=2)
    labels = {a for _, q, a, _, o, _ in cmp.rows if q == "T_CPU" and o is not None}
    assert labels == {f"n_CSS/n={s:g}" for s in (0, 0.25, 0.5, 0.75, 1)}
    assert len(cmp.orderings) == 3 and all(ok is not None for _, ok in cmp.orderings)


def test_estimates_tiny_run_prints_every_cell_and_exact_gaps() -> None:
    """Two cycles and one exact cycle: every Table 3 cell beside ours; gaps against the optimum."""
    cmp = REPRODUCTIONS["estimates"].run(seed=0, runs=2, exact_runs=1)
    paper = reference("estimates")["paper"]
    rows = {(q, a): (p, o) for g, q, a, p, o, _ in cmp.rows if g == "Table 3"}
    for m in ("backfilling", "css", "slicer"):
        for q in ("exec_scheduled", "exec_real", "start_scheduled", "start_real"):
            p, o = rows[(q, m)]
            assert p == paper[m][q]["value"] and o is not None
    for m in ("css", "slicer"):
        assert rows[("start_real", m)][1] == rows[("start_scheduled", m)][1]
    exact = [r for r in cmp.rows if r[0].startswith("exact") and r[1] == "T_batch"]
    assert len(exact) == 6 and all(r[5] is not None and r[4] >= r[5] for r in exact)
    assert all(ok is not None for _, ok in cmp.orderings)


def test_cli_reproduce_bsf(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """``planner study reproduce bsf --cycles 1`` prints paper vs ours with verdicts and saves
    its result where ``--summary`` reads it."""
    monkeypatch.chdir(tmp_path)
    assert main(["study", "reproduce", "bsf", "--cycles", "1"]) == 0
    out = capsys.readouterr().out
    assert ("paper's orderings" in out and "[holds]" in out) or "[differs]" in out
    held = re.search(r"claims held: (\d+) of (\d+)", out)
    assert held and out.count("[holds]") == int(held[1])
    assert "result: study-out/reproduce/bsf.json" in out
    assert main(["study", "reproduce", "--summary"]) == 0
    board = capsys.readouterr().out
    assert re.search(rf"^bsf +{held[1]} / {held[2]} .* quick \(1 of 5000 runs\)$", board, re.M)
    assert "missing: run" in board and "egedf" in board
