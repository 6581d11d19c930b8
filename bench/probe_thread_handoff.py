"""Probe: does handing the interpreter lock to a waking thread make a chunk's validation cost more CPU?

    .venv/bin/python bench/probe_thread_handoff.py [--games 300] [--rounds 7] [--wake-ms 10]

Issue 26 item 5, round eleven (R305): a Dask worker's task thread executes the same instructions as a pool's
worker for the same games, but waits about 0.3 times a game (it hands the interpreter lock to its worker's
event loop, woken by the profiler, the health check and the monitors) where the pool's worker never does.
This probe runs the same games, in one process, three ways, interleaved round by round:

* ``main``: in the main thread, alone (a pool's worker);
* ``thread``: in a second thread while the main thread sleeps (a task thread with a silent event loop);
* ``woken``: in a second thread while the main thread wakes every ``--wake-ms`` and runs a little Python
  (about 0.1 ms: an event loop's periodic callback), taking the lock each time;

and gives, for each, the validating thread's CPU seconds (``time.thread_time``) and its voluntary and
involuntary context switches (``/proc/self/task/TID/status``), every round and the median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def switches() -> tuple[int, int]:
    """This thread's voluntary and involuntary context switches so far."""
    status = Path(f"/proc/self/task/{threading.get_native_id()}/status").read_text()
    got = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(got["voluntary_ctxt_switches"]), int(got["nonvoluntary_ctxt_switches"])


def validate_all(job: Any, chunks: list[Any], out: dict[str, float]) -> None:
    """Validate every chunk here; put this thread's CPU seconds and switches in ``out``."""
    from grn.check.batch import work_file

    waits, preempted = switches()
    cpu = time.thread_time()
    first = 0
    for chunk in chunks:
        work_file(job, chunk, first)
        first += len(chunk)
    out["cpu"] = time.thread_time() - cpu
    now = switches()
    out["waits"], out["preempted"] = now[0] - waits, now[1] - preempted


def run(mode: str, job: Any, chunks: list[Any], wake: float) -> dict[str, float]:
    """One round of ``mode`` (main, thread, woken)."""
    out: dict[str, float] = {}
    if mode == "main":
        validate_all(job, chunks, out)
        return out
    worker = threading.Thread(target=validate_all, args=(job, chunks, out))
    worker.start()
    wakes = 0
    if mode == "woken":
        while worker.is_alive():
            time.sleep(wake)
            sum(range(2000))  # about 0.1 ms of Python with the lock held, as an event loop's callback
            wakes += 1
    worker.join()
    out["wakes"] = wakes
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--wake-ms", type=float, default=10.0)
    opts = ap.parse_args()
    import grn.check._warm  # noqa: F401 - warmed up as a Dask worker is
    from bench_archive import make_games
    from grn.check.batch import Job
    from probe_dask_instructions import the_chunks

    tmp = Path(tempfile.mkdtemp(prefix="grn-handoff-"))
    path = tmp / "games.grn"
    n = make_games(path, opts.games, 1)
    chunks = the_chunks(str(path))
    job = Job(str(path), None, False, False, None, None, True)
    run("main", job, chunks, 0)  # warm
    got: dict[str, list[dict[str, float]]] = {"main": [], "thread": [], "woken": []}
    load = os.getloadavg()[0]
    for _ in range(opts.rounds):
        for mode in got:
            got[mode].append(run(mode, job, chunks, opts.wake_ms / 1000))
    print(f"{n} games a round, {opts.rounds} rounds interleaved, wake every {opts.wake_ms} ms; load average "
          f"{load:.1f} -> {os.getloadavg()[0]:.1f}")
    base = statistics.median(r["cpu"] for r in got["main"])
    for mode, rounds in got.items():
        cpu = [r["cpu"] for r in rounds]
        print(f"{mode}: CPU s " + ", ".join(f"{c:.3f}" for c in cpu)
              + f"; median {statistics.median(cpu):.3f} ({100 * (statistics.median(cpu) / base - 1):+.1f}% over main)"
              f"; waits a 1,000 games {1000 * statistics.median(r['waits'] for r in rounds) / n:.0f}, preemptions "
              f"{1000 * statistics.median(r['preempted'] for r in rounds) / n:.0f}"
              + (f", wakes {statistics.median(r['wakes'] for r in rounds):.0f}" if mode == "woken" else ""))


if __name__ == "__main__":
    main()
