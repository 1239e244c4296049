"""Shared pieces of the paper reproductions: reference data, the comparison table, orderings."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent.parent / "data"


def reference(name: str) -> dict[str, Any]:
    """Return the paper's numbers for reproduction ``name`` (``validation/data/NAME.json``)."""
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


CITATIONS = {
    "000": "Toporkov et al. 2011",
    "001": "Klusáček & Rudová 2008",
    "002": "Toporkov et al. 2012",
    "003": "Toporkov et al. 2015",
    "004": "Toporkov & Yemelyanov 2018",
}
"""The paper of each stored source file (``docs/references.md``)."""


def citation(ref: dict[str, Any]) -> str:
    """Return "Author et al. YEAR §N" for a reproduction's reference data."""
    return f"{CITATIONS[ref['seed_file'][:3]]} {ref['section']}"


def paper(ref: dict[str, Any], *keys: str) -> float | None:
    """Return the paper's number at ``ref["paper"][k1][k2]...`` (None when the paper gives none).

    Each stored number is ``{"value", "seed_file", "section", "quote"}``: the
    sentence or table row of the paper it is read from.
    """
    node: Any = ref["paper"]
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            return None
        node = node[k]
    return float(node["value"]) if isinstance(node, dict) else None


def mean(values: Sequence[float]) -> float | None:
    """Return the mean, or None for no values."""
    return statistics.fmean(values) if values else None


def standard_error(values: Sequence[float]) -> float | None:
    """Return the standard error of the mean (None with fewer than two values)."""
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None


SAMPLING_HEAD = ["quantity", "paper", "ours (mean)", "standard error", "(ours - paper) / SE",
                 "sampling"]  # fmt: skip


def sampling_rows(items: Iterable[tuple[str, float | None, Sequence[float]]]) -> list[list[Any]]:
    """Return the rows of a sampling table: each mean, its standard error and the paper's distance.

    A difference within two standard errors of our mean is one that our
    sample size alone can produce (the papers average thousands of runs, so
    their own sampling error is far smaller); one beyond needs another cause.
    """
    rows: list[list[Any]] = []
    for label, pap, values in items:
        m, se = mean(values), standard_error(values)
        if pap is None or m is None or se is None:
            z, verdict = None, "-"
        elif se == 0:  # every run gave the same value: no sampling spread to appeal to
            z, verdict = None, "within 2 SE" if math.isclose(m, pap) else "beyond 2 SE"
        else:
            z = (m - pap) / se
            verdict = "within 2 SE" if abs(z) <= 2 else "beyond 2 SE"
        rows.append([label, pap, m, se, z, verdict])
    return rows


@dataclass
class Comparison:
    """Paper vs ours: rows of (group, quantity, algorithm, paper, ours, exact)."""

    name: str
    title: str
    source: str
    runs: int
    kept: int
    rows: list[tuple[str, str, str, float | None, float | None, float | None]] = field(
        default_factory=list
    )
    orderings: list[tuple[str, bool | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sensitivity: list[tuple[str, list[str], list[list[str]]]] = field(default_factory=list)
    settings: list[tuple[str, str]] = field(default_factory=list)
    sampling: list[list[Any]] = field(default_factory=list)

    def add(self, group: str, quantity: str, algorithm: str, paper: float | None,
            ours: float | None, exact: float | None = None) -> None:  # fmt: skip
        """Append one row."""
        self.rows.append((group, quantity, algorithm, paper, ours, exact))

    def check(self, text: str, holds: Callable[[], bool]) -> None:
        """Record whether the paper's ordering ``text`` holds in our numbers (None: undefined)."""
        try:
            ok: bool | None = bool(holds())
        except (TypeError, KeyError):
            ok = None
        self.orderings.append((text, ok))

    def setting(self, name: str, reading: str) -> None:
        """Record an open setting of the paper and the reading this run uses."""
        self.settings.append((name, reading))

    def table(self, title: str, head: list[str], rows: list[list[Any]]) -> None:
        """Append a sensitivity table: the claim's numbers under each plausible reading."""
        cells = [[c if isinstance(c, str) else _num(c) for c in r] for r in rows]
        self.sensitivity.append((title, head, cells))
        if head == SAMPLING_HEAD:
            self.sampling += [list(r) for r in rows]

    def differences(self, top: int = 3) -> list[str]:
        """Return the largest paper-vs-ours differences: in standard errors where the
        reproduction measures its sampling spread (``sampling_rows``), else relative to the
        larger of the two (the papers' (larger − smaller) / larger convention)."""
        z = [r for r in self.sampling if r[4] is not None]
        if z:
            z.sort(key=lambda r: (-abs(r[4]), r[0]))
            return [f"{r[0]}: paper {_num(r[1])}, ours {_num(r[2])} ± {_num(r[3])} (standard "
                    f"error), {r[4]:+.1f} SE" for r in z[:top]]  # fmt: skip
        rel = [(abs(o - p) / max(abs(o), abs(p)), g, q, a, p, o)
               for g, q, a, p, o, _ in self.rows
               if p is not None and o is not None and max(abs(o), abs(p)) > 0]  # fmt: skip
        rel.sort(key=lambda r: (-r[0], r[1], r[2], r[3]))
        return [f"{' '.join(x for x in (g, q, a) if x)}: paper {_num(p)}, ours {_num(o)} "
                f"({d:.0%} of the larger; no standard error measured)"
                for d, g, q, a, p, o in rel[:top]]  # fmt: skip

    def findings(self) -> list[str]:
        """Return the Findings lines: claims held / total and the largest differences."""
        verdicts = [ok for _, ok in self.orderings]
        undefined = verdicts.count(None)
        extra = f", {undefined} undefined" if undefined else ""
        lines = [f"claims held: {verdicts.count(True)} of {len(verdicts)} "
                 f"({verdicts.count(False)} differ{extra})"]
        return lines + [f"largest difference: {d}" for d in self.differences()]

    def render(self) -> str:
        """Return the comparison as text: header, table, orderings, settings, sensitivity, notes."""
        head = ["group", "quantity", "algorithm", "paper", "ours", "exact optimum"]
        cells = [head] + [[g, q, a, _num(p), _num(o), _num(e)] for g, q, a, p, o, e in self.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(head))]
        lines = [
            f"{self.name}: {self.title}",
            f"paper: {self.source}; ours: {self.kept} of {self.runs} generated runs kept",
            "",
            "findings:",
            *bullets(self.findings()),
            "",
        ]
        for k, r in enumerate(cells):
            pairs = enumerate(zip(r, widths, strict=True))
            lines.append("  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in pairs))
            if k == 0:
                lines.append("  ".join("-" * w for w in widths))
        lines += ["", "paper's orderings in our numbers:"]
        for text, ok in self.orderings:
            lines.append(f"  [{'holds' if ok else 'n/a' if ok is None else 'differs'}] {text}")
        if self.settings:
            lines += ["", "open settings (the reading used):"]
            lines += [f"  - {k}: {v}" for k, v in self.settings]
        for title, head, rows in self.sensitivity:
            lines += ["", f"sensitivity: {title}", *_grid(head, rows)]
        if self.notes:
            lines += ["", "notes:"] + [f"  - {n}" for n in self.notes]
        return "\n".join(lines)


def bullets(lines: Iterable[str], width: int = 100) -> list[str]:
    """Return ``lines`` as ``  - `` bullets wrapped to ``width`` columns."""
    import textwrap

    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(line, width, initial_indent="  - ", subsequent_indent="    ")
    return out


def _num(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.2f}"


def _grid(head: list[str], rows: list[list[str]]) -> list[str]:
    cells = [head, *rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(head))]
    out = []
    for k, r in enumerate(cells):
        out.append("  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                    for i, (c, w) in enumerate(zip(r, widths, strict=True))))
        if k == 0:
            out.append("  " + "  ".join("-" * w for w in widths))
    return out
