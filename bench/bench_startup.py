"""Benchmark: how long ``grn validate`` of one small file takes, start to end, beside python-chess.

    .venv/bin/pip install -e '.[bench]'
    nice .venv/bin/python bench/bench_startup.py --compare [--runs 15] [--file F.grn ...]

Runs ``grn validate FILE`` (by default one small file of each game) and, with
``--compare``, a Python process that imports python-chess and reads one game of
PGN (``import chess.pgn`` + ``chess.pgn.read_game``), one after the other,
``--runs`` times each, and prints for each the median and best wall time and
the median CPU time (user + system of the child process, from ``wait4``),
which the other processes on a loaded machine do not inflate as they do the
wall time.  The ratio is of the median CPU times.  The children run with
Python's bytecode cache on, as a user's do (``PYTHONDONTWRITEBYTECODE`` is
taken out of their environment: with it, every run compiles grn's Python sources anew).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PGN = '[Event "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
FILES = ("examples/rulebook-railroad-3.grn", "examples/gold-2p.grn", "examples/carcassonne/carcassonne-2p.grn")


def run(args: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``args`` as a child process."""
    t = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--compare", action="store_true", help="also time python-chess's import + read_game")
    ap.add_argument("--file", action="append", help="a record file to validate (default: one of each game)")
    args = ap.parse_args()
    commands: dict[str, list[str]] = {}
    for name in args.file or FILES:
        commands[f"grn validate {Path(name).name}"] = [sys.executable, "-m", "grn", "validate", str(ROOT / name)]
    pgn = None
    if args.compare:
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as fh:
            fh.write(PGN)
        pgn = fh.name
        commands["python-chess"] = [sys.executable, "-c", f"import chess.pgn; chess.pgn.read_game(open({pgn!r}))"]
    for argv in commands.values():
        run(argv)  # the first run builds the grammar cache and warms the file cache
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    load = os.getloadavg()[0]
    for _ in range(args.runs):
        for name, argv in commands.items():
            wall, cpu = run(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    if pgn:
        os.unlink(pgn)
    print(f"load average {load:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {args.runs} runs each, "
          f"interleaved; {sys.executable}")
    width = max(len(n) for n in commands)
    for name in commands:
        print(f"{name:<{width}}  wall median {statistics.median(walls[name]) * 1000:5.0f} ms  "
              f"best {min(walls[name]) * 1000:5.0f} ms   CPU median {statistics.median(cpus[name]) * 1000:5.0f} ms")
    if args.compare:
        chess = statistics.median(cpus["python-chess"])
        for name in commands:
            if name != "python-chess":
                print(f"{name} / python-chess, CPU: {statistics.median(cpus[name]) / chess:.2f}")


if __name__ == "__main__":
    main()
