"""Benchmark: how long ``grn validate`` of one small file takes, start to end, beside python-chess.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/bench_startup.py [--runs 15]

Runs ``grn validate examples/rulebook-railroad-3.grn`` and a Python process that
imports python-chess and reads one game of PGN, one after the other, ``--runs``
times each, and prints the median and the best wall time of both (the start-up
a user feels: interpreter, imports, grammar, one game).
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


def wall(args: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    grn = [sys.executable, "-m", "grn", "validate", str(ROOT / "examples" / "rulebook-railroad-3.grn")]
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as fh:
        fh.write(PGN)
    chess = [sys.executable, "-c", f"import chess.pgn; chess.pgn.read_game(open({fh.name!r}))"]
    wall(grn)  # the first run builds the grammar cache
    times: dict[str, list[float]] = {"grn validate": [], "python-chess": []}
    for _ in range(args.runs):
        times["grn validate"].append(wall(grn))
        times["python-chess"].append(wall(chess))
    os.unlink(fh.name)
    print(f"load average {os.getloadavg()[0]:.1f}, {args.runs} runs each, interleaved")
    for name, got in times.items():
        print(f"{name:<14} median {statistics.median(got) * 1000:6.0f} ms   best {min(got) * 1000:6.0f} ms")
    ratio = statistics.median(times["grn validate"]) / statistics.median(times["python-chess"])
    print(f"grn / python-chess: {ratio:.2f}")


if __name__ == "__main__":
    main()
