"""Benchmark: grn validate versus python-chess reading PGN, on this machine, in one run.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/bench_validate.py [--games 300] [--chess-games 300] [--memory 10000]

grn side: N self-played 4-player Gold Rush games (random legal play, fixed
seeds; ``--game carcassonne [--options goldmines]`` plays Carcassonne) are written as one GRN file, then read and validated the way
``grn validate`` does (parse, replay every turn against the rules, score,
compare checkpoints and the Result tag).  The time is split into parsing,
rules (replaying turns) and final scoring.

Reference: ``chess.pgn.read_game`` (which parses SAN and checks every move's
legality) reading a PGN file of random chess games of about 80 plies each.

Printed: games/s and turns (plies)/s for both, the ratio grn/chess, and the
peak memory of validating a file of ``--memory`` games streaming in a fresh
process.

Target: `grn validate` at least 2.5x python-chess's PGN reading for Gold Rush (API and a 1,000-game CLI run), 2.0x for Carcassonne (Gold Mines) and Gold (docs/performance.md).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # the grn this Python has installed (compiled or not), else this checkout


def make_grn(games: int, players: int, seed0: int, game: str = "goldrush",
             options: str = "") -> tuple[str, float]:
    from grn import games as registry
    from grn.core.record import parse_options
    from grn.rules.selfplay import to_record
    from grn.notation.writer import write_record

    ruleset = registry.find_ruleset(game)
    opts = ruleset.parse_options(parse_options(options))
    t = time.perf_counter()
    parts = [write_record(to_record(ruleset.selfplay(players, seed0 + i, opts), seed=seed0 + i))
             for i in range(games)]
    return "\n".join(parts), time.perf_counter() - t


def make_pgn(games: int, plies: int, seed: int) -> str:
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    for i in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = f"random {i}"
        node: chess.pgn.GameNode = game
        while board.ply() < plies and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = board.result(claim_draw=False) if board.is_game_over() else "*"
        print(game, file=out, end="\n\n")
    return out.getvalue()


def bench_chess(pgn: str, repeat: int, cpu: list[float] | None = None) -> tuple[float, int, int]:
    """Best wall time, games and plies of reading ``pgn``; ``cpu`` gets the best CPU time."""
    import chess.pgn

    best = float("inf")
    games = plies = 0
    for _ in range(repeat):
        handle = io.StringIO(pgn)
        games = plies = 0
        c = time.process_time()
        t = time.perf_counter()
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
            if game.errors:
                raise SystemExit(f"python-chess found errors: {game.errors}")
        best = min(best, time.perf_counter() - t)
        if cpu is not None:
            cpu.append(time.process_time() - c)
    return best, games, plies


def bench_grn(text: str, repeat: int) -> dict[str, float]:
    from grn.notation import read as notation
    from grn.check.validate import validate_record

    best: dict[str, float] = {}
    for _ in range(repeat):
        # 1. whole job, as grn validate does it
        c = time.process_time()
        t = time.perf_counter()
        games = turns = invalid = 0
        for i, record in enumerate(notation.read(io.StringIO(text), file="bench.grn")):
            report = validate_record(record, file="bench.grn", index=i, keep_turns=False)
            games += 1
            turns += report.turns_played
            invalid += not report.valid
        total = time.perf_counter() - t
        cpu = time.process_time() - c
        if invalid:
            raise SystemExit(f"{invalid} self-played games did not validate")
        # 2. parsing alone
        t = time.perf_counter()
        records = list(notation.read(io.StringIO(text), file="bench.grn"))
        parse = time.perf_counter() - t
        # 3. rules alone (replaying turns), then final scoring alone
        rules, scoring = _replay_only(records)
        run = {"total": total, "cpu": cpu, "parse": parse, "rules": rules, "scoring": scoring,
               "games": games, "turns": turns}
        if not best or total < best["total"]:
            best = run
    return best


def _replay_only(records: list) -> tuple[float, float]:
    from grn import games as registry

    if records and records[0].tag("Game") not in (None, "goldrush"):
        # another game: its engine from its ruleset, the way grn validate sets it up
        ruleset = registry.find_ruleset(records[0].tag("Game"))
        rules = scoring = 0.0
        for r in records:
            turns = [(t.player, t.actions) for t in r.turns]
            t = time.perf_counter()
            state = ruleset.new_engine(r, list(r.seats()), None)
            for player, actions in turns:
                state.play_turn(player, actions)
            t2 = time.perf_counter()
            state.final_scoring()
            rules += t2 - t
            scoring += time.perf_counter() - t2
        return rules, scoring
    from grn.games.goldrush.rules import GoldRushState
    from grn.games.goldrush import load_tileset
    from grn.games.goldrush import parse_options as goldrush_options

    tileset = load_tileset()
    prepared = []
    for r in records:
        seats = [s.key for s in r.seats()]
        prepared.append((seats, goldrush_options(r.options()), [(t.player, t.actions) for t in r.turns]))
    rules = scoring = 0.0
    for seats, options, turns in prepared:
        t = time.perf_counter()
        state = GoldRushState.new(tileset, seats, options)
        for player, actions in turns:
            state.play_turn(player, actions)
        t2 = time.perf_counter()
        state.final_scoring()
        rules += t2 - t
        scoring += time.perf_counter() - t2
    return rules, scoring


def peak_memory(text: str, games: int) -> tuple[float, float]:
    """Validate a file of ``games`` games streaming in a fresh process; return (MB peak RSS, seconds)."""
    chunks = text.split("\n\n[Game ")
    with tempfile.NamedTemporaryFile("w", suffix=".grn", delete=False, encoding="utf-8") as fh:
        written = 0
        while written < games:
            for i, chunk in enumerate(chunks):
                if written >= games:
                    break
                fh.write(chunk if (i == 0) else "[Game " + chunk)
                fh.write("\n\n")
                written += 1
        path = fh.name
    size = os.path.getsize(path) / 1e6
    code = ("import sys, resource; sys.path.insert(0, %r)\n"
            "from grn.notation import read as notation\nfrom grn.check.validate import validate_record\n"
            "n = bad = 0\n"
            "for i, r in enumerate(notation.read(sys.argv[1])):\n"
            "    rep = validate_record(r, file=sys.argv[1], index=i, keep_turns=False); n += 1; bad += not rep.valid\n"
            "print(n, bad, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n") % str(ROOT)
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=True)
    secs = time.perf_counter() - t
    os.unlink(path)
    n, bad, rss_kb = (int(x) for x in out.stdout.split())
    if n != games or bad:
        raise SystemExit(f"memory run: {n} games read, {bad} invalid")
    print(f"  file: {games} games, {size:.1f} MB")
    return rss_kb / 1024, secs


def _child_cpu(argv: list[str]) -> tuple[float, str]:
    """CPU seconds (user + system) and standard output of one child process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime, out


def cli_ratio(text: str, games: int, plies: int, repeat: int) -> None:
    """``grn validate FILE`` of ``games`` games as a command against a script reading as many chess games with
    ``read_game``, start-up in both: two processes of the same kind, each run as a user would run it.

    The grn side is ``python -m grn validate FILE`` of the installed grn (compiled when the build is), the
    whole command (typer's entry, the reader, the rules, the report line a game); python-chess's side is
    ``python -c`` of a script that imports ``chess.pgn`` and reads every game of a PGN file of ``games``
    random games of ``plies`` plies (the same count of games, so that both start-ups weigh alike).
    """
    pgn = make_pgn(games, plies, seed=11)
    parts = text.split("\n\n[Game")
    part = parts[0] + "".join("\n\n[Game" + g for g in parts[1:games])
    with tempfile.TemporaryDirectory() as tmp:
        grn_file = Path(tmp) / "games.grn"
        grn_file.write_text(part, encoding="utf-8")
        pgn_file = Path(tmp) / "games.pgn"
        pgn_file.write_text(pgn, encoding="utf-8")
        from grn.notation import read as notation
        from grn.check.validate import validate_record

        turns = sum(validate_record(r, keep_turns=False).turns_played for r in notation.parse(part))
        chess_code = ("import sys, chess.pgn\nh = open(sys.argv[1], encoding='utf-8')\nn = 0\nwhile True:\n"
                      "    g = chess.pgn.read_game(h)\n    if g is None: break\n"
                      "    n += sum(1 for _ in g.mainline_moves())\nprint(n)\n")
        grn_cpu, chess_cpu, plies = [], [], 0
        version = _child_cpu([sys.executable, "-P", "-m", "grn", "--version"])[1].strip()
        print(f"as commands: {sys.executable} -m grn validate ({version}) against {sys.executable} -c "
              f"'import chess.pgn; read_game every game' of {games} games")
        # bytecode and grammar caches, as a user's second run has them; every game must be valid
        argv = [sys.executable, "-P", "-m", "grn", "validate", str(grn_file)]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        if subprocess.run(argv, capture_output=True, env=env).returncode != 0:
            raise SystemExit("grn validate found problems in the self-played games")
        _child_cpu([sys.executable, "-c", chess_code, str(pgn_file)])
        for _ in range(repeat):
            grn_cpu.append(_child_cpu(argv)[0])
            cpu, out = _child_cpu([sys.executable, "-c", chess_code, str(pgn_file)])
            chess_cpu.append(cpu)
            plies = int(out.split()[-1])
    g, c = turns / min(grn_cpu), plies / min(chess_cpu)
    print(f"as commands, start-up included: grn validate of {games} games ({turns} turns) {min(grn_cpu):.2f} s CPU, "
          f"{g:.0f} turns a CPU second; python-chess reading {plies} plies {min(chess_cpu):.2f} s CPU, "
          f"{c:.0f} plies a CPU second; ratio {g / c:.2f}")


def pure_python_rate(text: str, repeat: int) -> float:
    """Turns/s of the same validation run by a pure-Python copy of grn (no compiled modules), in a subprocess."""
    import shutil

    with tempfile.TemporaryDirectory() as tmp:
        pkg = Path(tmp) / "grn"
        shutil.copytree(ROOT / "grn", pkg, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        shutil.copytree(ROOT / "grammar", pkg / "grammar")
        shutil.copytree(ROOT / "schemas", pkg / "schemas")
        data = Path(tmp) / "games.grn"
        data.write_text(text, encoding="utf-8")
        code = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
                "from grn import _compiled; assert _compiled.status() == 'pure Python'\n"
                "from bench.bench_validate import bench_grn\n"
                "best = min((bench_grn(open(sys.argv[3], encoding='utf-8').read(), 1) for _ in range(int(sys.argv[4]))),"
                " key=lambda r: r['total'])\n"
                "print(best['turns'] / best['total'])\n")
        out = subprocess.run([sys.executable, "-c", code, tmp, str(ROOT), str(data), str(repeat)],
                             capture_output=True, text=True, check=True, cwd=tmp)
        return float(out.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="self-played games (4 players)")
    ap.add_argument("--game", default="goldrush", help="which game self-plays: goldrush (default) or carcassonne")
    ap.add_argument("--options", default="", help="the game's options, as its Options tag writes them")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--chess-games", type=int, default=300, help="random chess games for python-chess")
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    ap.add_argument("--memory", type=int, default=10000, help="games in the streaming memory run (0: skip)")
    ap.add_argument("--cli", type=int, default=0, metavar="N",
                    help="also time grn validate of a file of N games as a command, start-up included (and play at "
                    "least N games)")
    ap.add_argument("--pure", action="store_true", help="also time a pure-Python copy of grn (no compiled modules)")
    args = ap.parse_args()
    # the command runs over the first N of the games made here: as many as python-chess's side reads
    args.games = max(args.games, args.cli)

    import chess

    from grn import _compiled

    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}, {os.cpu_count()} cores, "
          f"grn {_compiled.status()}")
    text, gen = make_grn(args.games, args.players, seed0=1000, game=args.game, options=args.options)
    print(f"generated {args.games} self-played {args.players}-player {args.game} games"
          f"{' (' + args.options + ')' if args.options else ''} in {gen:.1f} s "
          f"({len(text) / 1e6:.2f} MB of GRN)")
    pgn = make_pgn(args.chess_games, args.plies, seed=7)

    # Interleave the two so that both see the same machine (its speed wanders).
    g: dict[str, float] = {}
    c_time = float("inf")
    g_cpu: list[float] = []
    c_cpu: list[float] = []
    for _ in range(args.repeat):
        run = bench_grn(text, 1)
        g_cpu.append(run["cpu"])
        if not g or run["total"] < g["total"]:
            g = run
        t, c_games, c_plies = bench_chess(pgn, 1, c_cpu)
        c_time = min(c_time, t)

    grn_tps = g["turns"] / g["total"]
    chess_pps = c_plies / c_time
    print()
    print(f"grn validate : {g['games'] / g['total']:8.1f} games/s  {grn_tps:9.0f} turns/s  "
          f"({g['games']:.0f} games, {g['turns']:.0f} turns, {g['total']:.2f} s)")
    print(f"python-chess : {c_games / c_time:8.1f} games/s  {chess_pps:9.0f} plies/s  "
          f"({c_games} games, {c_plies} plies, {c_time:.2f} s)")
    print(f"ratio grn turns/s : chess plies/s = {grn_tps / chess_pps:.2f} by wall time (best of {args.repeat}); "
          f"{(g['turns'] / min(g_cpu)) / (c_plies / min(c_cpu)):.2f} by CPU time "
          f"({g['turns'] / min(g_cpu):.0f} turns and {c_plies / min(c_cpu):.0f} plies a CPU second); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.cli:
        cli_ratio(text, args.cli, args.plies, args.repeat)
    per = 1e6 / g["turns"]
    print(f"where grn's time goes (per turn): parsing {g['parse'] * per:.1f} us, "
          f"rules {g['rules'] * per:.1f} us, final scoring {g['scoring'] * per:.1f} us, "
          f"whole validate {g['total'] * per:.1f} us")
    if args.pure:
        pure = pure_python_rate(text, args.repeat)
        print(f"grn pure Python: {pure:9.0f} turns/s (same games, a copy without compiled modules): "
              f"compiled is {grn_tps / pure:.1f}x faster")
    if args.memory:
        mb, secs = peak_memory(text, args.memory)
        print(f"streaming validate of {args.memory} games: peak RSS {mb:.0f} MB, {secs:.1f} s "
              f"({args.memory / secs:.0f} games/s)")


if __name__ == "__main__":
    main()
