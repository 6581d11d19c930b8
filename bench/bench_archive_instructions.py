"""Instructions a game of ``grn archive add`` against ``grn validate``, counted by callgrind (issue 26, item 4).

In-process, start-up left out: each mode runs over the first N and the first 2N
of the same self-played 4-player Gold Rush games under ``valgrind
--tool=callgrind``, and the difference over N is a game's cost, each process
having seen N games before.  The load does not change these counts.

Modes: ``validate`` (grn.batch's validator, no index), ``summary`` (validate and
the game-level facts, ``archive add``'s work in the workers), ``add`` (all of
``grn archive add`` into a new archive: the game-level rows, R250),
``per-turn`` (``archive add --per-turn``: today's add, the per-turn rows too),
and ``build`` (``grn archive index`` of an archive of those games made by
``add``: the deferred build, alone).

    python bench/bench_archive_instructions.py --games 60
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = ("validate", "summary", "add", "per-turn", "build")


def child(mode: str, games: str, db: str) -> None:
    """The measured work (run under callgrind)."""
    from grn.archive.db import add_files, connect
    from grn.archive.indexer import indexing_validator
    from grn.batch import Validator

    if mode == "validate":
        with Validator() as v:
            for _ in v.run(games):
                pass
    elif mode == "summary":
        with indexing_validator() as v:
            for _ in v.run(games):
                pass
    elif mode in ("add", "per-turn"):
        con = connect(db, create=True)
        add_files(con, [games], indexing_validator(per_turn=mode == "per-turn"))
        con.close()
    elif mode == "build":
        from grn.archive.turns import build

        con = connect(db)
        build(con)
        con.close()


def instructions(mode: str, games: Path, tmp: Path) -> int:
    """Callgrind's total instruction count of one child run."""
    db = tmp / f"{mode}-{games.stem}.db"
    if db.exists():
        db.unlink()
    if mode == "build":  # the archive to build from, made outside the count
        subprocess.run([sys.executable, __file__, "--child", "add", str(games), str(db)], check=True)
    # once outside the count: Python's bytecode cache of the modules the run imports is written now, not
    # inside the first counted run (it would make the smaller run the dearer one)
    warm = tmp / f"warm-{mode}-{games.stem}.db"
    if mode == "build":
        shutil.copy(db, warm)
    subprocess.run([sys.executable, __file__, "--child", mode, str(games), str(warm)], check=True)
    out = tmp / f"cg-{mode}-{games.stem}.out"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
                    "--child", mode, str(games), str(db)], check=True, capture_output=True)
    m = re.search(r"^(?:summary|totals): (\d+)", out.read_text(encoding="utf-8", errors="replace"), re.M)
    assert m is not None
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="N: the runs are over N and 2N games")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--keep", metavar="DIR", help="keep callgrind's output files here (for callgrind_annotate "
                    "--inclusive=yes: where a mode's instructions go)")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.child:
        child(*opts.child)
        return
    if shutil.which("valgrind") is None:
        sys.exit("needs valgrind")
    from grn._compiled import status

    tmp = Path(tempfile.mkdtemp(prefix="grn-archive-cg-"))
    try:
        text = subprocess.run([sys.executable, "-m", "grn", "selfplay", "--players", "4", "--seed", "1", "--games",
                               str(2 * opts.games)], capture_output=True, text=True, check=True).stdout
        parts = text.split('[Game "')
        small, big = tmp / "small.grn", tmp / "big.grn"
        small.write_text("".join('[Game "' + p for p in parts[1:opts.games + 1]), encoding="utf-8")
        big.write_text("".join('[Game "' + p for p in parts[1:]), encoding="utf-8")
        print(f"grn {status()}; a game over games {opts.games + 1}-{2 * opts.games} of {2 * opts.games} "
              f"self-played 4-player Gold Rush games (load average {os.getloadavg()[0]:.1f}, not affecting counts)")
        per: dict[str, float] = {}
        for mode in opts.modes.split(","):
            a, b = instructions(mode, small, tmp), instructions(mode, big, tmp)
            print(f"  ({mode}: {a:,} instructions over {opts.games} games, {b:,} over {2 * opts.games})")
            per[mode] = (b - a) / opts.games
            base = per.get("validate")
            over = f" ({100 * (per[mode] / base - 1):+.0f}% over validate)" if base and mode != "validate" else ""
            print(f"  {mode:<9} {per[mode] / 1e6:.2f} M{over}", flush=True)
    finally:
        if opts.keep:
            os.makedirs(opts.keep, exist_ok=True)
            for out in tmp.glob("cg-*.out"):
                shutil.copy(out, Path(opts.keep) / out.name)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
