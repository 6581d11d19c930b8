"""Benchmark: instructions per turn of validating, and of start-up, counted by callgrind, beside python-chess.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/bench_instructions.py [--game goldrush|gold|carcassonne ...] [--games 40]
        [--compare OTHER_PYTHON ...] [--no-chess] [--startup] [--cli N]

Wall-clock figures (``bench/bench_validate.py``) wander by up to two times
between runs on a shared machine; valgrind's callgrind counts the
instructions executed, which are the same for the same binary and input
whatever else the machine does.  Each interpreter validates the same
self-played 4-player games of each ``--game`` twice, with ``--games`` / 4 and
``--games`` games, and the difference divided by the difference in turns is
the cost of one turn without start-up.  python-chess is counted the same way:
``chess.pgn.read_game`` (which parses SAN and checks every move) on random
games of 80 plies, per ply; the ratio is plies a turn's instructions would
read.  ``--startup`` also counts whole processes: ``grn validate FILE`` of one
small file of each game, with comments and markup and without
(``bench_startup.CASES``), against ``import chess.pgn`` + ``read_game`` of one
short game.  ``--cli N`` counts whole commands, start-up included: ``grn
validate`` of a file of the first N games of each ``--game`` against a script
reading N games of the PGN with ``read_game``, as turns (plies) per billion
instructions.  ``--compare`` adds other interpreters (for example the virtual
environment of an older checkout, to compare before and after a change in
one run).  The children run with the bytecode cache on, as a user's do.
Needs valgrind (``apt-get install valgrind``).

Target: the validate targets of bench_validate.py (2.5x, 2.0x python-chess), counted in instructions, which the machine's load does not change.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_startup import case_files  # noqa: E402  (the same files as bench_startup.py, beside this script)

#: Run by each interpreter under callgrind: validate the first N games of a file.
HARNESS = """
import io, sys
import grn
from grn.check.validate import validate_record
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


#: The same for python-chess: read the first N games of a PGN file, counting plies.
CHESS_HARNESS = """
import sys
import chess.pgn
handle = open(sys.argv[1], encoding="utf-8")
n = int(sys.argv[2])
plies = 0
for _ in range(n):
    game = chess.pgn.read_game(handle)
    plies += sum(1 for _ in game.mainline_moves())
print("turns", plies)
"""

PGN_SHORT = '[Event "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'
#: The children's environment: bytecode cache on (as a user's), the grammar cache where given.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# Whole commands run "python -P -m grn": without -P, "-m" puts the current directory first on sys.path, and run from
# a checkout every interpreter of --compare would count that checkout's grn, not its own install's


def counted(argv: list[str], cache: str) -> tuple[str, int]:
    """(standard output, instructions) of one process under callgrind."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        env = {**ENV, "XDG_CACHE_HOME": cache}
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", *argv],
                             capture_output=True, text=True, env=env, check=False)
        summary = Path(out.name).read_text(encoding="utf-8", errors="replace")
        m = re.search(r"^summary:\s*(\d+)", summary, re.M) or re.search(r"^totals:\s*(\d+)", summary, re.M)
        assert m is not None, f"callgrind wrote no summary: {run.stderr[-500:]}"
        return run.stdout, int(m.group(1))


def instructions(python: str, harness: str, games_file: str, n: int, cache: str) -> tuple[int, int]:
    """(turns, instructions) of validating the first ``n`` games under callgrind."""
    out, count = counted([python, harness, games_file, str(n)], cache)
    return int(out.split()[-1]), count


def per_turn(python: str, harness: str, games_file: str, games: int) -> tuple[float, int]:
    """Instructions per turn (start-up taken out) and the start-up cost of one interpreter."""
    with tempfile.TemporaryDirectory() as cache:
        # warm the grammar cache first: building it is start-up, not validation
        subprocess.run([python, harness, games_file, "1"], check=True, capture_output=True,
                       env={**ENV, "XDG_CACHE_HOME": cache})
        t1, i1 = instructions(python, harness, games_file, max(1, games // 4), cache)
        t2, i2 = instructions(python, harness, games_file, games, cache)
    per = (i2 - i1) / (t2 - t1)
    return per, int(i1 - per * t1)


def make_pgn(path: str, games: int, plies: int = 80, seed: int = 1) -> None:
    """Random legal chess games of ``plies`` plies, as PGN (the games bench_validate.py reads)."""
    import random

    import chess
    import chess.pgn

    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(games):
            board = chess.Board()
            game = chess.pgn.Game()
            game.headers["Event"] = f"random {i}"
            node: chess.pgn.GameNode = game
            while board.ply() < plies and not board.is_game_over():
                move = rng.choice(list(board.legal_moves))
                node = node.add_variation(move)
                board.push(move)
            print(game, file=out, end="\n\n")


def startup(python: str, cache: str, files: dict[str, str]) -> dict[str, int]:
    """Instructions of whole processes: ``grn validate`` of each of ``files`` (label -> path), and python-chess."""
    out: dict[str, int] = {}
    for label, path in files.items():
        argv = [python, "-P", "-m", "grn", "validate", path]
        subprocess.run(argv, capture_output=True, env={**ENV, "XDG_CACHE_HOME": cache}, check=False)  # warm
        out[f"grn validate {label}"] = counted(argv, cache)[1]
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as fh:
        fh.write(PGN_SHORT)
    argv = [python, "-c", f"import chess.pgn; chess.pgn.read_game(open({fh.name!r}))"]
    subprocess.run(argv, capture_output=True, env=ENV, check=False)
    out["python-chess import + read_game"] = counted(argv, cache)[1]
    os.unlink(fh.name)
    return out


CHESS_CLI = ("import sys, chess.pgn\nh = open(sys.argv[1], encoding='utf-8')\nn = 0\nwhile True:\n"
             "    g = chess.pgn.read_game(h)\n    if g is None: break\n"
             "    n += sum(1 for _ in g.mainline_moves())\nprint('turns', n)\n")


def first_games(path: str, n: int, out: str) -> None:
    """Write the first ``n`` games of the GRN file ``path`` to ``out``."""
    games = Path(path).read_text(encoding="utf-8").split("\n\n[Game")
    Path(out).write_text(games[0] + "".join("\n\n[Game" + g for g in games[1:n]), encoding="utf-8")


def cli_counts(python: str, grn_file: str, cache: str) -> tuple[int, int]:
    """(turns, instructions) of the whole command ``grn validate grn_file``."""
    argv = [python, "-P", "-m", "grn", "validate", grn_file]
    subprocess.run(argv, capture_output=True, env={**ENV, "XDG_CACHE_HOME": cache}, check=True)  # warm
    _, count = counted(argv, cache)
    code = ("import io, sys\nimport grn\nfrom grn.check.validate import validate_record\n"
            "print('turns', sum(validate_record(r, keep_turns=False).turns_played for r in grn.read(sys.argv[1])))\n")
    turns = subprocess.run([python, "-c", code, grn_file], capture_output=True, text=True, check=True, env=ENV)
    return int(turns.stdout.split()[-1]), count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games in the larger run (the smaller has a quarter)")
    ap.add_argument("--game", action="append", choices=["goldrush", "gold", "carcassonne"],
                    help="the games to count (default: all three)")
    ap.add_argument("--compare", nargs="*", default=[], help="other Python interpreters with grn installed")
    ap.add_argument("--no-chess", action="store_true", help="leave python-chess out")
    ap.add_argument("--startup", action="store_true", help="also count whole processes of one small file")
    ap.add_argument("--startup-only", action="store_true", help="count only the whole processes of --startup")
    ap.add_argument("--cli", type=int, default=0, metavar="N",
                    help="also count the whole command grn validate of N games against python-chess reading N games")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        harness = os.path.join(tmp, "harness.py")
        Path(harness).write_text(HARNESS, encoding="utf-8")
        chess_per = None
        chess_cli = None
        if not args.no_chess and not args.startup_only:
            pgn = os.path.join(tmp, "games.pgn")
            make_pgn(pgn, max(args.games, args.cli))
            chess_harness = os.path.join(tmp, "chess_harness.py")
            Path(chess_harness).write_text(CHESS_HARNESS, encoding="utf-8")
            chess_per, chess_start = per_turn(sys.executable, chess_harness, pgn, args.games)
            print(f"python-chess read_game: {chess_per:,.0f} instructions a ply, start-up {chess_start / 1e6:,.1f} M")
            if args.cli:
                script = os.path.join(tmp, "chess_cli.py")
                Path(script).write_text(CHESS_CLI, encoding="utf-8")
                cli_pgn = os.path.join(tmp, "cli.pgn")
                with open(pgn, encoding="utf-8") as fh:
                    Path(cli_pgn).write_text("\n\n[Event".join(fh.read().split("\n\n[Event")[:args.cli]) + "\n",
                                             encoding="utf-8")
                out, count = counted([sys.executable, script, cli_pgn], tmp)
                plies = int(out.split()[-1])
                chess_cli = plies / count * 1e9
                print(f"python-chess reading {args.cli} games as a script: {plies} plies, {count / 1e6:,.0f} M "
                      f"instructions, {chess_cli:,.0f} plies a billion instructions")
        for game in [] if args.startup_only else args.game or ["goldrush", "carcassonne", "gold"]:
            games_file = os.path.join(tmp, f"{game}.grn")
            made = subprocess.run([sys.executable, "-m", "grn", "selfplay", "--game", game, "--players", "4",
                                   "--seed", "500", "--games", str(max(args.games, args.cli))],
                                  capture_output=True, text=True, check=True)
            Path(games_file).write_text(made.stdout, encoding="utf-8")
            for python in [sys.executable, *args.compare]:
                version = subprocess.run([python, "-P", "-m", "grn", "--version"], capture_output=True,
                                         text=True).stdout.strip()
                per, start = per_turn(python, harness, games_file, args.games)
                ratio = f", {chess_per / per:.2f}x python-chess's plies" if chess_per else ""
                print(f"{game}: {per:,.0f} instructions a turn{ratio}, start-up {start / 1e6:,.1f} M "
                      f"({python}; {version})")
                if args.cli:
                    cli_file = os.path.join(tmp, f"{game}-cli.grn")
                    first_games(games_file, args.cli, cli_file)
                    with tempfile.TemporaryDirectory() as cache:
                        turns, count = cli_counts(python, cli_file, cache)
                    rate = turns / count * 1e9
                    versus = f", {rate / chess_cli:.2f}x python-chess's plies" if chess_cli else ""
                    print(f"  grn validate of {args.cli} games as a command: {turns} turns, {count / 1e6:,.0f} M "
                          f"instructions, {rate:,.0f} turns a billion instructions{versus}")
        if args.startup or args.startup_only:
            files = case_files(tmp)
            for python in [sys.executable, *args.compare]:
                with tempfile.TemporaryDirectory() as cache:
                    counts = startup(python, cache, files)
                chess = counts.pop("python-chess import + read_game")
                print(f"start-up, whole processes ({python}): python-chess import + read_game {chess / 1e6:,.1f} M")
                for name, count in counts.items():
                    print(f"  {name}: {count / 1e6:,.1f} M instructions, {count / chess:.2f}x python-chess")


if __name__ == "__main__":
    main()
