"""Speed, stability and calibration of the bots and of ``grn analyse`` (figures in docs/analysis.md, docs/bots.md).

    nice .venv/bin/python bench/bench_bots.py speed            # playouts/s, playout vs validation, analyse times
    nice .venv/bin/python bench/bench_bots.py speed --gold-records   # Gold: three records' CPU and JSON digests
    nice .venv/bin/python bench/bench_bots.py speed --gold-records --compare OLD/.venv/bin/python   # before/after
    nice .venv/bin/python bench/bench_bots.py speed --gold-records --instructions 16 --compare OLD/.venv/bin/python
    nice .venv/bin/python bench/bench_bots.py speed --playout-games gold --only ""   # Gold's playouts/s alone
    nice .venv/bin/python bench/bench_bots.py stability --games 20
    nice .venv/bin/python bench/bench_bots.py calibrate        # points lost: real games, greedy and random self-play
    nice .venv/bin/python bench/bench_bots.py validity --games 3 --jobs 2   # the validity check, default level
    nice .venv/bin/python bench/bench_bots.py validity --games 2 --set grn.games.tiling.world.TileWorld.horizon=24
    .venv/bin/python bench/bench_bots.py validity-summary bench/results/validity-round7-*.jsonl
    nice .venv/bin/python bench/bench_bots.py validity --bots real --stand-in greedy --out STANDIN.jsonl
    .venv/bin/python bench/bench_bots.py validity-paired REAL.jsonl STANDIN.jsonl   # same positions
    nice .venv/bin/python bench/bench_bots.py validity --bots real --stand-in mcts --out MCTS.jsonl
    .venv/bin/python bench/bench_bots.py validity-paired MCTS.jsonl STANDIN.jsonl   # two bots, same positions

Every run prints the machine's load average beside its figures: the machine
is shared, and a figure means little without it.

Targets: the figures of docs/analysis.md and docs/bots.md (playouts a second, stability of the judgements, calibration) stay where those pages give them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grn  # noqa: E402
from grn import games  # noqa: E402
from grn.analysis.judge import analyse, replay  # noqa: E402
from grn.bots import make_bot  # noqa: E402
from ladder import apply_settings, restore_settings  # noqa: E402  (bench/ladder.py: --set, shared)
from grn.bots.arena import play_game  # noqa: E402
from grn.bots.search import evaluate  # noqa: E402
from grn.rules.selfplay import to_record  # noqa: E402
from grn.core.record import Turn  # noqa: E402
from grn.check.validate import validate_record  # noqa: E402
from grn.rules.world import rollout  # noqa: E402

GAMES = ("goldrush", "carcassonne", "gold")
OPTIONS = {"goldrush": None, "carcassonne": "goldmines", "gold": None}


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def _record(game: str, seed: int):
    ruleset = games.find_ruleset(game)
    from grn.core.record import parse_options

    opts = ruleset.parse_options(parse_options(OPTIONS[game] or ""))
    return to_record(ruleset.selfplay(2, seed, opts), seed=seed)


def _gold_records(folder: Path) -> list[Path]:
    """The three Gold records of round eight's speed figures: the shipped game, two random bots (the worst case:
    a move near a threshold every other turn) and greedy against random, deal and bots' seed 100."""
    ruleset = games.find_ruleset("gold")
    out = [ROOT / "examples" / "gold-2p.grn"]
    for name, bots in (("random", ("random", "random")), ("greedy-random", ("greedy", "random"))):
        game = play_game(ruleset, [make_bot(b, ruleset) for b in bots], 100, 100)
        path = folder / f"gold-{name}.grn"
        path.write_text(grn.write_record(game.record(seed=100)), encoding="utf-8")
        out.append(path)
    return out


def _callgrind(argv: list[str], cwd: str) -> int:
    """Instructions of one process under callgrind (``--dump-instr=no``: the total is all that is read)."""
    import re

    with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=no", f"--callgrind-out-file={out.name}",
                              *argv], cwd=cwd, capture_output=True, text=True, check=True)
    m = re.search(r"Collected : (\d+)", run.stderr)
    assert m is not None, f"callgrind wrote no summary: {run.stderr[-500:]}"
    return int(m.group(1))


def gold_records(args: argparse.Namespace) -> None:
    """CPU of ``grn analyse`` (default level, one process) of the three Gold records, and a digest of each JSON
    output: a change that claims to be for speed alone must leave the digests as they were.  ``--compare``
    runs another interpreter (an older checkout's virtual environment) beside this one, record by record, so
    that before and after share the machine's load; ``--instructions N`` counts each analysis at N playouts a
    move under callgrind instead (load-free)."""
    import hashlib

    pythons = [sys.executable] + list(args.compare)
    print(f"# Gold's analysis, three records ({load()}; compiled: {grn._compiled.stale() == [] and _is_compiled()})")
    with tempfile.TemporaryDirectory() as tmp:
        for path in _gold_records(Path(tmp)):
            turns = len(grn.parse(path.read_text(encoding="utf-8"))[0].turns)
            for python in pythons:
                out = Path(tmp) / "out.json"
                # run from the temporary folder: ``-m grn`` must import each interpreter's own grn
                argv = [python, "-m", "grn", "analyse", str(path), "--format", "json", "-o", str(out)]
                if args.instructions:
                    argv += ["--playouts", str(args.instructions)]
                    count = _callgrind(argv, tmp)
                    digest = hashlib.sha256(out.read_bytes()).hexdigest()[:16]
                    print(f"gold: {path.name} ({turns} turns), {python}: {count / 1e9:.2f} billion instructions "
                          f"at {args.instructions} playouts a move; JSON sha256 {digest}", flush=True)
                    continue
                usage = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(argv, check=True, cwd=tmp)
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime + after.ru_stime) - (usage.ru_utime + usage.ru_stime)
                digest = hashlib.sha256(out.read_bytes()).hexdigest()[:16]
                print(f"gold: {path.name} ({turns} turns), {python}: {cpu:.1f} s of CPU, {wall:.1f} s wall; "
                      f"JSON sha256 {digest} ({load()})", flush=True)


def speed(args: argparse.Namespace) -> None:
    if args.gold_records:
        gold_records(args)
        return
    print(f"# speed ({load()}; compiled: {grn._compiled.stale() == [] and _is_compiled()})")
    for game in ([] if args.analyse_only else args.playout_games.split(",")):
        ruleset = games.find_ruleset(game)
        record = _record(game, 1)
        _, seats, line = replay(record)
        # playouts per second: the analysis search at five positions through the game
        done, spent = 0, 0.0
        for turn, before in line[5::max(1, len(line) // 5)][:5]:
            if before is None:
                continue
            hand = ruleset.hand_of(turn.actions)
            played = ruleset.decision_of(before, turn.actions)
            start = time.process_time()
            est = evaluate(ruleset, before, hand, [played], seed=1, playouts=args.playouts)
            spent += time.process_time() - start
            done += sum(e.playouts for e in est)
        # a whole game of random moves from the start (a playout to the end) against validating a whole game
        start = time.process_time()
        n = 0
        for s in range(args.repeat):
            first = line[0][1]
            assert first is not None  # the game's opening position
            world = ruleset.determinise(first, random.Random(s))
            rollout(world, random.Random(s), 10_000)
            world.value()
            n += 1
        full = (time.process_time() - start) / n
        start = time.process_time()
        for _ in range(args.repeat):
            validate_record(record, keep_turns=False)
        check = (time.process_time() - start) / args.repeat
        print(f"{game}: {done / spent:.0f} playouts a CPU second (horizon {line[0][1] and ruleset.determinise(line[0][1], random.Random(0)).horizon} turns); "
              f"a whole random game {1000 * full:.1f} CPU ms against validating a {len(record.turns)}-turn game "
              f"{1000 * check:.1f} ms ({full / check:.1f}x)")
    with tempfile.TemporaryDirectory() as tmp:
        for game in [g for g in args.only.split(",") if g]:
            path = Path(tmp) / f"{game}.grn"
            path.write_text(grn.write_record(_record(game, 7)), encoding="utf-8")
            turns = len(grn.parse(path.read_text())[0].turns)
            for jobs in (1, 2):
                start = time.perf_counter()
                usage = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([sys.executable, "-m", "grn", "analyse", str(path), "--jobs", str(jobs),
                                "--format", "json", "-o", os.devnull], check=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime + after.ru_stime) - (usage.ru_utime + usage.ru_stime)
                print(f"{game}: grn analyse of a {turns}-turn 2-player game at the default level, --jobs {jobs}: "
                      f"{time.perf_counter() - start:.1f} s wall, {cpu:.1f} s of CPU in all ({load()})", flush=True)


def _is_compiled() -> bool:
    import grn.rules.engine

    return not grn.rules.engine.__file__.endswith(".py")


def stability(args: argparse.Namespace) -> None:
    print(f"# stability: {args.games} games of each, seeds 1 and 2, default level ({load()})")
    for game in args.only.split(","):
        both = either = 0
        for g in range(args.games):
            record = _record(game, 100 + g)
            flagged = []
            for seed in (1, 2):
                a = analyse(record, seed=seed)
                flagged.append({t.turn for t in a.turns if t.judgement in ("mistake", "blunder")})
                if args.out:  # every turn's loss and error, to judge again with other thresholds
                    with open(args.out, "a") as sink:
                        sink.write(json.dumps({"game": game, "record": g, "seed": seed, "turns": [
                            (t.turn, t.points_lost, t.lost_se, t.judgement) for t in a.turns]}) + "\n")
            both += len(flagged[0] & flagged[1])
            either += len(flagged[0] | flagged[1])
            print(f"  {game} game {g + 1}: {len(flagged[0])} and {len(flagged[1])} mistakes or worse, "
                  f"{len(flagged[0] & flagged[1])} in both", flush=True)
        share = both / either if either else 1.0
        print(f"{game}: the two runs agree on {100 * share:.0f}% of the moves judged mistake or worse "
              f"({both} of {either}) ({load()})", flush=True)


def _bot_record(game: str, bot: str, seed: int):
    ruleset = games.find_ruleset(game)
    return play_game(ruleset, [make_bot(bot, ruleset), make_bot(bot, ruleset)], seed, seed).record()


def calibrate(args: argparse.Namespace) -> None:
    print(f"# calibration: points lost per move at level {args.level} ({load()})")
    sources: dict[str, list] = {}
    real = [ROOT / "tests" / "data" / "bga-361578832.grn", ROOT / "examples" / "carcassonne" / "carcassonne-2p.grn",
            ROOT / "examples" / "goldrush-2p.grn", ROOT / "examples" / "gold-2p.grn"]
    for path in real:
        if path.exists():
            for record in grn.read(path):
                sources.setdefault(f"real {record.game}", []).append(record)
    for game in GAMES:
        for bot in ("greedy", "random"):
            sources[f"{bot} {game}"] = [_bot_record(game, bot, s) for s in range(args.games)]
    out = {}
    for name, records in sources.items():
        losses = []
        for record in records:
            a = analyse(record, level=args.level, seed=1)
            losses += [t.points_lost for t in a.turns]
        q = statistics.quantiles(losses, n=20) if len(losses) > 1 else [0.0] * 19
        out[name] = losses
        print(f"{name}: {len(losses)} moves, mean {statistics.mean(losses):.2f} points lost; "
              f"median {q[9]:.1f}, 75% {q[14]:.1f}, 90% {q[17]:.1f}, 95% {q[18]:.1f}", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(out))


def _validity_unit(name: str, source: Any, level: str | None, settings: tuple[str, ...] = ()) -> dict:
    """Analyse one record (``(file name, record)``, or the self-play game a ``(game, bot, seed)`` names, played
    here before the ``settings`` apply: the same game whatever the yardstick); its losses and the CPU seconds
    the analysis took."""
    label, record = source if len(source) == 2 else (f"seed {source[2]}", _bot_record(*source))
    before = apply_settings(list(settings))
    try:
        cpu = time.process_time()
        a = analyse(record, level=level, seed=1)
    finally:
        restore_settings(before)
    return {"source": name, "record": label, "losses": [t.points_lost for t in a.turns], "turns": len(a.turns),
            "cpu": round(time.process_time() - cpu, 2), "settings": list(settings), "load": os.getloadavg()[0],
            # each turn's move played, best move and the loss's standard error: to read the losses by kind of move
            "moves": [(t.played, t.best, round(t.lost_se, 2)) for t in a.turns]}


def _stand_in_unit(name: str, source: Any, level: str | None, settings: tuple[str, ...], bot: str) -> dict:
    """The moves ``bot`` would have played at each position of a real record (the player's tile in hand),
    each judged as the analysis judges the player's move there: the same position, the same seed, so the
    same worlds.  The analysis of turn k reads turns 1..k only (no cheating), so each of the bot's moves is
    analysed in the record cut after it."""
    label, record = source
    ruleset = games.find_ruleset(record_game(record))
    chooser = make_bot(bot, ruleset)
    _, _, line = replay(record)
    tags = tuple((k, v) for k, v in record.tags if k != "Result")
    stand_ins = []  # the bot chooses as it always does; only the judging is the variant's
    for turn, before in line:
        if before is not None:
            hand = ruleset.hand_of(turn.actions)
            decision = chooser.choose(before.copy(), random.Random(turn.number), hand)
            world = ruleset.determinise(before, random.Random(0), hand)
            stand_ins.append(Turn(turn.number, turn.player, tuple(world.commands(decision))))
    before_settings = apply_settings(list(settings))
    losses, moves, cpu = [], [], 0.0
    try:
        for stand_in in stand_ins:
            cut = record.replace(tags=tags, turns=tuple(t for t in record.turns
                                                                     if t.number < stand_in.number) + (stand_in,))
            start = time.process_time()
            a = analyse(cut, level=level, seed=1, only=[stand_in.number])
            cpu += time.process_time() - start
            (t,) = a.turns
            losses.append(t.points_lost)
            moves.append((t.played, t.best, round(t.lost_se, 2)))
    finally:
        restore_settings(before_settings)
    return {"source": name, "record": label, "losses": losses, "turns": len(losses), "cpu": round(cpu, 2),
            "settings": list(settings), "load": os.getloadavg()[0], "moves": moves}


def record_game(record: Any) -> str:
    """The game a record names (its Game tag)."""
    return dict(record.tags)["Game"]


def validity(args: argparse.Namespace) -> None:
    """Points lost per move at the default level: the real games, greedy and random self-play (the issue's
    validity check: real well below greedy, well below random; docs/dev/journal/analysis.md, "Validity")."""
    from concurrent.futures import ProcessPoolExecutor

    print(f"# validity: points lost per move, level {args.level or 'default'}, {args.games} self-play games "
          f"a bot{', ' + ' '.join(args.set) if args.set else ''} ({load()}, "
          f"{'compiled' if _is_compiled() else 'pure Python'})", flush=True)
    units: list[tuple[str, Any]] = []
    for game in args.only.split(","):
        # the real games between people: the Board Game Arena game and the Japanese championship's 2015 final
        real = {"carcassonne": sorted((ROOT / "tests" / "data").glob("bga-*.grn"))
                + sorted((ROOT / "tests" / "data").glob("japan-*.grn")),
                "goldrush": [ROOT / "examples" / "goldrush-2p.grn"], "gold": [ROOT / "examples" / "gold-2p.grn"]}
        for path in real.get(game, []) if "real" in args.bots.split(",") else []:
            if args.real not in path.name:
                continue
            for record in grn.read(path):
                units.append((f"real {game}", (path.name, record)))
        for bot in [b for b in args.bots.split(",") if b != "real"]:
            units += [(f"{bot} {game}", (game, bot, s)) for s in range(args.games)]
    out: dict[str, list[dict]] = {}
    if args.stand_in:  # the bot's moves at the real games' positions, judged there (docs/analysis.md, round seven)
        units = [(f"{args.stand_in} at real positions", u[1]) for u in units if u[0].startswith("real")]
        work: Any = (_stand_in_unit, [u[0] for u in units], [u[1] for u in units], [args.level] * len(units),
                     [tuple(args.set)] * len(units), [args.stand_in] * len(units))
    else:
        work = (_validity_unit, [u[0] for u in units], [u[1] for u in units], [args.level] * len(units),
                [tuple(args.set)] * len(units))
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(*work):
            out.setdefault(r["source"], []).append(r)
            if args.out:
                with open(args.out, "a") as sink:
                    sink.write(json.dumps(r) + "\n")
    for name, rs in out.items():
        losses = [x for r in rs for x in r["losses"]]
        mean = statistics.mean(losses)
        se = statistics.stdev(losses) / len(losses) ** 0.5 if len(losses) > 1 else 0.0
        cpu = statistics.mean(r["cpu"] / max(1, r["turns"]) * 72 for r in rs)
        print(f"{name}: {len(rs)} games, {len(losses)} moves, {mean:.2f} ± {se:.2f} points lost a move; "
              f"analysis {cpu:.1f} CPU s per 72 turns", flush=True)
    print(f"# done ({load()})")


def _mean_se(xs: list[float]) -> tuple[float, float]:
    mean = statistics.mean(xs)
    return mean, (statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0)


def validity_summary(args: argparse.Namespace) -> None:
    """The lines ``validity --out`` wrote, one table row per file and source (each real game on its own row
    too), and the gaps the issue's order asks for (real - greedy, random - real) with their standard errors
    (the moves taken as independent)."""
    print("| file | variant | source | records | moves | points lost a move | CPU s per 72 turns |")
    print("|---|---|---|---|---|---|---|")
    gaps = []
    for path in args.files:
        rows: dict[str, list[dict]] = {}
        for line in Path(path).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                rows.setdefault(r["source"], []).append(r)
                if r["source"].startswith("real") and "record" in r:
                    rows.setdefault(f"{r['source']} ({r['record']})", []).append(r)
        if sum(1 for name in rows if name.startswith("real ")) == 2:  # one real game: its own row says it all
            rows = {name: rs for name, rs in rows.items() if "(" not in name}
        stats = {}
        for name, rs in rows.items():
            losses = [x for r in rs for x in r["losses"]]
            stats[name] = _mean_se(losses)
            cpu = statistics.mean(r["cpu"] / max(1, r["turns"]) * 72 for r in rs)
            variant = " ".join(s.rpartition(".")[2] for s in rs[0].get("settings", [])) or "default"
            print(f"| {Path(path).name} | {variant} | {name} | {len(rs)} | {len(losses)} | "
                  f"{stats[name][0]:.2f} ± {stats[name][1]:.2f} | {cpu:.1f} |")
        kinds = {name.split()[0]: stat for name, stat in stats.items() if "(" not in name}
        if "greedy" not in kinds:
            continue
        g, gse = kinds["greedy"]
        for name, (r, rse) in stats.items():
            if not name.startswith("real"):
                continue
            line = (f"{Path(path).name}, {name}: real - greedy {r - g:+.2f} ± {(rse ** 2 + gse ** 2) ** 0.5:.2f} "
                    f"(real / greedy {r / g if g else math.inf:.2f})")
            if "random" in kinds:
                q, qse = kinds["random"]
                line += f"; random - real {q - r:+.2f} ± {(rse ** 2 + qse ** 2) ** 0.5:.2f}"
            gaps.append(line)
    print("\n".join(gaps))


def validity_paired(args: argparse.Namespace) -> None:
    """The loss of one player less another's at the same positions of each real game, turn by turn, by thirds
    of the game too: the players (``validity --bots real --out``) or a stand-in bot (``validity --stand-in BOT
    --out``) on either side, judged by the same variant (``validity-paired MCTS.jsonl GREEDY.jsonl``: the mcts
    bot against the greedy bot on the players' positions)."""
    def real(path: str) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for line in Path(path).read_text().splitlines():
            r = json.loads(line) if line.strip() else None
            # a real game's record or a stand-in's on it (a self-play line names its seed: no position in common)
            if r and "record" in r and (r["source"].startswith("real") or "real positions" in r["source"]):
                out.setdefault(r["record"], r)
        return out
    players, bots = real(args.real), real(args.stand_in)
    every = []
    for label in sorted(set(players) & set(bots)):
        x, y = players[label]["losses"], bots[label]["losses"]
        d = [a - b for a, b in zip(x, y)]
        every += d
        thirds = "; ".join(f"turns {lo + 1}-{lo + len(d[lo:lo + 24])}: {_mean_se(d[lo:lo + 24])[0]:+.2f} ± "
                           f"{_mean_se(d[lo:lo + 24])[1]:.2f}" for lo in (0, 24, 48) if len(d[lo:lo + 24]) > 1)
        first, second = players[label]["source"], bots[label]["source"]
        print(f"{label}: {first} {statistics.mean(x):.2f}, {second} {statistics.mean(y):.2f}; "
              f"difference {_mean_se(d)[0]:+.2f} ± {_mean_se(d)[1]:.2f} ({thirds}); the second lost less on "
              f"{sum(a > b for a, b in zip(x, y))} turns, the first on {sum(a < b for a, b in zip(x, y))}")
    if len(every) > 1:
        print(f"all: first - second {_mean_se(every)[0]:+.2f} ± {_mean_se(every)[1]:.2f} over {len(every)} turns")


def enumerate_(args: argparse.Namespace) -> None:
    """CPU time of listing every decision of the player to move, at every position of seeded self-played games:
    the bots' own list (``World.moves``, on the hot path of self-play and analysis) and the walk of the game's
    tree of choices (``World.tree_moves``, docs/design.md), which lists the same decisions."""
    print(f"# enumerate ({load()}; compiled: {_is_compiled()})")
    for game in args.only.split(","):
        ruleset = games.find_ruleset(game)
        fast = tree = 0.0
        positions = decisions = 0
        for seed in range(1, args.games + 1):
            _, _, line = replay(_record(game, seed))
            for turn, before in line:
                if before is None or before.is_over:
                    continue
                world = ruleset.determinise(before, random.Random(seed), ruleset.hand_of(turn.actions))
                start = time.process_time()
                moves = world.moves()
                fast += time.process_time() - start
                start = time.process_time()
                walked = world.tree_moves()
                tree += time.process_time() - start
                assert set(moves) == set(walked), f"{game} seed {seed} turn {turn.number}: the lists differ"
                positions += 1
                decisions += len(moves)
        print(f"{game} ({OPTIONS[game] or 'default options'}): {positions} positions, {decisions / positions:.0f} "
              f"decisions a position; World.moves {1000 * fast / positions:.2f} CPU ms a position, the tree's walk "
              f"{1000 * tree / positions:.1f} ms ({tree / fast:.0f}x)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--playouts", type=int, default=200)
    sp.add_argument("--repeat", type=int, default=5)
    sp.add_argument("--analyse-only", action="store_true", help="only the times of grn analyse")
    sp.add_argument("--only", default=",".join(GAMES), help="the games whose analysis is timed")
    sp.add_argument("--playout-games", default=",".join(GAMES), help="the games whose playouts are timed")
    sp.add_argument("--gold-records", action="store_true",
                    help="only the CPU and output digests of grn analyse of the three Gold records of round eight")
    sp.add_argument("--compare", action="append", default=[], metavar="PYTHON",
                    help="with --gold-records: another interpreter (an older checkout's venv) run beside this one")
    sp.add_argument("--instructions", type=int, default=0, metavar="N",
                    help="with --gold-records: callgrind's instructions of each analysis at N playouts a move")
    st = sub.add_parser("stability")
    st.add_argument("--games", type=int, default=20)
    st.add_argument("--only", default=",".join(GAMES))
    st.add_argument("--out", help="append every turn's loss and standard error here (JSON lines)")
    ca = sub.add_parser("calibrate")
    ca.add_argument("--games", type=int, default=3)
    ca.add_argument("--level", default="quick")
    ca.add_argument("--out")
    va = sub.add_parser("validity")
    va.add_argument("--games", type=int, default=3, help="self-play games per bot and game")
    va.add_argument("--level", default=None, help="the analysis level (default: the default level)")
    va.add_argument("--only", default="carcassonne")
    va.add_argument("--jobs", type=int, default=1)
    va.add_argument("--stand-in", metavar="BOT", help="judge BOT's move at every position of the real games "
                    "instead of the players' (the same positions and worlds: who plays better there)")
    va.add_argument("--real", default="", help="only the real games whose file names hold this text")
    va.add_argument("--bots", default="real,greedy,random", help="what is analysed: real (the real games) and "
                    "the bots whose self-play (mcts too: the yardstick should rate the stronger bot's moves better)")
    va.add_argument("--out", help="append each record's losses here (JSON lines)")
    va.add_argument("--set", action="append", default=[], metavar="MODULE.ATTR=VALUE",
                    help="a variant of the yardstick, set in every worker after the self-play games are played "
                    "(repeatable), e.g. grn.games.tiling.world.TileWorld.horizon=24")
    vs = sub.add_parser("validity-summary", help="the table of validity runs (their --out files)")
    vs.add_argument("files", nargs="+")
    vp = sub.add_parser("validity-paired", help="two players (the real players or stand-in bots) at the same "
                        "positions")
    vp.add_argument("real", help="validity --out of the real games, or of a stand-in bot")
    vp.add_argument("stand_in", help="validity --stand-in BOT --out of the same variant")
    en = sub.add_parser("enumerate", help="a turn's decisions: the bots' list against the walk of the tree of choices")
    en.add_argument("--games", type=int, default=2, help="self-played games per game (seeds 1..N)")
    en.add_argument("--only", default=",".join(GAMES))
    args = ap.parse_args()
    {"speed": speed, "enumerate": enumerate_, "stability": stability, "calibrate": calibrate, "validity": validity,
     "validity-summary": validity_summary, "validity-paired": validity_paired}[args.what](args)


if __name__ == "__main__":
    main()
