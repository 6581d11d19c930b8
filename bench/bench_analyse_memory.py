"""Benchmark: peak memory of ``grn analyse`` over files of many small games (flat: it streams, as validate).

    .venv/bin/python bench/bench_analyse_memory.py [--games 100 1000 10000] [--turns 1] [--jobs 1 2]
                                                   [--format json] [-- --level quick]

Each file repeats ``--distinct`` self-played 2-player Gold Rush games cut after
``--turns`` turns (unfinished games: no Result), so the analysis of a game is
short and a file of 10,000 games is analysed in minutes.  ``grn analyse``
runs in a process of its own, its standard output to /dev/null, and its peak
resident memory is the children's ``ru_maxrss`` (with ``--jobs 2``: the
largest of the main process and its workers).  Flat means the figure does not
grow with the number of games.  The analysis options after ``--`` (default
``--level quick``, the smallest named level).

Target: flat, `grn analyse`'s peak memory the same for 100 and 10,000 games (it streams, as validate).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def make_file(path: Path, games: int, turns: int, distinct: int) -> None:
    """``games`` games: ``distinct`` self-played ones cut after ``turns`` turns, repeated."""
    import grn
    from grn import games as registry
    from grn.rules.selfplay import to_record

    block = []
    for seed in range(distinct):
        record = to_record(registry.find_ruleset("goldrush").selfplay(2, seed))
        record = record.replace(turns=record.turns[:turns],
                                     tags=tuple((k, v) for k, v in record.tags if k != "Result"))
        block.append(grn.write_record(record))
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(games):
            fh.write(("\n" if i else "") + block[i % distinct])


def peak(args: list[str]) -> tuple[float, float, float]:
    """(peak RSS in MB, wall seconds, CPU seconds of it and its workers) of ``grn ARGS`` in a process of its own."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True); "
            "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
            "print(u.ru_maxrss, time.perf_counter() - t, u.ru_utime + u.ru_stime, done.returncode, "
            "repr(done.stderr[-300:]))")
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "grn", *args],
                         capture_output=True, text=True, check=True).stdout.split(" ", 4)
    if out[3] != "0":
        raise SystemExit(f"grn {' '.join(args)} failed: {out[4]}")
    return int(out[0]) / 1024, float(out[1]), float(out[2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, nargs="+", default=[100, 1000, 10_000])
    ap.add_argument("--turns", type=int, default=1)
    ap.add_argument("--distinct", type=int, default=50)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1])
    ap.add_argument("--format", default="json")
    ap.add_argument("options", nargs="*", default=["--level", "quick"])
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; python {sys.version.split()[0]}; "
          f"games of {args.turns} turn(s); grn analyse {' '.join(args.options)} --format {args.format}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for games in args.games:
            path = Path(tmp) / f"games-{games}.grn"
            make_file(path, games, args.turns, args.distinct)
            for jobs in args.jobs:
                # standard output to /dev/null: streamed as written (``-o /dev/null`` would spool the output to a
                # temporary file and copy it out at the end, in 1 MB blocks that show in the peak)
                mb, wall, cpu = peak(["analyse", str(path), "--format", args.format, "--jobs", str(jobs),
                                      *args.options])
                print(f"{games:>7} games ({path.stat().st_size / 1e6:5.1f} MB)  --jobs {jobs}  peak RSS {mb:6.1f} MB  "
                      f"{wall:7.1f} s wall  {cpu:7.1f} s CPU  (load {os.getloadavg()[0]:.1f})", flush=True)
            path.unlink()


if __name__ == "__main__":
    main()
