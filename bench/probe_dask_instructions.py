"""Probe: instructions a Dask worker's task thread executes for validate's chunks, against a pool worker's.

    .venv/bin/python bench/probe_dask_instructions.py [--games 300] [--copies 7] [--out DIR]

Issue 26 item 5, round eleven: at 30,000 games the cluster's task threads spent +17% to +26% more CPU than the
process pool's workers on the same games (round ten), and CPU seconds on this machine move by 15-30% between
identical runs.  Instruction counts do not: this probe runs the same chunks (the ones ``grn validate
--dask-scheduler`` sends a two-worker cluster: ``Sizes.dask``, spans the worker reads from the file) through

* ``pool``: grn's :class:`~grn.check.workers.ProcessPool` with one worker, forked from a single-threaded process
  that has imported ``grn validate``'s modules, as ``grn validate --jobs 2`` forks its workers (``gc.freeze``
  and all), and
* ``dask``: one ``dask worker --nthreads 1 --no-nanny`` (the nanny's environment set by hand:
  ``MALLOC_TRIM_THRESHOLD_``) of a scheduler started here, sent the chunks through
  :class:`~grn.check.workers.DaskClient` (``packed``, as grn's client sends them), warmed up as grn warms it up,

each worker under valgrind's callgrind with ``--separate-threads=yes``.  Every chunk is wrapped in
:func:`marked`, which calls ``os.getppid()`` first: callgrind is told to dump its counts before that C function
(``--dump-before=os_getppid``), so each dump holds one chunk's instructions (and whatever else the thread did
between two chunks), thread by thread.  The table gives, chunk by chunk, the instructions a game of the pool's
worker process and of the Dask worker's task thread and event loop, and how they move over the run.

callgrind is ~50 times slower: 2,100 games take some minutes a side; the two sides run at once.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
PORT = 8797


def marked(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, after a call of ``os.getppid`` that callgrind dumps its counts before (one dump a chunk)."""
    os.getppid()
    return fn(*args)


def noop() -> None:
    """The last unit: its mark closes the last chunk's counts."""


def the_chunks(path: str) -> list[Any]:
    """The chunks ``grn validate --dask-scheduler`` sends a cluster of two single-threaded workers."""
    from grn.check.batch import DASK_FILE_CHUNK_GAMES, FileRef, Sizes, _chunks

    return list(_chunks(path, 2, FileRef.of(os.path.abspath(path)), Sizes.dask(DASK_FILE_CHUNK_GAMES)))


def drive(side: str, path: str, sizes_out: str, address: str = "") -> None:
    """Send every chunk of ``path`` to one worker (``side``: a forked pool worker, or a Dask worker at
    ``address``), as validate's text report does (slim results), a few at a time; write the chunks' sizes."""
    import grn.cli.validate  # noqa: F401 - what the console script has imported when it forks its pool
    from grn.check.batch import IN_FLIGHT, PRELOAD, Job, _warm_up, work_file
    from grn.check.workers import DaskClient, ProcessPool

    from probe_dask_instructions import marked, noop  # by name, not by value: the worker imports this module

    chunks = the_chunks(path)
    Path(sizes_out).write_text(json.dumps([len(c) for c in chunks]))
    job = Job(path, None, False, False, None, None, True)
    runner: Any
    if side == "pool":
        runner = ProcessPool(1, PRELOAD)
        assert runner.forks, "the probe's pool side must fork, as the console script does"
    else:
        from distributed import Client

        with Client(address, set_as_default=False) as c:
            c.wait_for_workers(1, timeout=900)
        runner = DaskClient(address, _warm_up)
    pending: list[Any] = []
    first = 0
    games = 0
    for chunk in chunks:
        pending.append(runner.submit(marked, work_file, job, chunk, first))
        first += len(chunk)
        while len(pending) >= IN_FLIGHT:
            got = runner.result(pending.pop(0))
            games += len(got)
    while pending:
        games += len(runner.result(pending.pop(0)))
    runner.result(runner.submit(marked, noop))
    runner.close()
    print(f"{side}: {len(chunks)} chunks, {games} games", file=sys.stderr)


def counts(prefix: Path, event: int = 0) -> dict[tuple[int, int, int], int]:
    """Instructions (or the ``event``-th event of callgrind's summary: with --cache-sim, 7 and 8 are the last-level
    cache's data read and write misses) by (process id, dump number, thread number) in the files ``prefix.*``."""
    out: dict[tuple[int, int, int], int] = {}
    for f in prefix.parent.glob(prefix.name + ".*"):
        m = re.fullmatch(re.escape(prefix.name) + r"\.(\d+)(?:\.(\d+))?(?:-(\d+))?", f.name)
        if not m:
            continue
        pid, part, thread = int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 1)
        text = f.read_text(errors="replace")
        total = re.search(r"^(?:summary|totals): ([\d ]+)", text, re.M)
        if total:
            out[(pid, part, thread)] = int(total.group(1).split()[event])
    return out


def callgrind(prefix: Path, argv: list[str], env: dict[str, str] | None = None, cache: bool = False
              ) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["nice", "valgrind", "--tool=callgrind", "--separate-threads=yes",
                             *(["--cache-sim=yes"] if cache else []),
                             "--dump-before=os_getppid", f"--callgrind-out-file={prefix}.%p", *argv],
                            env=env or ENV, stdout=subprocess.DEVNULL, stderr=open(f"{prefix}.log", "wb"))


def per_chunk(found: dict[tuple[int, int, int], int], pid: int, thread: int, chunks: int) -> list[int]:
    """A thread's instructions chunk by chunk: dump k + 1 (callgrind numbers dumps from 1) closes chunk k, which
    began at dump k (the dump before chunk 1 holds the start-up)."""
    return [found.get((pid, k + 2, thread), 0) for k in range(chunks)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--copies", type=int, default=7)
    ap.add_argument("--cache-sim", action="store_true", help="also simulate the caches (callgrind's --cache-sim): "
                    "the last level's data misses a game, both sides")
    ap.add_argument("--report", type=Path, metavar="DIR", help="only the table of the probe's files in DIR "
                    "(a run still going gives the chunks so far)")
    ap.add_argument("--port", type=int, default=PORT, help="the probe's scheduler's port")
    ap.add_argument("--out", type=Path, help="keep callgrind's files here (default: a temporary folder)")
    ap.add_argument("--side", choices=["pool", "dask"], help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    ap.add_argument("--sizes", help=argparse.SUPPRESS)
    ap.add_argument("--address", default="", help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.side:  # a driver, run by main() below
        drive(opts.side, opts.file, opts.sizes, opts.address)
        return
    if opts.report:
        report(opts.report, opts.cache_sim)
        return
    from bench_archive import make_games

    out = opts.out or Path(tempfile.mkdtemp(prefix="grn-probe-"))
    out.mkdir(parents=True, exist_ok=True)
    games_file = out / "games.grn"
    n = make_games(games_file, opts.games, opts.copies)
    me = [sys.executable, str(Path(__file__).resolve())]
    load = os.getloadavg()[0]
    t = time.time()
    # the pool side: the driver and its forked worker under callgrind (valgrind follows a fork)
    pool = callgrind(out / "pool", [*me, "--side", "pool", "--file", str(games_file), "--sizes", str(out / "pool.json")],
                     cache=opts.cache_sim)
    # the Dask side: a scheduler here, one worker under callgrind, the driver as a plain client
    address = f"tcp://127.0.0.1:{opts.port}"
    # (the scheduler unpickles the tasks: it imports this module too)
    bench_path = dict(ENV, PYTHONPATH=str(ROOT / "bench"))
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(opts.port), "--no-dashboard"], env=bench_path,
                                 stdout=subprocess.DEVNULL, stderr=open(out / "scheduler.log", "wb"))
    # the nanny's environment for its worker (distributed.nanny.pre-spawn-environ), and the probe importable
    worker_env = dict(ENV, MALLOC_TRIM_THRESHOLD_="65536", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
                      OPENBLAS_NUM_THREADS="1", PYTHONPATH=str(ROOT / "bench"))
    worker = callgrind(out / "dask", [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                      "--no-nanny", "--no-dashboard", "--death-timeout", "900"], worker_env,
                      cache=opts.cache_sim)
    try:
        subprocess.run([*me, "--side", "dask", "--file", str(games_file), "--sizes", str(out / "dask.json"),
                        "--address", address], env=bench_path, check=True)
        pool.wait()
    finally:
        for proc in (worker, scheduler, pool):  # the worker's dumps before its end are all it is asked for
            proc.terminate()
            proc.wait()
    print(f"# {n} games, {time.time() - t:.0f} s under callgrind, load average at the start {load:.1f}; files in {out}")
    report(out, opts.cache_sim)


def report(out: Path, cache_sim: bool = False) -> None:
    """The table of a probe's files in ``out``: every chunk both sides have finished (a run still going, or
    stopped, gives the chunks so far)."""
    sizes = json.loads((out / "pool.json").read_text())
    assert sizes == json.loads((out / "dask.json").read_text()), "the two sides were sent different chunks"
    found_pool, found_dask = counts(out / "pool"), counts(out / "dask")
    # the pool's worker: the process that has the dumps (the driver, its parent, calls no os.getppid)
    worker_pid = max({p for p, part, _ in found_pool if part > 1}, key=lambda p: sum(
        v for (q, part, _), v in found_pool.items() if q == p and part > 1))
    pool_threads = sorted({th for p, _, th in found_pool if p == worker_pid})
    pool_rows = [sum(col) for col in zip(*(per_chunk(found_pool, worker_pid, th, len(sizes)) for th in pool_threads))]
    dask_pid = next(iter({p for p, _, _ in found_dask}))
    dask_threads = sorted({th for p, _, th in found_dask if p == dask_pid})
    by_thread = {th: per_chunk(found_dask, dask_pid, th, len(sizes)) for th in dask_threads}
    task_thread = max(by_thread, key=lambda th: sum(by_thread[th]))  # the only one with marks
    done = next((k for k in range(len(sizes)) if not (pool_rows[k] and by_thread[task_thread][k])), len(sizes))
    if done < len(sizes):
        print(f"# the chunks both sides have finished: {done} of {len(sizes)}")
        sizes, pool_rows = sizes[:done], pool_rows[:done]
        by_thread = {th: v[:done] for th, v in by_thread.items()}
    print(f"# pool worker {worker_pid}: threads {pool_threads}; dask worker {dask_pid}: threads {dask_threads}, "
          f"the task thread {task_thread}")
    print("| chunk | games | pool worker, a game | Dask task thread, a game | Dask over pool |")
    print("|---|---|---|---|---|")
    for k, games in enumerate(sizes):
        task = by_thread[task_thread][k]
        print(f"| {k + 1} | {games} | {pool_rows[k] / games:,.0f} | {task / games:,.0f} | "
              f"{task / pool_rows[k] - 1:+.1%} |")
    total_pool, total_task = sum(pool_rows), sum(by_thread[task_thread])
    print(f"| all | {sum(sizes)} | {total_pool / sum(sizes):,.0f} | {total_task / sum(sizes):,.0f} | "
          f"{total_task / total_pool - 1:+.1%} |")
    if len(sizes) > 1:  # the first chunk warms up the pool's worker (a Dask worker is warmed up before its first)
        rest_pool, rest_task, rest_games = total_pool - pool_rows[0], total_task - by_thread[task_thread][0], \
            sum(sizes) - sizes[0]
        print(f"| from chunk 2 | {rest_games} | {rest_pool / rest_games:,.0f} | {rest_task / rest_games:,.0f} | "
              f"{rest_task / rest_pool - 1:+.1%} |")
    if cache_sim:  # the last level's data misses (read + write), chunk by chunk
        for label, found_at, pid, threads in (("pool worker", out / "pool", worker_pid, pool_threads),
                                              ("Dask task thread", out / "dask", dask_pid, [task_thread])):
            misses = [sum(col) for col in zip(*(
                [a + b for a, b in zip(per_chunk(counts(found_at, 7), pid, th, len(sizes)),
                                       per_chunk(counts(found_at, 8), pid, th, len(sizes)))] for th in threads))]
            d1 = [sum(col) for col in zip(*(
                [a + b + c for a, b, c in zip(per_chunk(counts(found_at, 4), pid, th, len(sizes)),
                                              per_chunk(counts(found_at, 5), pid, th, len(sizes)),
                                              per_chunk(counts(found_at, 3), pid, th, len(sizes)))]
                for th in threads))]
            print(f"# {label}: last-level data misses a game, chunk by chunk: "
                  + ", ".join(f"{m / g:,.0f}" for m, g in zip(misses, sizes))
                  + f"; in all {sum(misses) / sum(sizes):,.0f}; first-level misses (I1 + D1) a game in all "
                  f"{sum(d1) / sum(sizes):,.0f}")
    # callgrind dumps only the thread that called the mark: the others' counts are whole-run, start-up included
    for th in dask_threads:
        if th != task_thread:
            whole = sum(v for (p, _, t), v in found_dask.items() if p == dask_pid and t == th)
            print(f"# Dask worker thread {th}, the whole run (start-up included): {whole:,} instructions, "
                  f"{whole / sum(sizes):,.0f} a game")

if __name__ == "__main__":
    gc.collect()
    main()
