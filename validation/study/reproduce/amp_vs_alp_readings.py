"""The ``amp-vs-alp`` sensitivity tables on number types, t, combination limits, averaging.

Toporkov et al. 2011 §3 prints the simulator's ``Slot`` and ``Window``
classes with ``int cash`` (a slot's usage cost per time unit, a window's
total cost); §5 gives the slot price as a draw from [0.75p, 1.25p] and the
performances as ranges, without saying whether they are whole numbers. The
tables re-measure the claims (same cycles, C = 1.7^P) under those readings,
under the readings of the request's time span t in AMP's S = C·t·N, under
the readings of the combination limits b*, t*
(:mod:`validation.study.reproduce.limits`), and with the per-job figures
averaged over all jobs (the paper's "258079 or an average of 7.39 for a
job") rather than per cycle.
"""

from __future__ import annotations

from typing import Any

from validation.study.reproduce.amp_vs_alp_measure import DEFAULT_READING, SPANS, measure
from validation.study.reproduce.common import Comparison, paper

VALUES: dict[str, tuple[str, dict[str, str]]] = {
    "real prices (2 decimals), C real (used)": ("task", {}),
    "int cash: prices to the nearest integer, C real (= C rounded down for ALP)": (
        "task", {"price_values": "integer"}),
    "int cash, C rounded down (S = floor(C) t N)": (
        "task", {"price_values": "integer", "cap_values": "truncated"}),
    "int cash, C to the nearest integer": (
        "task", {"price_values": "integer", "cap_values": "integer"}),
    "int cash by Java's (int) cast (prices rounded down), C real": (
        "task", {"price_values": "truncated"}),
    "int cash, C real, window's rectangle cut": ("rectangle", {"price_values": "integer"}),
    "integer performances (nodes 1-3, P 1-2), real prices": (
        "task", {"performance_values": "integer"}),
}  # fmt: skip
"""Row label (the paper's terms) -> (cut, ``toporkov2011`` parameters)."""

HALF_OPEN = ("slots_max", "length_max", "jobs_max", "job_nodes_max", "volume_max")
"""The integer ranges of §5 whose upper end Java's ``lo + nextInt(hi - lo)`` never draws (the
gap keeps its 1–10 after the same-start coin, and the real draws are unchanged)."""
RANGES = {
    "closed, as printed: jobs 3-7, nodes 1-6, slots 120-150, lengths 50-300 and 50-150 (used)":
        False,
    "half-open, as Java's lo + nextInt(hi - lo): jobs 3-6, nodes 1-5, slots 120-149, lengths "
    "50-299 and 50-149": True,
}  # fmt: skip



def half_open_params() -> dict[str, int]:
    """Return the ``toporkov2011`` upper bounds of :data:`HALF_OPEN`, one below the family's."""
    from instances import FAMILIES

    defaults = FAMILIES["toporkov2011"].defaults
    return {k: int(defaults[k]) - 1 for k in HALF_OPEN}


AVERAGES = {
    ("task", "job"): "Σ / Σ jobs over the kept cycles, per-node cut",
    ("rectangle", "job"): "Σ / Σ jobs over the kept cycles, window's rectangle cut",
}

HEAD = ["kept", "jobs/kept run", "ALP alts/job", "AMP alts/job", "AMP/ALP",
        "TM time ALP", "TM time AMP", "TM cost ALP", "TM cost AMP",
        "CM time ALP", "CM time AMP", "CM cost ALP", "CM cost AMP"]  # fmt: skip
CLAIMS = [(p, q, a) for p in ("TM", "CM") for q in ("time", "cost") for a in ("alp", "amp")]


def _cells(avg: dict[tuple[str, str, str], Any], kept: Any) -> list[Any]:
    alp, amp = avg["TM", "alp", "alternatives_per_job"], avg["TM", "amp", "alternatives_per_job"]
    ratio = None if alp is None or amp is None or not alp else amp / alp
    return [str(kept), avg["CM", "kept", "jobs_per_cycle"], alp, amp, ratio,
            *(avg[p, a, q] for p, q, a in CLAIMS)]  # fmt: skip


def _paper_row(ref: dict[str, Any]) -> list[Any]:
    alp = paper(ref, "TM", "alp", "alternatives_per_job")
    amp = paper(ref, "TM", "amp", "alternatives_per_job")
    return ["paper", "-", paper(ref, "CM", "kept", "jobs_per_cycle"), alp, amp,
            amp / alp if alp and amp else None,
            *(paper(ref, p, a, q) for p, q, a in CLAIMS)]  # fmt: skip


def _with_error(avg: dict[tuple[str, str, str], Any], kept: Any) -> list[Any]:
    keys = [("CM", "kept", "jobs_per_cycle"), ("TM", "alp", "alternatives_per_job"),
            ("TM", "amp", "alternatives_per_job"), *((p, a, q) for p, q, a in CLAIMS)]  # fmt: skip
    cells = [str(kept)]
    for p, a, q in keys:
        v, se = avg[p, a, q], avg[p, a, f"{q}_se"]
        cells.append("-" if v is None else f"{v:.2f} ± {se:.2f}" if se is not None else f"{v:.2f}")
    return cells


def add_tables(
    cmp: Comparison, ref: dict[str, Any], seed: int, runs: int, used: tuple[dict[Any, Any], int],
    main: tuple[dict[Any, Any], int],
) -> None:
    """Append the number-type, limits, averaging and sampling tables to ``cmp``.

    ``used``: the used reading on the ``runs`` cycles of the tables; ``main``:
    on the main table's larger sample.
    """
    from validation.study.reproduce.limits import LIMITS

    rows = [_paper_row(ref)]
    for label, (cut, params) in VALUES.items():
        avg, kept = used if not params else measure(seed, runs, DEFAULT_READING, cut, **params)
        rows.append([label, *_cells(avg, kept)])
    cmp.table("the claims under each reading of the slot price and cap C as numbers (int cash "
              "of Toporkov et al. 2011 §3; C = 1.7^P)", ["prices, C", *HEAD], rows)  # fmt: skip
    rows = [_paper_row(ref)]
    for span, label in SPANS.items():
        avg, kept = used if span == "min_performance" else measure(seed, runs, DEFAULT_READING,
                                                                  time_span=span)  # fmt: skip
        rows.append([label, *_cells(avg, kept)])
    cmp.table("the claims under each reading of the request's time span t in AMP's S = C t N "
              "(Toporkov et al. 2011 §3; C = 1.7^P)", ["time span t", *HEAD], rows)  # fmt: skip
    rows = [[*_paper_row(ref), "-", "-", "-"]]
    for reading, label in LIMITS.items():
        avg, kept = used if reading == "mean" else measure(seed, runs, DEFAULT_READING,
                                                            limits=reading)  # fmt: skip
        infeasible = "/".join(f"{avg[p, a, 'infeasible']:.0f}" for p in ("TM", "CM")
                              for a in ("alp", "amp"))  # fmt: skip
        rows.append([label, *_cells(avg, kept), infeasible, avg["alts", "amp", "time"],
                     avg["alts", "amp", "cost"]])  # fmt: skip
    cmp.table("the claims under each reading of the combination limits b* (TM) and t* (CM) "
              "(per-node cut, C = 1.7^P)", ["limits", *HEAD, "no solution TM ALP/AMP, CM ALP/AMP",
                                   "AMP alternative time", "AMP alternative cost"],
              rows)  # fmt: skip
    rows = [_paper_row(ref), ["per cycle, then over cycles, per-node cut (used)", *_cells(*used)]]
    for (cut, per), label in AVERAGES.items():
        rows.append([label, *_cells(*measure(seed, runs, DEFAULT_READING, cut, per=per))])
    cmp.table("the claims under each reading of 'average per job' (C = 1.7^P)",
              ["average", *HEAD], rows)  # fmt: skip
    _add_ranges(cmp, ref, seed, main)
    paper_row = _paper_row(ref)
    rows = [[*paper_row[:5], *paper_row[6:]],
            [f"first {runs} (the sensitivity tables)", *_with_error(*used)],
            [f"{cmp.runs} (the main table)", *_with_error(*main)],
            [f"{cmp.runs}, seed {seed + 1} (another sample)",
             *_with_error(*measure(seed + 1, cmp.runs, DEFAULT_READING))]]  # fmt: skip
    head = [h for h in HEAD if h != "AMP/ALP"]
    cmp.table("sampling: mean ± standard error over the kept cycles (per-node cut, C = 1.7^P)",
              ["generated runs", *head], rows)  # fmt: skip
    _record_sampling(cmp, ref, main[0])


def _record_sampling(cmp: Comparison, ref: dict[str, Any], avg: dict[Any, Any]) -> None:
    """Give the main table's standard errors to the findings (``Comparison.sampling``)."""
    keys = [("CM", "kept", "jobs_per_cycle"), ("TM", "alp", "alternatives_per_job"),
            ("TM", "amp", "alternatives_per_job"), *((p, a, q) for p, q, a in CLAIMS)]  # fmt: skip
    for p, a, q in keys:
        pap, v, se = paper(ref, p, a, q), avg[p, a, q], avg[p, a, f"{q}_se"]
        if pap is not None and v is not None and se:
            z = (v - pap) / se
            cmp.sampling.append([f"{p} {q} {a}", pap, v, se, z,
                                 "within 2 SE" if abs(z) <= 2 else "beyond 2 SE"])  # fmt: skip


def _add_ranges(cmp: Comparison, ref: dict[str, Any], seed: int,
                main: tuple[dict[Any, Any], int]) -> None:  # fmt: skip
    """Append the table of the integer ranges read closed or half-open, on the main sample."""
    half = half_open_params()
    paper_row = _paper_row(ref)
    rows = [[*paper_row[:3], paper(ref, "CM", "kept", "slots_per_cycle"), *paper_row[3:]]]
    for label, open_ in RANGES.items():
        avg, kept = measure(seed, cmp.runs, DEFAULT_READING, **half) if open_ else main
        cells = _cells(avg, kept)
        rows.append([label, *cells[:2], avg["CM", "kept", "slots_per_cycle"], *cells[2:]])
    cmp.table(f"the claims with the integer ranges of §5 read closed or half-open ({cmp.runs} "
              "runs, the main table's; C = 1.7^P)",
              ["integer ranges", *HEAD[:2], "slots/kept run", *HEAD[2:]], rows)  # fmt: skip
