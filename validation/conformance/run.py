"""Differential testing of a program against planner (``planner verify``, docs/verify.md).

:class:`Verifier` writes each case's instance to a temporary folder, runs the
program (several instances per run when it takes ``{instances}``), splits its
lines by job, checks and compares every job (:func:`~validation.conformance.compare.judge`)
and counts the verdicts. Each distinct disagreement (verdict and kind, e.g.
``differs``/``worse`` or ``infeasible``/``budget``) is shrunk by
:class:`~validation.conformance.shrink.Shrinker`, rerunning the program on
every candidate, and written out with both answers, the explanation and the
command that reruns it.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from instances import Instance, InstanceFileError, write_instance
from planner import resolve
from validation.conformance.compare import AGREE, Outcome, judge, tally
from validation.conformance.corpus import Case
from validation.conformance.counterexample import Counterexample, write
from validation.conformance.program import Program, Run
from validation.conformance.reference import expected
from validation.conformance.shrink import Shrinker
from validation.results import ResultFile, parse_results


@dataclass(frozen=True)
class Settings:
    """How a verification runs (the options of ``planner verify``)."""

    algorithm: str
    mode: str = "solve"
    seed: int = 0
    strict: bool = False
    batch: int = 25
    shrink: bool = True
    counterexamples: int = 10
    shrink_runs: int = 300


@dataclass
class Summary:
    """Counts of a verification and its counterexamples."""

    algorithm: str
    mode: str
    instances: int = 0
    jobs: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    runs: int = 0
    counterexamples: list[Counterexample] = field(default_factory=list)
    first: int | None = None
    """Jobs judged up to the first disagreement, in corpus order (None: none)."""

    @property
    def agree(self) -> bool:
        """True when every job is identical or tied (ties count against with ``strict``)."""
        return all(n == 0 for v, n in self.counts.items() if v not in AGREE)


class Verifier:
    """Run a program on cases and judge every job against planner."""

    def __init__(self, program: Program, settings: Settings) -> None:
        self.program = program
        self.settings = settings
        self.algorithm = resolve(settings.algorithm)
        self.kind = "alternatives" if settings.mode == "alternatives" else "solve"
        self.on_jobs: Callable[[int], None] | None = None
        """Called with the number of jobs of each case judged in the main pass (progress)."""
        self.on_shrink: Callable[[int, tuple[str, str]], Any] | None = None
        """Called as ``on_shrink(number, signature)`` before a disagreement is shrunk; what it
        returns (a context manager, e.g. a progress line) is entered while shrinking."""
        self.on_run: Callable[[], None] | None = None
        """Called after every program run (progress while shrinking)."""
        self._counting = False

    def reference(self, case: Case) -> ResultFile:
        """Return planner's lines for the case (read from the corpus, else computed)."""
        if case.expected is not None:
            text = case.expected
        else:
            text, _ = expected(case.instance, self.algorithm.name, self.settings.mode,
                               seed=self.settings.seed)  # fmt: skip
        if not text.strip():
            return ResultFile("planner", self.kind, ())
        return parse_results(text, f"{case.name} (expected)", self.kind)

    def judge(self, case: Case, text: str) -> list[Outcome]:
        """Return the outcomes of one case from the program's lines for it."""
        if not text.strip():
            yours = ResultFile(case.name, self.kind, ())
        else:
            try:
                yours = parse_results(text, f"output for {case.name}", self.kind)
            except InstanceFileError as err:
                return [Outcome(j.id, "crashed", f"bad output: {err}", "output")
                        for j in case.instance.jobs]  # fmt: skip
        outcomes, _ = judge(case.instance, yours, self.reference(case), self.algorithm)
        return outcomes

    def _run(self, paths: list[str]) -> Run:
        run = self.program.run(paths)
        if self.on_run is not None:
            self.on_run()
        return run

    def evaluate(self, cases: list[Case]) -> list[tuple[list[Outcome], str]]:
        """Run the program on ``cases``; return each case's outcomes and its output lines."""
        out: list[tuple[list[Outcome], str] | None] = [None] * len(cases)
        with tempfile.TemporaryDirectory(prefix="planner-verify-") as tmp:
            paths = []
            for k, case in enumerate(cases):
                path = os.path.join(tmp, f"{k:04d}-{_safe(case.name)}.json")
                write_instance(case.instance, path)
                paths.append(path)
            for group in self._groups(cases):
                run = self._run([paths[i] for i in group])
                texts = _split(run, [cases[i] for i in group]) if run.status == "ok" else None
                if texts is None and len(group) > 1:  # attribute the failure: one by one
                    for i in group:
                        one = self._run([paths[i]])
                        out[i] = self._outcomes(cases[i], one, one.stdout)
                        self._stepped(cases[i])
                    continue
                for pos, i in enumerate(group):
                    text = texts[pos] if texts is not None else ""
                    out[i] = self._outcomes(cases[i], run, text)
                    self._stepped(cases[i])
        return [o for o in out if o is not None]

    def _stepped(self, case: Case) -> None:
        if self._counting and self.on_jobs is not None:
            self.on_jobs(len(case.instance.jobs))

    def _outcomes(self, case: Case, run: Run, text: str) -> tuple[list[Outcome], str]:
        if run.status != "ok":
            return [Outcome(j.id, run.status, run.message) for j in case.instance.jobs], ""
        return self.judge(case, text), text

    def _groups(self, cases: list[Case]) -> list[list[int]]:
        """Return runs of case indices: several per run when batched, job ids unique per run."""
        if not self.program.batched:
            return [[i] for i in range(len(cases))]
        groups: list[list[int]] = []
        ids: set[str] = set()
        for i, case in enumerate(cases):
            mine = {j.id for j in case.instance.jobs}
            if not groups or len(groups[-1]) >= self.settings.batch or ids & mine:
                groups.append([])
                ids = set()
            groups[-1].append(i)
            ids |= mine
        return groups

    def failing(self, outcome: Outcome) -> bool:
        """Return True when the outcome is a disagreement (a tie too, with ``strict``)."""
        return outcome.verdict not in AGREE or (self.settings.strict and outcome.verdict == "tie")

    def verify(self, cases: list[Case], out: str | None = None) -> Summary:
        """Evaluate every case, shrink each distinct disagreement, write counterexamples."""
        summary = Summary(self.algorithm.name, self.settings.mode, instances=len(cases))
        self._counting = True
        try:
            results = self.evaluate(cases)
        finally:
            self._counting = False
        every = [o for outcomes, _ in results for o in outcomes]
        summary.jobs = len(every)
        summary.counts = tally(every)
        if self.settings.strict:  # ties are failures: count them as differences
            summary.counts["differs"] += summary.counts["tie"]
            summary.counts["tie"] = 0
        summary.first = next((k + 1 for k, o in enumerate(every) if self.failing(o)), None)
        firsts: dict[tuple[str, str], tuple[Case, Outcome]] = {}
        for case, (outcomes, _) in zip(cases, results, strict=True):
            for o in outcomes:
                if self.failing(o) and o.signature not in firsts:
                    firsts[o.signature] = (case, o)
        for number, (sig, (case, o)) in enumerate(firsts.items(), start=1):
            if number > self.settings.counterexamples:
                break
            summary.counterexamples.append(self._counterexample(number, sig, case, o, out))
        summary.runs = self.program.runs
        return summary

    def _counterexample(self, number: int, sig: tuple[str, str], case: Case, first: Outcome,
                        out: str | None) -> Counterexample:  # fmt: skip
        minimal = case.instance
        calls = 0
        began = self.program.runs
        if self.settings.shrink and sig[0] != "timeout":
            oracle, every = self._oracle(sig)
            shrinker = Shrinker(oracle, self.settings.shrink_runs, every)
            solo = first.job if self.settings.mode == "solve" else None
            shown = self.on_shrink(number, sig) if self.on_shrink else contextlib.nullcontext()
            with shown:
                minimal = shrinker.shrink(case.instance, keep_job=solo)
            calls = self.program.runs - began
        small = Case(f"counterexample-{number}", minimal, case.expected if minimal is
                     case.instance else None)  # fmt: skip
        ((outcomes, text),) = self.evaluate([small])
        outcome = next((o for o in outcomes if o.signature == sig), first)
        ref_text = small.expected
        if ref_text is None:
            ref_text, _ = expected(minimal, self.algorithm.name, self.settings.mode,
                                   seed=self.settings.seed)  # fmt: skip
        cx = Counterexample(number, sig, outcome.job, case.name, case.instance, minimal, outcome,
                            ref_text, text, calls, source_job=first.job)  # fmt: skip
        if out is not None:
            write(cx, Path(out), self.settings, self.program.argv)
        return cx

    def _oracle(self, sig: tuple[str, str]) -> tuple[Any, Any]:
        """Return ``first(candidates)`` (the index of the first candidate whose outcomes still
        show ``sig``) and, for a program taking ``{instances}``, ``every(candidates)``."""

        def holds(outcomes: list[Outcome]) -> bool:
            return any(o.signature == sig for o in outcomes)

        batched = self.program.batched and sig[0] != "crashed"  # a crash ends a whole batch
        limit = self.program.runs + self.settings.shrink_runs  # program runs, not oracle calls

        def chunks(candidates: list[Instance]) -> Any:
            size = max(self.settings.batch, 1)
            for lo in range(0, len(candidates), size):
                if self.program.runs >= limit:
                    yield [False] * len(candidates[lo : lo + size])
                    continue
                chunk = candidates[lo : lo + size]
                cases = [_renamed_jobs(f"k{lo + k}", c) for k, c in enumerate(chunk)]
                yield [holds(outcomes) for outcomes, _ in self.evaluate(cases)]

        def first(candidates: list[Instance]) -> int | None:
            if batched:
                seen = 0
                for verdicts in chunks(candidates):
                    if any(verdicts):
                        return seen + verdicts.index(True)
                    seen += len(verdicts)
                return None
            for k, cand in enumerate(candidates):
                if self.program.runs >= limit:
                    return None
                ((outcomes, _),) = self.evaluate([Case(f"k{k}", cand)])
                if holds(outcomes):
                    return k
            return None

        def every(candidates: list[Instance]) -> list[bool]:
            return [v for verdicts in chunks(candidates) for v in verdicts]

        return first, (every if batched else None)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60] or "case"


def _renamed_jobs(prefix: str, inst: Instance) -> Case:
    """Return a case whose job ids carry ``prefix`` (candidates share one run)."""
    import dataclasses

    jobs = tuple(dataclasses.replace(j, id=f"{prefix}-{j.id}") for j in inst.jobs)
    return Case(prefix, dataclasses.replace(inst, jobs=jobs))


def _split(run: Run, cases: list[Case]) -> list[str] | None:
    """Return each case's lines of a batched run (by job id), or None when a line cannot be
    attributed (not JSON, no job, a job of no case)."""
    if len(cases) == 1:
        return [run.stdout]
    owner = {j.id: k for k, case in enumerate(cases) for j in case.instance.jobs}
    texts: list[list[str]] = [[] for _ in cases]
    for line in run.stdout.splitlines():
        if not line.strip():
            continue
        try:
            job = json.loads(line).get("job")
        except (ValueError, AttributeError):
            return None
        if not isinstance(job, str) or job not in owner:
            return None
        texts[owner[job]].append(line)
    return ["".join(t + "\n" for t in lines) for lines in texts]
