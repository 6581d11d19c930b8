"""Instructions a game of ``grn archive add`` against ``grn validate``, counted by callgrind (issue 26, item 4).

In-process, start-up left out: each mode runs over the first N and the first 2N
of the same self-played 4-player Gold Rush games under ``valgrind
--tool=callgrind``, and the difference over N is a game's cost, each process
having seen N games before.  The load does not change these counts.

Modes: ``validate`` (grn.check.batch's validator, no index), ``summary`` (validate and
the game-level facts, ``archive add``'s work in the workers), ``add`` (all of
``grn archive add`` into a new archive: the game-level rows, R250),
``per-turn`` (``archive add --per-turn``: today's add, the per-turn rows too),
and ``build`` (``grn archive index`` of an archive of those games made by
``add``: the deferred build, alone).

    python bench/bench_archive_instructions.py --games 60

``--sha`` also gives each mode's count without valgrind's software SHA-256 (callgrind cannot run the
CPU's SHA extensions, so OpenSSL's block function runs in software, about 27 instructions a byte), with
the real CPU's cost put back in its place: the SHA-256 of the bytes ``add`` hashes a game (the dedup key's
head and main line, the file's bytes) timed on this CPU with ``hashlib``, in instructions at the rate
this CPU runs ``validate`` (its instructions over its CPU time, both over the same games, measured here:
the load moves that rate, so the bench gives it).

Target: `archive add` at most +25% over `validate`, a game's cost in instructions (bench_archive.py's target, without the load's noise).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = ("validate", "summary", "add", "per-turn", "build")


def child(mode: str, games: str, db: str) -> None:
    """The measured work (run under callgrind)."""
    from grn.archive.db import add_files, connect
    from grn.archive.indexer import indexing_validator
    from grn.check.batch import Validator

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


def sha_instructions(out: Path) -> int:
    """The instructions of a callgrind output spent in OpenSSL's libcrypto (self cost): its SHA-256 block
    function, which Debian's stripped library leaves unnamed, and the little around it; grn calls nothing
    else of libcrypto while it adds."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", str(out)], capture_output=True, text=True,
                          check=True).stdout
    total = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s.*libcrypto", line)
        if m:
            total += int(m.group(1).replace(",", ""))
    return total


def hashed_bytes(games: Path) -> tuple[int, int]:
    """The games of a file, and the bytes ``add`` hashes for them: the file's and every game's dedup key's."""
    from grn.rules import registry
    from grn.archive import facts
    from grn.notation.read import parse

    records = parse(games.read_text(encoding="utf-8"))
    total = games.stat().st_size
    for r in records:
        seats = facts._seats(r)
        keys = {c: s.key for s in seats for c in s.colours}
        head = (facts._canonical(facts._dedup_head(r, seats)) + "\n").encode("utf-8")
        total += len(head) + len(facts._main_line(r, keys, registry.find_ruleset(r.game))[1])
    return len(records), total


def real_sha_seconds(size: int, repeat: int = 2000) -> float:
    """CPU seconds this CPU (SHA extensions and all) takes for the SHA-256 of ``size`` bytes, best of 5."""
    data = os.urandom(size)
    best = float("inf")
    for _ in range(5):
        t = time.process_time()
        for _ in range(repeat):
            hashlib.sha256(data).hexdigest()
        best = min(best, (time.process_time() - t) / repeat)
    return best


def cpu_seconds(mode: str, games: Path, tmp: Path) -> float:
    """CPU seconds (user + system) of one child run, outside valgrind."""
    db = tmp / f"cpu-{mode}-{games.stem}.db"
    before = os.times()
    subprocess.run([sys.executable, __file__, "--child", mode, str(games), str(db)], check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


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
    return callgrind_count(tmp / f"cg-{mode}-{games.stem}.out",
                           [sys.executable, __file__, "--child", mode, str(games), str(db)])


def callgrind_count(out: Path, argv: list[str]) -> int:
    """The instructions a command executes, counted by callgrind (its output file kept at ``out``)."""
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], check=True,
                   capture_output=True)
    m = re.search(r"^(?:summary|totals): (\d+)", out.read_text(encoding="utf-8", errors="replace"), re.M)
    assert m is not None
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="N: the runs are over N and 2N games")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--keep", metavar="DIR", help="keep callgrind's output files here (for callgrind_annotate "
                    "--inclusive=yes: where a mode's instructions go)")
    ap.add_argument("--sha", action="store_true", help="also each mode's count with the software SHA-256 counted "
                    "at what this CPU spends on it (see above)")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.child:
        child(*opts.child)
        return
    if shutil.which("valgrind") is None:
        sys.exit("needs valgrind")
    from grn._compiled import status

    # one hash seed for every child: str hashes decide dicts' layouts and so a few thousand instructions a
    # game, which moved a mode's count by up to 1% between runs of the same build (rounds nine and ten)
    os.environ.setdefault("PYTHONHASHSEED", "0")
    tmp = Path(tempfile.mkdtemp(prefix="grn-archive-cg-"))
    try:
        text = subprocess.run([sys.executable, "-m", "grn", "selfplay", "--players", "4", "--seed", "1", "--games",
                               str(2 * opts.games)], capture_output=True, text=True, check=True).stdout
        parts = text.split('[Game "')
        small, big = tmp / "small.grn", tmp / "big.grn"
        small.write_text("".join('[Game "' + p for p in parts[1:opts.games + 1]), encoding="utf-8")
        big.write_text("".join('[Game "' + p for p in parts[1:]), encoding="utf-8")
        print(f"grn {status()}; a game over games {opts.games + 1}-{2 * opts.games} of {2 * opts.games} "
              f"self-played 4-player Gold Rush games (load average {os.getloadavg()[0]:.1f}, not affecting counts; "
              f"PYTHONHASHSEED={os.environ['PYTHONHASHSEED']})")
        per: dict[str, float] = {}
        real: dict[str, float] = {}
        sha_real = 0.0
        if opts.sha:
            # what the real CPU spends hashing a game's bytes, in validate's instructions at this CPU's rate
            n_small, bytes_small = hashed_bytes(small)
            n_big, bytes_big = hashed_bytes(big)
            per_game = (bytes_big - bytes_small) / (n_big - n_small)
            seconds = real_sha_seconds(int(per_game))
            # the whole run's rate (start-up included): a ratio of two large figures, steadier than a
            # difference of two CPU times on a loaded machine
            v_cpu = min(cpu_seconds("validate", big, tmp) for _ in range(3))
            print(f"  (SHA-256 on this CPU: {per_game:,.0f} bytes a game hashed by add in {seconds * 1e6:.1f} us; "
                  f"validate of {2 * opts.games} games {v_cpu:.2f} s CPU, best of 3, load {os.getloadavg()[0]:.1f})")
        for mode in opts.modes.split(","):
            a, b = instructions(mode, small, tmp), instructions(mode, big, tmp)
            print(f"  ({mode}: {a:,} instructions over {opts.games} games, {b:,} over {2 * opts.games})")
            per[mode] = (b - a) / opts.games
            base = per.get("validate")
            over = f" ({100 * (per[mode] / base - 1):+.0f}% over validate)" if base and mode != "validate" else ""
            print(f"  {mode:<9} {per[mode] / 1e6:.2f} M{over}", flush=True)
            if opts.sha:
                soft = (sha_instructions(tmp / f"cg-{mode}-big.out")
                        - sha_instructions(tmp / f"cg-{mode}-small.out")) / opts.games
                if mode == "validate":
                    # validate hashes nothing: its rate converts the real CPU's hashing time to instructions
                    sha_real = seconds * b / v_cpu
                    print(f"  {'':<9} this CPU ran validate at {b / v_cpu / 1e9:.2f} G instructions a CPU second")
                real[mode] = per[mode] - soft + (sha_real if mode != "validate" and soft else 0.0)
                rbase = real.get("validate")
                over = (f" ({100 * (real[mode] / rbase - 1):+.0f}% over validate)"
                        if rbase and mode != "validate" else "")
                print(f"  {'':<9} software SHA-256 {soft / 1e6:.3f} M; counted at this CPU's "
                      f"{sha_real / 1e6:.3f} M instead: {real[mode] / 1e6:.2f} M{over}", flush=True)
    finally:
        if opts.keep:
            os.makedirs(opts.keep, exist_ok=True)
            for out in tmp.glob("cg-*.out"):
                shutil.copy(out, Path(opts.keep) / out.name)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
