"""What ``grn archive stats`` costs over a large archive whose points rows ``add`` kept packed (R310-R312).

Builds an archive as ``bench_archive.py --only archive`` does (self-played 4-player Gold Rush games added by
``grn archive add``, then copied row by row, seat names and all, up to ``--archive`` games; every game's
points rows pending in ``points_packed``) and gives, each in a process of its own, CPU seconds (best of
``--repeat``, on a fresh copy of the archive where the step writes) and, with ``--callgrind``, callgrind's
instruction count less that of a process that only opens the archive:

* ``on-the-fly``: ``stats.compute`` on a read-only connection, every game pending (R312);
* ``expand``: the first expansion, ``points_name`` dropped and made again around it (R311);
* ``expand-kept``: the same expansion with ``points_name`` kept (every row entered in the index);
* ``first``: ``stats.compute`` on a writable connection, every game pending (the expansion, then the query);
* ``after``: ``stats.compute`` with nothing pending (today's query of ``points`` alone).

    python bench/bench_stats_points.py --archive 100000 --callgrind
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_archive_instructions import callgrind_count  # noqa: E402  (one way to count a command)

MODES = ("on-the-fly", "expand", "expand-kept", "first", "after")


def child(mode: str, db: str) -> None:
    """The measured work (its CPU seconds printed last)."""
    from grn.archive.db import connect
    from grn.archive.points import EXPANDED, expand
    from grn.archive.stats import compute

    con = connect(db, readonly=mode in ("on-the-fly", "open"))
    t = time.process_time()
    if mode == "on-the-fly" or mode == "first" or mode == "after":
        compute(con)
    elif mode == "expand":
        expand(con)
    elif mode == "expand-kept":
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO points " + EXPANDED)
        con.execute("DELETE FROM points_packed")
        con.execute("COMMIT")
    used = time.process_time() - t
    con.close()
    print(f"cpu {used:.4f}")


def prepared(base: Path, mode: str, tmp: Path) -> Path:
    """A fresh copy of the pending archive (``after``: expanded outside the measure)."""
    db = tmp / f"{mode}.db"
    shutil.copy(base, db)
    if mode == "after":
        subprocess.run([sys.executable, __file__, "--child", "expand", str(db)], check=True, capture_output=True)
    return db


def cpu(base: Path, mode: str, tmp: Path) -> float:
    db = prepared(base, mode, tmp)
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(db)], check=True, capture_output=True,
                         text=True).stdout
    return float(out.split()[-1])


def instructions(base: Path, mode: str, tmp: Path) -> int:
    db = prepared(base, mode, tmp)
    return callgrind_count(tmp / f"cg-{mode}.out", [sys.executable, __file__, "--child", mode, str(db)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="self-played games (written --copies times) to add")
    ap.add_argument("--copies", type=int, default=3)
    ap.add_argument("--archive", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.child:
        child(*opts.child)
        return
    from bench_archive import GRN, grow, make_games
    from grn._compiled import status
    from grn.archive.points import EXPANDED

    os.environ.setdefault("PYTHONHASHSEED", "0")
    tmp = Path(tempfile.mkdtemp(prefix="grn-stats-points-"))
    try:
        games = tmp / "games.grn"
        n = make_games(games, opts.games, opts.copies)
        base = tmp / "base.db"
        subprocess.run(GRN + ["archive", "add", "-q", str(base), str(games)], check=True)
        total = grow(base, opts.archive)
        con = sqlite3.connect(base)
        pending = con.execute("SELECT count(*) FROM points_packed").fetchone()[0]
        rows = con.execute(f"SELECT count(*) FROM ({EXPANDED})").fetchone()[0]
        con.close()
        print(f"grn {status()}; {total} games ({n} added, then copied), {pending} with points pending "
              f"({rows} rows); load average {os.getloadavg()[0]:.1f}")
        opened = instructions(base, "open", tmp) if opts.callgrind else 0
        for mode in opts.modes.split(","):
            best = min(cpu(base, mode, tmp) for _ in range(opts.repeat))
            line = f"  {mode:<12} {best:6.2f} s CPU (best of {opts.repeat})"
            if opts.callgrind:
                line += f", {(instructions(base, mode, tmp) - opened) / 1e9:.2f} G instructions"
            print(line, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
