"""Figures of a replay: Gantt chart, queue length and utilisation, wait and slowdown.

- :func:`plot_replay`: one replay, four panels: the Gantt chart of a time
  window (CPU × time, one colour per job), the queue length and the
  utilisation over time, and the distributions of wait and bounded slowdown;
- :func:`plot_policies`: the wait and bounded-slowdown distributions of
  several replays of one workload, one line per policy.

matplotlib is imported lazily: it is the optional extra ``planner[plot]``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from planner.cluster.records import Replay
from planner.plot import figure_class, plot_suffix

GANTT_JOBS = 80
"""Default Gantt window: from the first start to the end of the first 80 jobs started."""


def timeline(replay: Replay) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (instants, waiting jobs, busy CPUs), each value holding from its instant on."""
    recs = replay.records
    if not recs:
        empty = np.zeros(0, dtype=int)
        return empty, empty, empty
    times = np.array([r.submit for r in recs] + [r.start for r in recs] + [r.finish for r in recs])
    dq = np.array([1] * len(recs) + [-1] * len(recs) + [0] * len(recs))
    cpus = np.array([r.cpus for r in recs])
    dbusy = np.concatenate([np.zeros(len(recs), int), cpus, -cpus])
    order = np.argsort(times, kind="stable")
    t, q, b = times[order], np.cumsum(dq[order]), np.cumsum(dbusy[order])
    last = np.append(t[1:] != t[:-1], True)  # the value after every event of an instant
    return t[last], q[last], b[last]


def binned_mean(t: np.ndarray, values: np.ndarray, bins: int = 200) -> tuple[np.ndarray,
                                                                            np.ndarray]:
    """Return (edges, time-weighted mean of a step function per bin) over [t[0], t[-1]]."""
    if len(t) < 2 or t[-1] == t[0]:
        return np.array([0.0, 1.0]), np.zeros(1)
    edges = np.linspace(t[0], t[-1], bins + 1)
    area = np.concatenate([[0.0], np.cumsum(values[:-1] * np.diff(t))])
    at = np.interp(edges, t, area)  # the integral is piecewise linear between instants
    return edges, np.diff(at) / np.diff(edges)


def gantt(ax: object, replay: Replay, window: tuple[int, int] | None = None) -> None:
    """Draw the jobs running in ``window`` (default: the first GANTT_JOBS started) on ``ax``."""
    from matplotlib import colormaps

    recs = sorted(replay.records, key=lambda r: (r.start, r.id))
    if window is None:
        first = recs[:GANTT_JOBS]
        window = (first[0].start, max(r.finish for r in first)) if first else (0, 1)
    lo, hi = window
    cmap = colormaps["tab20"]
    for k, r in enumerate(recs):
        if r.finish <= lo or r.start >= hi or r.finish == r.start:
            continue
        for first, last in r.cpu_spans:
            ax.broken_barh([(r.start, r.duration)], (first, last - first + 1),  # type: ignore[attr-defined]
                           facecolors=cmap(k % 20), edgecolors="black", linewidth=0.3)  # fmt: skip
    ax.set_xlim(lo, hi)  # type: ignore[attr-defined]
    ax.set_ylim(0, replay.workload.total_cpus)  # type: ignore[attr-defined]
    ax.set_xlabel("time (s)")  # type: ignore[attr-defined]
    ax.set_ylabel("CPU")  # type: ignore[attr-defined]
    ax.set_title(f"Gantt chart, {replay.policy}")  # type: ignore[attr-defined]


def _ecdf(ax: object, values: Sequence[float], label: str) -> None:
    v = np.sort(np.asarray(values, dtype=float))
    if len(v):
        ax.step(v, np.arange(1, len(v) + 1) / len(v), where="post", label=label)  # type: ignore[attr-defined]


def _figure(rows: int, cols: int) -> object:
    return figure_class()(figsize=(6 * cols, 3.6 * rows), layout="constrained")


def plot_replay(replay: Replay, path: str | os.PathLike[str],
                window: tuple[int, int] | None = None) -> None:  # fmt: skip
    """Write the four-panel figure of one replay to ``path`` (.png or .svg)."""
    suffix = plot_suffix(path)
    fig = _figure(2, 2)
    (g, q), (u, d) = fig.subplots(2, 2)  # type: ignore[attr-defined]
    gantt(g, replay, window)
    t, waiting, busy = timeline(replay)
    q.step(t, waiting, where="post")
    q.set(xlabel="time (s)", ylabel="waiting jobs", title="queue length")
    edges, mean = binned_mean(t, busy / replay.workload.total_cpus)
    u.stairs(mean, edges)
    u.set(xlabel="time (s)", ylabel="busy CPUs / CPUs", ylim=(0, 1.05),
          title=f"utilisation (mean over {len(mean)} equal periods)")  # fmt: skip
    _distributions(d, {replay.policy: replay})
    fig.savefig(os.fspath(path), format=suffix[1:])  # type: ignore[attr-defined]


def _distributions(ax: object, replays: Mapping[str, Replay], metric: str = "both") -> None:
    for name, rep in replays.items():
        if metric in ("both", "wait"):
            _ecdf(ax, [max(r.wait, 1) for r in rep.records], f"{name} wait (s)")
        if metric in ("both", "bsld"):
            _ecdf(ax, [r.bounded_slowdown for r in rep.records], f"{name} bounded slowdown")
    ax.set(xscale="log", ylabel="fraction of jobs", title="distributions (waits < 1 s at 1)")  # type: ignore[attr-defined]
    if ax.get_legend_handles_labels()[0]:  # type: ignore[attr-defined]
        ax.legend(fontsize="small")  # type: ignore[attr-defined]


def plot_policies(replays: Mapping[str, Replay], path: str | os.PathLike[str]) -> None:
    """Write wait and bounded-slowdown distributions of several policies side by side."""
    suffix = plot_suffix(path)
    fig = _figure(1, 2)
    w, b = fig.subplots(1, 2)  # type: ignore[attr-defined]
    _distributions(w, replays, "wait")
    w.set(xlabel="wait (s, waits < 1 s at 1)", title="wait")
    _distributions(b, replays, "bsld")
    b.set(xlabel="bounded slowdown", title="bounded slowdown")
    fig.savefig(os.fspath(path), format=suffix[1:])  # type: ignore[attr-defined]
