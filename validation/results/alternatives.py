"""Alternatives files replayed in the order found (the alternatives search of docs/concepts.md).

Each window is checked on the free slots left after subtracting the windows
listed before it, so its stated slot must be a slot of that shrunk list; the
numbering (1, 2, ... per job), the rounds (batch order within a round; a job
that finds none in a round is not searched again) and shared node time are
checked too (docs/verify.md).
"""

from __future__ import annotations

from collections import defaultdict

from instances import Instance, Slot
from instances.text import plural
from validation.results.lines import ResultFile
from validation.results.report import Report, jobs_of, known_lines, missing
from validation.results.window import Violation, check_window, host_slot


def check_alternatives_file(instance: Instance, results: ResultFile, constraint: str) -> Report:
    """Replay the alternatives of ``results`` in order; return the report."""
    rep = Report(jobs=len(instance.jobs))
    jobs = jobs_of(instance)
    batch = {j.id: k for k, j in enumerate(instance.jobs)}
    current = list(instance.slots)
    busy: dict[str, list[tuple[int, int, str, int]]] = defaultdict(list)
    count: dict[str, int] = defaultdict(int)
    none_line: dict[str, int] = {}
    rounds: list[set[str]] = [set()]
    last = -1
    for ln, job in known_lines(rep, results.lines, jobs):
        if ln.window is None:
            if ln.job in none_line:
                rep.violations.append(Violation("job", "a second not_found line", "one",
                                                "", ln.job, ln.number))  # fmt: skip
            none_line[ln.job] = ln.number
            continue
        count[ln.job] += 1
        k = count[ln.job]
        if ln.alternative is not None and ln.alternative != k:
            rep.violations.append(Violation("job", ln.alternative, k, "alternative number "
                                            "(from 1 per job, in the order found)", ln.job,
                                            ln.number, alternative=k))  # fmt: skip
        idx = batch[ln.job]
        if idx <= last:
            rounds.append(set())
        last = idx
        if len(rounds) > 1 and ln.job not in rounds[-2]:
            rep.violations.append(Violation(
                "order", f"round {len(rounds)}", f"no alternative after round {len(rounds) - 1}",
                "a job that finds none in a round is not searched again", ln.job, ln.number,
                alternative=k))  # fmt: skip
        rounds[-1].add(ln.job)
        rep.windows += 1
        got = check_window(instance, job, ln.window, slots=current, constraint=constraint,
                           line=ln.number, alternative=k)  # fmt: skip
        rep.violations.extend(got.violations)
        rep.metrics[ln.number] = got.metrics
        for i, p in enumerate(ln.window.placements):
            for a, b, other, kk in busy[p.node]:
                if p.start < b and a < p.end:
                    rep.violations.append(Violation(
                        "overlap", (p.start, p.end), f"time not taken by alternative {kk} of "
                        f"'{other}' [{a}, {b})", "", ln.job, ln.number, i, p.node, k))  # fmt: skip
            host = host_slot(current, p.node, p.start, p.end)
            if host is not None:
                current.remove(host)
                current.extend(_subtract(host, p.start, p.end))
            busy[p.node].append((p.start, p.end, ln.job, k))
    for job_id, number in none_line.items():
        if count[job_id]:
            rep.violations.append(Violation("status", "not_found", "no such line",
                                            f"the job has {plural(count[job_id], 'alternative')}",
                                            job_id,
                                            number))  # fmt: skip
    missing(rep, instance, {**dict.fromkeys(count), **none_line})
    return rep


def _subtract(slot: Slot, start: int, end: int) -> list[Slot]:
    left = []
    if start > slot.start:
        left.append(Slot(slot.node, slot.start, start, slot.price))
    if slot.end > end:
        left.append(Slot(slot.node, end, slot.end, slot.price))
    return left


