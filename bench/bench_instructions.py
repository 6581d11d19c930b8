"""Benchmark: instructions per turn of validating, counted by callgrind (repeatable on a busy machine).

    .venv/bin/python bench/bench_instructions.py [--compare OTHER_PYTHON ...] [--games 40]

Wall-clock figures (``bench/bench_validate.py``) wander by up to two times
between runs on a shared machine; valgrind's callgrind counts the
instructions executed, which are the same for the same binary and input
whatever else the machine does.  Each interpreter validates the same
self-played 4-player Gold Rush games twice, with ``--games`` / 4 and
``--games`` games, and the difference divided by the difference in turns is
the cost of one turn without start-up.  ``--compare`` adds other interpreters
(for example the virtual environment of an older checkout, to compare before
and after a change in one run).  Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run by each interpreter under callgrind: validate the first N games of a file.
HARNESS = """
import io, sys
import grn
from grn.validate import validate_record
text = open(sys.argv[1], encoding="utf-8").read()
games = text.split("\\n\\n[Game")
n = int(sys.argv[2])
part = games[0] + "".join("\\n\\n[Game" + g for g in games[1:n])
turns = 0
for record in grn.read(io.StringIO(part)):
    report = validate_record(record, keep_turns=False)
    assert report.valid, report.diagnostics
    turns += report.turns_played
print("turns", turns)
"""


def instructions(python: str, harness: str, games_file: str, n: int, cache: str) -> tuple[int, int]:
    """(turns, instructions) of validating the first ``n`` games under callgrind."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", python, harness,
                              games_file, str(n)], capture_output=True, text=True, env=env, check=True)
        turns = int(run.stdout.split()[-1])
        summary = Path(out.name).read_text(encoding="utf-8", errors="replace")
        m = re.search(r"^summary:\s*(\d+)", summary, re.M) or re.search(r"^totals:\s*(\d+)", summary, re.M)
        assert m is not None, "callgrind wrote no summary"
        return turns, int(m.group(1))


def per_turn(python: str, harness: str, games_file: str, games: int) -> tuple[float, int]:
    """Instructions per turn (start-up taken out) and the start-up cost of one interpreter."""
    with tempfile.TemporaryDirectory() as cache:
        # warm the grammar cache first: building it is start-up, not validation
        subprocess.run([python, harness, games_file, "1"], check=True, capture_output=True,
                       env={**os.environ, "XDG_CACHE_HOME": cache})
        t1, i1 = instructions(python, harness, games_file, max(1, games // 4), cache)
        t2, i2 = instructions(python, harness, games_file, games, cache)
    per = (i2 - i1) / (t2 - t1)
    return per, int(i1 - per * t1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games in the larger run (the smaller has a quarter)")
    ap.add_argument("--compare", nargs="*", default=[], help="other Python interpreters with grn installed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        games_file = os.path.join(tmp, "games.grn")
        made = subprocess.run([sys.executable, "-m", "grn", "selfplay", "--players", "4", "--seed", "500",
                               "--games", str(args.games)], capture_output=True, text=True, check=True)
        Path(games_file).write_text(made.stdout, encoding="utf-8")
        harness = os.path.join(tmp, "harness.py")
        Path(harness).write_text(HARNESS, encoding="utf-8")
        for python in [sys.executable, *args.compare]:
            version = subprocess.run([python, "-m", "grn", "--version"], capture_output=True, text=True).stdout.strip()
            per, start = per_turn(python, harness, games_file, args.games)
            print(f"{python}: {per:,.0f} instructions a turn, start-up {start / 1e6:,.1f} M ({version})")


if __name__ == "__main__":
    main()
