"""A minimal, independent replay of an SWF log: the yardstick of ``bench_cluster.py --end-to-end``.

Usage::

    python benchmarks/yardstick.py TRACE.swf[.gz] --policy {fcfs,easy,conservative} [-o starts.csv]

A single-purpose script, written as one would write it to replay one log
quickly, importing nothing of this project: it reads the log (one machine of
the header's ``MaxProcs``, else ``MaxNodes``, CPUs), replays it under FCFS,
EASY backfilling or conservative backfilling (Mu'alem & Feitelson 2001) and
prints the job count, the event instants and the mean wait. ``-o`` writes
``job_id,start`` per job (for comparing schedules; not timed by the benchmark).

The job model is that of ``docs/job-flows.md`` and ``docs/workloads.md``:
id = field 1, submit = field 2, run time = field 4, CPUs = field 5 (else
field 8), estimate = field 9 when > 0 (else the run time), times rounded up
to whole seconds; records with an unknown submit, run time or CPU count,
wider than the machine, or repeating a job number are left out. A job plans
with its estimate and is killed at it. At an instant, completions come first,
then submissions, then one scheduling pass.
"""

from __future__ import annotations

import argparse
import gzip
import heapq
import math
import sys
from bisect import bisect_right, insort


def read_swf(path: str) -> tuple[int, list[tuple[str, int, int, int, int]]]:
    """Return (CPUs of the machine, jobs as (id, submit, cpus, estimate, run) in queue order)."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    header: dict[bytes, bytes] = {}
    rows = []
    for line in data.splitlines():
        if line.startswith(b";"):
            key, _, value = line[1:].partition(b":")
            header.setdefault(key.strip(), value.strip())
            continue
        f = line.split()
        if f:
            rows.append(f)
    procs = int(header.get(b"MaxProcs", b"-1").split()[0] or -1)
    if procs <= 0:
        procs = int(header.get(b"MaxNodes", b"-1").split()[0] or -1)
    jobs = []
    seen = set()
    for f in rows:
        submit, run = float(f[1]), float(f[3])
        cpus = float(f[4])
        if cpus <= 0:
            cpus = float(f[7])
        if submit < 0 or run < 0 or cpus <= 0 or cpus > procs or f[0] in seen:
            continue
        seen.add(f[0])
        run = math.ceil(run)
        estimate = float(f[8])
        estimate = math.ceil(estimate) if estimate > 0 else run
        jobs.append((str(int(f[0])), math.ceil(submit), int(cpus), estimate, min(run, estimate)))
    jobs.sort(key=lambda j: j[1])
    return procs, jobs


def fcfs(capacity: int, jobs: list[tuple[str, int, int, int, int]]) -> tuple[list[int], int]:
    """First come, first served; return (start per job, event instants)."""
    n = len(jobs)
    start = [-1] * n
    ends: list[tuple[int, int]] = []
    free = capacity
    queue: list[int] = []
    head = nxt = instants = 0
    while nxt < n or ends:
        now = ends[0][0] if ends else jobs[nxt][1]
        if nxt < n and jobs[nxt][1] < now:
            now = jobs[nxt][1]
        instants += 1
        while ends and ends[0][0] == now:
            free += jobs[heapq.heappop(ends)[1]][2]
        while nxt < n and jobs[nxt][1] == now:
            queue.append(nxt)
            nxt += 1
        while head < len(queue) and jobs[queue[head]][2] <= free:
            j = queue[head]
            head += 1
            start[j] = now
            if jobs[j][4]:
                free -= jobs[j][2]
                heapq.heappush(ends, (now + jobs[j][4], j))
    return start, instants


def easy(capacity: int, jobs: list[tuple[str, int, int, int, int]]) -> tuple[list[int], int]:
    """EASY backfilling; return (start per job, event instants)."""
    n = len(jobs)
    start = [-1] * n
    ends: list[tuple[int, int]] = []
    running: list[tuple[int, int]] = []  # (planned end, job), sorted
    free = capacity
    queue: list[int] = []
    nxt = instants = 0
    while nxt < n or ends:
        now = ends[0][0] if ends else jobs[nxt][1]
        if nxt < n and jobs[nxt][1] < now:
            now = jobs[nxt][1]
        instants += 1
        while ends and ends[0][0] == now:
            _, j = heapq.heappop(ends)
            free += jobs[j][2]
            running.remove((start[j] + jobs[j][3], j))
        while nxt < n and jobs[nxt][1] == now:
            queue.append(nxt)
            nxt += 1
        h = 0
        while h < len(queue) and jobs[queue[h]][2] <= free:
            j = queue[h]
            h += 1
            start[j] = now
            if jobs[j][4]:
                free -= jobs[j][2]
                heapq.heappush(ends, (now + jobs[j][4], j))
                insort(running, (now + jobs[j][3], j))
        del queue[:h]
        if len(queue) < 2 or not free:
            continue
        # the head's shadow time: when enough running jobs have ended (planned)
        need, avail, shadow = jobs[queue[0]][2], free, -1
        for end, j in running:
            if shadow >= 0 and end > shadow:
                break
            avail += jobs[j][2]
            if shadow < 0 and avail >= need:
                shadow = end
        extra = avail - need
        rest = [queue[0]]
        for k in range(1, len(queue)):
            if not free:
                rest.extend(queue[k:])
                break
            j = queue[k]
            _, _, cpus, estimate, run = jobs[j]
            if cpus > free or (now + estimate > shadow and cpus > extra):
                rest.append(j)
                continue
            if now + estimate > shadow:
                extra -= cpus
            start[j] = now
            if run:
                free -= cpus
                heapq.heappush(ends, (now + run, j))
                insort(running, (now + estimate, j))
        queue[:] = rest
    return start, instants


def earliest(times: list[int], free: list[int], need: int, length: int, now: int) -> int:
    """Return the first t >= now with ``need`` CPUs free on [t, t + length) in a profile."""
    k = bisect_right(times, now) - 1
    t = now
    while True:
        while free[k] < need:
            k += 1
            t = times[k]
        j = k + 1
        while j < len(times) and times[j] < t + length and free[j] >= need:
            j += 1
        if j == len(times) or times[j] >= t + length:
            return t
        k = j


def change(times: list[int], free: list[int], a: int, b: int, delta: int) -> None:
    """Add ``delta`` free CPUs on [a, b) (``free[k]`` holds on [times[k], times[k + 1]))."""
    for t in (a, b):
        k = bisect_right(times, t) - 1
        if times[k] != t:
            times.insert(k + 1, t)
            free.insert(k + 1, free[k])
    ka = bisect_right(times, a) - 1
    kb = bisect_right(times, b) - 1
    for k in range(ka, kb):
        free[k] += delta
    if kb < len(free) and free[kb] == free[kb - 1]:
        del times[kb], free[kb]
    if ka > 0 and free[ka] == free[ka - 1]:
        del times[ka], free[ka]


def conservative(capacity: int, jobs: list[tuple[str, int, int, int, int]]
                 ) -> tuple[list[int], int]:  # fmt: skip
    """Conservative backfilling with compression after early completions; (starts, instants)."""
    n = len(jobs)
    start = [-1] * n
    ends: list[tuple[int, int]] = []
    times, free = [0], [capacity]  # free CPUs as a step function of time
    waiting: dict[int, int] = {}  # job -> reserved start, in queue order
    due: list[tuple[int, int]] = []  # heap of (reserved start, job); stale entries skipped
    held: dict[int, int] = {}  # running job -> end of its planned hold
    nxt = instants = now = 0
    dirty = False

    def reserve(j: int) -> int:
        hold = max(jobs[j][3], 1)
        t = earliest(times, free, jobs[j][2], hold, now)
        change(times, free, t, t + hold, -jobs[j][2])
        return t

    def compress() -> None:
        k = bisect_right(times, now) - 1
        del times[:k], free[:k]
        for j, t in waiting.items():
            change(times, free, t, t + max(jobs[j][3], 1), jobs[j][2])
            moved = reserve(j)
            if moved != t:
                waiting[j] = moved
                heapq.heappush(due, (moved, j))

    def release(j: int) -> bool:
        end = held.pop(j)
        if now < end:
            change(times, free, now, end, jobs[j][2])
        return now < end

    while nxt < n or ends or waiting:
        while due and waiting.get(due[0][1]) != due[0][0]:
            heapq.heappop(due)
        now = min(ends[0][0] if ends else math.inf, jobs[nxt][1] if nxt < n else math.inf,
                  due[0][0] if due else math.inf)  # fmt: skip
        instants += 1
        while ends and ends[0][0] == now:
            dirty |= release(heapq.heappop(ends)[1])
        while nxt < n and jobs[nxt][1] == now:
            if dirty:
                compress()
                dirty = False
            waiting[nxt] = t = reserve(nxt)
            heapq.heappush(due, (t, nxt))
            nxt += 1
        while True:
            if dirty:
                compress()
                dirty = False
            starting = set()
            while due and due[0][0] <= now:
                t, j = heapq.heappop(due)
                if waiting.get(j) == t:
                    starting.add(j)
            for j in sorted(starting):
                del waiting[j]
                start[j] = now
                held[j] = now + max(jobs[j][3], 1)
                if jobs[j][4]:
                    heapq.heappush(ends, (now + jobs[j][4], j))
                else:
                    dirty |= release(j)
            if not dirty:
                break
    return start, instants


POLICIES = {"fcfs": fcfs, "easy": easy, "conservative": conservative}


def main() -> None:
    """Read, replay, print the counts (and write the starts with ``-o``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--policy", choices=POLICIES, required=True)
    ap.add_argument("-o", "--output", help="write job_id,start per job")
    args = ap.parse_args()
    capacity, jobs = read_swf(args.trace)
    start, instants = POLICIES[args.policy](capacity, jobs)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("job_id,start\n")
            fh.writelines(f"{j[0]},{s}\n" for j, s in zip(jobs, start, strict=True))
    wait = sum(s - j[1] for j, s in zip(jobs, start, strict=True)) / max(len(jobs), 1)
    sys.stdout.write(f"jobs {len(jobs)} instants {instants} mean_wait {wait:.1f}\n")


if __name__ == "__main__":
    main()
