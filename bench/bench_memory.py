"""Benchmark: peak memory of the commands that read whole files, for files of many games.

    .venv/bin/python bench/bench_memory.py [--games 10000 200000]

For each size a GRN file is made by repeating self-played 4-player Gold Rush
games (a file of 200,000 games is about 400 MB), then each command runs in a
process of its own and its peak resident memory is read (``/usr/bin/time``'s
maximum RSS, or the children's ``ru_maxrss``).  Flat means the figure does not
grow with the number of games.  Commands: ``grn validate``, ``grn validate
--format json``, ``grn convert --to json``, ``grn fmt``, ``grn archive add``
(into a new SQLite archive), and ``grn convert --to grn`` and ``grn validate``
of the same games in their JSON form; the output goes to /dev/null.

Target: flat, the peak memory of every command the same for 10,000 and 200,000 games (docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# {grn}: the GRN file; {json}: the same games as JSON; {db}: a new archive
COMMANDS = {
    "validate": ["validate", "{grn}"],
    "validate --format json": ["validate", "--format", "json", "{grn}"],
    "convert --to json": ["convert", "--to", "json", "{grn}"],
    "fmt": ["fmt", "{grn}"],
    "archive add": ["archive", "add", "{db}", "{grn}"],
    "convert --to grn (JSON in)": ["convert", "--to", "grn", "{json}"],
    "validate (JSON in)": ["validate", "{json}"],
}


def make_file(path: Path, games: int, distinct: int = 200) -> None:
    """``games`` games: ``distinct`` self-played ones, repeated."""
    made = subprocess.run([sys.executable, "-m", "grn", "selfplay", "--players", "4", "--seed", "1",
                           "--games", str(min(distinct, games))], capture_output=True, text=True, check=True)
    block = made.stdout.rstrip("\n") + "\n"
    count = min(distinct, games)
    with open(path, "w", encoding="utf-8") as fh:
        written = 0
        while written < games:
            if written + count <= games:
                fh.write(("\n" if written else "") + block)
                written += count
            else:
                parts = block.split("\n\n[Game")
                rest = games - written
                fh.write("\n" + parts[0] + "".join("\n\n[Game" + p for p in parts[1:rest]) + "\n")
                written = games


def peak_mb(args: list[str]) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one grn command in a process of its own."""
    code = ("import resource, subprocess, sys; "
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "grn", *args],
                         capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) / 1024, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, nargs="+", default=[10_000, 200_000])
    ap.add_argument("--only", choices=list(COMMANDS), nargs="*", help="run these commands only")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        for games in args.games:
            path = Path(tmp) / f"games-{games}.grn"
            make_file(path, games)
            size = path.stat().st_size / 1e6
            json_path = path.with_suffix(".json")
            if not args.only or any("JSON in" in n for n in args.only):
                subprocess.run([sys.executable, "-m", "grn", "convert", "--to", "json", str(path), "-o", str(json_path)],
                               check=True)
            for name, command in COMMANDS.items():
                if args.only and name not in args.only:
                    continue
                db = Path(tmp) / "archive.db"
                db.unlink(missing_ok=True)
                mb, seconds = peak_mb([a.format(grn=path, json=json_path, db=db) for a in command])
                print(f"{games:>8} games ({size:7.1f} MB)  grn {name:<24} peak RSS {mb:7.1f} MB  {seconds:7.1f} s",
                      flush=True)
            path.unlink()
            json_path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
