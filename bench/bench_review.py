"""How far a strong player can trust the review: the diagnostics of the engine's round two (docs/analysis.md).

    nice .venv/bin/python bench/bench_review.py run --jobs 2 --out review.jsonl            # real games, seeds 1 and 2
    nice .venv/bin/python bench/bench_review.py run --jobs 2 --level classic --out classic.jsonl  # round one's engine
    .venv/bin/python bench/bench_review.py summary review.jsonl
    nice .venv/bin/python bench/bench_review.py balance --games 10 --jobs 2   # luck + skill = margin - expectation?
    nice .venv/bin/python bench/bench_review.py balance --only gold --games 12 --examples   # Gold's cards (R455)
    nice .venv/bin/python bench/bench_review.py balance --only carcassonne --games 0 --level normal --jobs 2  # R511
    nice .venv/bin/python bench/bench_review.py marks review.jsonl   # each mistake mark, judged to the end
    nice .venv/bin/python bench/bench_review.py marks --which farmer-now review.jsonl   # each "farmer now" turn (R507)
    nice .venv/bin/python bench/bench_review.py marks --which greedy --rounds 300 review.jsonl   # players - greedy (R508)

``run`` analyses every real game (tests/data: the Board Game Arena games and the Japan 2015 final; the
Gold Rush and Gold examples with ``--only``) twice, with seeds 1 and 2, and lets the greedy bot choose in the
player's place at every position, its move judged as the player's is there (seed 1: the same worlds).  Each
turn's line holds the loss, its standard error, the judgement, the win chances, whether the best move and the
move played put a follower that stays to the end (a farmer) and whether the best move was named.  ``summary``
prints the issue's figures:

* points lost a move, players and greedy at the same positions, and their paired difference;
* the share of the players' points lost and of their marks on turns where the best move places a farmer and
  the player did not ("farmer now");
* whether the player who lost fewer points won, and the slope of the final margin on the difference in points
  lost (over the games: few real games, a wide interval);
* seed agreement: the best move named by seed 1 named alike by seed 2, and mistake marks kept.

``--level classic`` measures the engine of round one (no learned evaluation) on the same positions: the baseline.
Every run prints the machine's load beside its figures.

Target: the review's diagnostics on the real games (docs/analysis.md): points lost a move against greedy self-play, the luck + skill balance.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grn  # noqa: E402
import grn.games  # noqa: E402
from grn.analysis.judge import analyse, replay, ruleset_thresholds  # noqa: E402
from grn.bots.search import evaluate, paired_difference  # noqa: E402
from grn.bots import make_bot  # noqa: E402
from grn.rules.position import play_record_turn  # noqa: E402
from grn.core.record import Turn  # noqa: E402
from grn.rules.ruleset import engine_for  # noqa: E402
from ladder import apply_settings  # noqa: E402  (bench/ladder.py: --set, shared)

#: Where a run's files go by default (kept out of the tree: bench/results is ignored by git).
RESULTS = Path(__file__).resolve().parent / "results"

REAL = {"carcassonne": ["tests/data/bga-*.grn", "tests/data/japan-*.grn"],
        "goldrush": ["examples/goldrush-2p.grn"], "gold": ["examples/gold-2p.grn"]}
#: The other whole games of examples/ (``balance --examples``).
EXAMPLES = {"carcassonne": ["examples/carcassonne/carcassonne-2p.grn", "examples/carcassonne/carcassonne-3p-goldmines.grn"],
            "goldrush": ["examples/goldrush-4p-farmers.grn", "examples/goldrush-first-game.grn"],
            "gold": ["examples/gold-3p-match.grn"]}


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def permanent(ruleset: Any, before: Any, hand: tuple[Any, ...], actions: tuple[Any, ...] | None) -> bool:
    """Whether ``actions`` put a follower that stays to the end (the world's permanent kind: a farmer)."""
    if not actions:
        return False
    world = ruleset.determinise(before, random.Random(0), hand)
    kind = getattr(world, "permanent_kind", None)
    if kind is None:
        return False
    had = dict(world.pieces_on_board())
    try:
        world.play_commands(tuple(actions))
    except Exception:  # noqa: BLE001  (a bench: a move that does not replay is not a farmer)
        return False
    kinds = world.tiles.board.kind
    return any(sid not in had and kinds[sid] == kind for sid in world.pieces_on_board())


def stand_in_commands(chooser: Any, ruleset: Any, at: Any, turn: Turn, hand: tuple[Any, ...]) -> tuple[Any, ...]:
    """The stand-in bot's move at the position before ``turn``, as the record's commands (seeded by the turn's
    number, so ``run`` and ``marks --which greedy`` choose the same move)."""
    decision = chooser.choose(at.copy(), random.Random(turn.number), hand)
    return tuple(ruleset.determinise(at, random.Random(0), hand).commands(decision))


def run_record(r: dict) -> tuple[Any, Any, dict[int, tuple[Turn, Any]]]:
    """A run's line read back: its record, ruleset, and each turn with the position before it."""
    name, _, index = r["record"].partition("#")
    path = next(p for pattern in REAL[r["game"]] for p in ROOT.glob(pattern) if p.name == name)
    record = list(grn.read(path))[int(index)]
    ruleset, _, line = replay(record)
    return record, ruleset, {turn.number: (turn, before) for turn, before in line if before is not None}


def race_to_the_end(ruleset: Any, before: Any, hand: tuple[Any, ...], first: Any, second: Any,
                    args: argparse.Namespace) -> tuple[float, float]:
    """What ``first`` is worth more than ``second`` (and its error) on ``--rounds`` shared worlds whose playouts
    go to the last tile: no horizon, so no evaluation, the final scores.  The players are the review's
    (R516: the playouts that fight for fields), or with ``--players game`` the game's own quick players (R508's
    races, before the review's playouts were its own)."""
    est = evaluate(ruleset, before, hand, [first, second], seed=args.seed, playouts=2 * args.rounds,
                   keep=[first, second], horizon=10_000, review=args.players == "review")
    return paired_difference(est[0], est[1])


def unit(path: str, index: int, seeds: tuple[int, ...], stand_in: str | None, level: str | None,
         settings: tuple[str, ...] = ()) -> dict:
    """One record: its analysis with each seed, and the stand-in's moves judged at its positions (seed 1)."""
    apply_settings(list(settings))
    record = list(grn.read(path))[index]
    ruleset, seats, line = replay(record)
    out: dict[str, Any] = {"record": f"{Path(path).name}#{index}", "game": ruleset.name,
                           "level": level, "load": os.getloadavg()[0]}
    # the final scores, by replaying the record to its end
    engine = engine_for(ruleset, record, seats)
    for turn in record.turns:
        play_record_turn(engine, seats, turn)
    if not getattr(engine, "final_done", False) and engine.is_over:
        engine.final_scoring()
    out["final"] = dict(engine.scores)
    befores = {turn.number: before for turn, before in line if before is not None}
    for seed in seeds:
        cpu = time.process_time()
        a = analyse(record, level=level, seed=seed)
        rows = []
        for t in a.turns:
            turn = next(x for x in record.turns if x.number == t.turn)
            before = befores[t.turn]
            hand = ruleset.hand_of(turn.actions)
            rows.append({"turn": t.turn, "player": t.player, "lost": t.points_lost, "se": t.lost_se,
                         "judgement": t.judgement, "best": t.best, "played": t.played,
                         "named": t.best_named, "equal": list(t.equal),
                         "win_played": getattr(t, "win_played", None), "win_best": getattr(t, "win_best", None),
                         "best_farmer": t.best_actions is not None and permanent(ruleset, before, hand, t.best_actions),
                         "played_farmer": permanent(ruleset, before, hand, turn.actions)})
        out[f"seed{seed}"] = rows
        out[f"cpu{seed}"] = round(time.process_time() - cpu, 1)
    if stand_in:
        chooser = make_bot(stand_in, ruleset)
        tags = tuple((k, v) for k, v in record.tags if k != "Result")
        losses = []
        for turn, at in line:
            if at is None:
                continue
            hand = ruleset.hand_of(turn.actions)
            mine = Turn(turn.number, turn.player, stand_in_commands(chooser, ruleset, at, turn, hand))
            cut = record.replace(tags=tags, turns=tuple(x for x in record.turns if x.number < turn.number) + (mine,))
            (t,) = analyse(cut, level=level, seed=seeds[0], only=[turn.number]).turns
            losses.append(t.points_lost)
        out["stand_in"] = {"bot": stand_in, "losses": losses}
    return out


def run(args: argparse.Namespace) -> None:
    print(f"# review diagnostics: level {args.level or 'default'}, seeds {args.seeds} ({load()})", flush=True)
    units = []
    for game in args.only.split(","):
        for pattern in REAL.get(game, []):
            for path in sorted(ROOT.glob(pattern)):
                if args.real and args.real not in path.name:
                    continue
                for i, _ in enumerate(grn.read(path)):
                    units.append((str(path), i))
    seeds = tuple(int(s) for s in args.seeds.split(","))
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(unit, p, i, seeds, args.stand_in or None, args.level, tuple(args.set)) for p, i in units]
        for f in futures:
            try:
                r = f.result()
            except ValueError as error:  # a --set that names what the game does not ship: one line, not a trace
                pool.shutdown(cancel_futures=True)
                raise SystemExit(f"bench_review.py: {error}")
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            with open(args.out, "a") as sink:
                sink.write(json.dumps(r) + "\n")
            print(f"{r['record']}: cpu {[r.get(f'cpu{s}') for s in seeds]}", flush=True)
    print(f"# done ({load()})")


def _balance_unit(game: str, deal: int, level: str) -> dict:
    """One self-played game (``mcts:quick`` against ``greedy``, seats by the deal) analysed whole: each player's
    balance (R336)."""
    from grn.bots.arena import play_game

    ruleset = grn.games.find_ruleset(game)
    bots = [make_bot("mcts:quick", ruleset), make_bot("greedy", ruleset)]
    if deal % 2:
        bots.reverse()
    record = play_game(ruleset, bots, 7_000 + deal, deal).record()
    a = analyse(record, level=level, seed=1)
    return {"game": game, "deal": deal, "balance": [b.__reduce__()[1] for b in a.balances]}


def _real_balance(path: str, index: int, level: str) -> list[tuple[str, tuple[Any, ...], float]]:
    """One real record analysed whole (seed 1): each player's balance (R336, R410), with the analysis's CPU."""
    record = list(grn.read(path))[index]
    cpu = time.process_time()
    a = analyse(record, level=level, seed=1)
    used = time.process_time() - cpu
    return [(f"real {Path(path).name}#{index}", b.__reduce__()[1], used) for b in a.balances]


def _edge_and_skill(real: list[tuple[Any, ...]]) -> None:
    """R511: over the real games' player-games, how the balance's edge (what the positions offered beyond a quick
    player's move), the skill (points lost, the opponents' less the player's) and the margin go together.  Every
    player's row is kept: in a two-player game the rows mirror each other, so the figure does not depend on which
    seat is read (one seat's rows alone would give another figure for each choice of seats)."""
    if len(real) < 3:
        return
    margin = [float(f[1]) for f in real]
    skill = [float(f[4]) for f in real]
    edge = [float(f[7]) if len(f) > 7 else 0.0 for f in real]
    gained = [a + b for a, b in zip(skill, edge)]
    try:
        print(f"over {len(real)} real player-games, correlation: skill and edge {statistics.correlation(skill, edge):+.2f}; "
              f"margin and skill {statistics.correlation(margin, skill):+.2f}; margin and edge "
              f"{statistics.correlation(margin, edge):+.2f}; margin and skill + edge "
              f"{statistics.correlation(margin, gained):+.2f}")
    except statistics.StatisticsError:  # a constant column (every edge zero): nothing to say
        return


def balance_run(args: argparse.Namespace) -> None:
    """Luck + skill against the margin less the expectation, over the real games and self-played ones."""
    print(f"# balance: level {args.level}, {args.games} self-played games a game ({load()})", flush=True)
    rows: list[tuple[str, tuple[Any, ...]]] = []
    cpus: list[tuple[str, float, int]] = []
    for game in args.only.split(","):
        units = [(str(path), i) for pattern in REAL.get(game, []) + (EXAMPLES.get(game, []) if args.examples else [])
                 for path in sorted(ROOT.glob(pattern)) for i, _ in enumerate(grn.read(path))]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for got in pool.map(_real_balance, [u[0] for u in units], [u[1] for u in units],
                                [args.level] * len(units)):
                rows += [(name, b) for name, b, _ in got]
                for name, b, used in got:  # as they come: a long run's figures are not lost to a late failure
                    print(f"{name}: {b} (analysis CPU {used:.1f} s)", flush=True)
                if got:
                    cpus.append((got[0][0], got[0][2], 0))
            for r in pool.map(_balance_unit, [game] * args.games, range(args.games), [args.level] * args.games):
                rows += [(f"self-play {game} {r['deal']}", tuple(b)) for b in r["balance"]]
    inside = inside2 = 0
    for name, fields in rows:
        player, m, expected, luck, skill, rest, se = fields[:7]
        edge = fields[7] if len(fields) > 7 else 0.0  # R410's edge (R336's balance had none)
        inside += abs(rest) <= se
        inside2 += abs(rest) <= 2 * se
        print(f"{name} {player}: margin {m:+.0f} = expected {expected:+.1f} + luck {luck:+.1f} + skill {skill:+.1f} "
              f"+ edge {edge:+.1f} + rest {rest:+.1f} (± {se:.1f})")
    for name, used, _ in cpus:
        print(f"{name}: analysis CPU {used:.1f} s")
    _edge_and_skill([fields for name, fields in rows if name.startswith("real ")])
    n = max(1, len(rows))
    print(f"luck + skill = margin - expectation within one standard error: {inside} of {len(rows)} player-games "
          f"({100 * inside / n:.0f}%), within two: {inside2} ({100 * inside2 / n:.0f}%) ({load()})")


def _mean_se(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return float("nan"), float("nan")
    m = statistics.mean(xs)
    return m, (statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0)


def summary(args: argparse.Namespace) -> None:
    rs = [json.loads(x) for f in args.files for x in Path(f).read_text().splitlines() if x.strip()]
    for game in sorted({r["game"] for r in rs}):
        mine = [r for r in rs if r["game"] == game]
        rows = [t for r in mine for t in r["seed1"]]
        lost = [t["lost"] for t in rows]
        m, se = _mean_se(lost)
        marks = [t for t in rows if t["judgement"] in ("mistake", "blunder")]
        farm = [t for t in rows if t["best_farmer"] and not t["played_farmer"]]
        print(f"## {game}: {len(mine)} records, {len(rows)} moves")
        print(f"players lose {m:.2f} ± {se:.2f} a move; mistake or worse on {len(marks)} moves "
              f"({100 * len(marks) / max(1, len(rows)):.1f}%)")
        print(f"farmer now: {len(farm)} turns, {100 * sum(t['lost'] for t in farm) / max(1e-9, sum(lost)):.0f}% of "
              f"points lost, {sum(1 for t in marks if t in farm)} of {len(marks)} marks; best move places a "
              f"farmer on {sum(t['best_farmer'] for t in rows)} turns, the players on "
              f"{sum(t['played_farmer'] for t in rows)}")
        paired = []
        for r in mine:
            if "stand_in" in r:
                paired += [a["lost"] - b for a, b in zip(r["seed1"], r["stand_in"]["losses"])]
        if paired:
            pm, pse = _mean_se(paired)
            gm, gse = _mean_se([x for r in mine for x in r["stand_in"]["losses"]])
            print(f"greedy at the same positions loses {gm:.2f} ± {gse:.2f}; players - greedy {pm:+.2f} ± {pse:.2f} "
                  f"over {len(paired)} turns")
        # results: did the player who lost fewer points win?
        agree = 0
        xs, ys = [], []
        for r in mine:
            players = sorted({t["player"] for t in r["seed1"]})
            if len(players) != 2:
                continue
            a, b = players
            la = sum(t["lost"] for t in r["seed1"] if t["player"] == a)
            lb = sum(t["lost"] for t in r["seed1"] if t["player"] == b)
            fa, fb = r["final"].get(a, 0), r["final"].get(b, 0)
            if (la < lb) == (fa > fb) and fa != fb:
                agree += 1
            xs.append(lb - la)
            ys.append(fa - fb)
        if xs:
            print(f"the player who lost fewer points won {agree} of {len(xs)} games; margins {ys}, "
                  f"loss differences {[round(x, 1) for x in xs]}")
            if len(xs) > 2 and statistics.pvariance(xs) > 0:
                slope = statistics.covariance(xs, ys) / statistics.variance(xs)
                print(f"slope of the final margin on the difference in points lost: {slope:.2f}")
        seeds = sorted(k for k in mine[0] if k.startswith("seed"))
        if len(seeds) > 1:
            same = among = shown = kept = marked = 0
            for r in mine:
                for a, b in zip(r[seeds[0]], r[seeds[1]]):
                    if a["named"] and a["best"] != a["played"]:
                        shown += 1
                        same += a["best"] == b["best"]
                        # seed 2 names it, or finds it as good as its best (R334)
                        among += a["best"] == b["best"] or a["best"] in b.get("equal", ())
                    if a["judgement"] in ("mistake", "blunder"):
                        marked += 1
                        kept += b["judgement"] in ("mistake", "blunder")
            print(f"seed agreement: a best move shown on {shown} turns; seed 2's best the same on {same} "
                  f"({100 * same / max(1, shown):.0f}%), the same or among its equals on {among} "
                  f"({100 * among / max(1, shown):.0f}%); mistake marks kept {kept} of {marked}")
        cpu = [r.get("cpu1", 0) / max(1, len(r["seed1"])) * 72 for r in mine]
        print(f"CPU a 72-turn analysis: {statistics.mean(cpu):.1f} s (load at the time {mine[0]['load']:.1f})")


def _greedy_to_the_end(r: dict, args: argparse.Namespace) -> list[tuple[float, float, float]]:
    """``marks --which greedy`` for one record: at every position, the greedy bot's move (chosen as ``run``
    chooses it) against the move played, raced to the end of the game on shared worlds.  Each turn: the review's
    players - greedy (the run's two losses) and the same difference to the end, with its error."""
    _, ruleset, befores = run_record(r)
    chooser = make_bot(r["stand_in"]["bot"], ruleset)
    out = []
    for t, greedy_lost in zip(r["seed1"], r["stand_in"]["losses"]):
        turn, before = befores[t["turn"]]
        hand = ruleset.hand_of(turn.actions)
        greedy = ruleset.decision_of(before, stand_in_commands(chooser, ruleset, before, turn, hand))
        played = ruleset.decision_of(before, turn.actions)
        end, se = (0.0, 0.0) if greedy == played else race_to_the_end(ruleset, before, hand, greedy, played, args)
        out.append((t["lost"] - greedy_lost, end, se))
    print(f"{r['record']}: {len(out)} turns; the review {statistics.mean(a for a, _, _ in out):+.2f}, "
          f"to the end {statistics.mean(b for _, b, _ in out):+.2f}", flush=True)
    return out


def marks(args: argparse.Namespace) -> None:
    """Each mistake mark of a run (seed 1) judged again with playouts to the end of the game: is it still one?

    The move played and the best move race on ``--rounds`` shared worlds, each playout played by the game's
    quick players to the last tile (no horizon, so no evaluation at a horizon: the final scores), and the paired
    difference is the loss to the end.  A mark is kept when that loss is still at least the mistake threshold.
    ``--which farmer-now`` judges so every turn where the best move places a farmer and the player did not (R507),
    ``--which greedy`` every turn's move against the greedy bot's in the player's place (R508).
    """
    apply_settings(list(args.set))

    def verdict(loss: float, se: float, threshold: float) -> str:  # a mark is kept or not; a farm is a loss or not
        if args.which == "marks":
            return "kept" if loss >= threshold else "not kept"
        return "clearly a loss" if loss - 2 * se > 0 else "not clearly a loss"

    rs = [json.loads(x) for f in args.files for x in Path(f).read_text().splitlines() if x.strip()]
    kept = total = clear = 0
    losses: list[tuple[float, float, float]] = []  # (at the horizon, to the end, its error)
    pairs: list[tuple[float, float, float]] = []  # --which greedy: (the review's, to the end, its error)
    for r in rs:
        if args.which == "greedy":
            pairs.extend(_greedy_to_the_end(r, args))
            continue
        if args.which == "farmer-now":  # the best move places a farmer and the player did not (the table)
            marked = [t for t in r["seed1"] if t["best_farmer"] and not t["played_farmer"]]
        else:
            marked = [t for t in r["seed1"] if t["judgement"] in ("mistake", "blunder")]
        if not marked:
            continue
        record, ruleset, befores = run_record(r)
        threshold = ruleset_thresholds(ruleset).mistake
        for t in marked:
            turn, before = befores[t["turn"]]
            hand = ruleset.hand_of(turn.actions)
            (again,) = analyse(record, level=args.level, seed=1, only=[turn.number]).turns
            if again.best_actions is None:
                continue
            played = ruleset.decision_of(before, turn.actions)
            best = ruleset.decision_of(before, again.best_actions)
            cpu = time.process_time()
            loss, se = race_to_the_end(ruleset, before, hand, best, played, args)
            total += 1
            kept += loss >= threshold
            clear += loss - 2 * se > 0
            losses.append((t["lost"], loss, se))
            print(f"{r['record']} turn {t['turn']} {t['player']}: {t['judgement']} {t['lost']:.1f} at the horizon; "
                  f"to the end {loss:+.1f} ± {se:.1f} ({verdict(loss, se, threshold)}; "
                  f"{time.process_time() - cpu:.1f} CPU s)", flush=True)
    if args.which == "greedy":
        n = len(pairs)
        review = [a for a, _, _ in pairs]
        to_end = [b for _, b, _ in pairs]
        print(f"players - greedy at the same positions, {n} turns: the review {statistics.mean(review):+.2f} "
              f"± {statistics.stdev(review) / math.sqrt(n):.2f} (at its horizon), playouts to the end "
              f"{statistics.mean(to_end):+.2f} ± {statistics.stdev(to_end) / math.sqrt(n):.2f} ({load()})")
        return
    if args.which == "farmer-now" and losses:
        horizon = sum(h for h, _, _ in losses) / len(losses)
        end = sum(e for _, e, _ in losses) / len(losses)
        se = math.sqrt(sum(s * s for _, _, s in losses)) / len(losses)
        print(f"'farmer now' turns: {len(losses)}; the review's loss {horizon:.2f} a turn at the horizon, "
              f"{end:+.2f} ± {se:.2f} to the end; clearly above zero on {clear} ({load()})")
        return
    print(f"mistake marks kept by playouts to the end (loss still >= the mistake threshold): {kept} of {total}; "
          f"a loss clearly above zero (two errors): {clear} of {total} ({load()})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("--only", default="carcassonne")
    r.add_argument("--real", default="", help="only the files whose names hold this text")
    r.add_argument("--seeds", default="1,2")
    r.add_argument("--level", default=None)
    r.add_argument("--stand-in", default="greedy", help="the bot judged in the player's place ('' for none)")
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--out", default=str(RESULTS / "review.jsonl"))
    r.add_argument("--set", action="append", default=[], metavar="MODULE.ATTR=VALUE",
                   help="a variant: set an attribute first (bench/ladder.py's --set)")
    s = sub.add_parser("summary")
    s.add_argument("files", nargs="+")
    b = sub.add_parser("balance", help="luck + skill against the final margin, real games and self-play")
    b.add_argument("--only", default="carcassonne,goldrush")
    b.add_argument("--games", type=int, default=10, help="self-played games a game (mcts:quick against greedy)")
    b.add_argument("--level", default="quick")
    b.add_argument("--jobs", type=int, default=1)
    b.add_argument("--examples", action="store_true", help="also the other whole games of examples/")
    m = sub.add_parser("marks", help="each mistake mark of a run judged again with playouts to the end")
    m.add_argument("files", nargs="+")
    m.add_argument("--rounds", type=int, default=1000, help="shared worlds a mark (each plays both moves)")
    m.add_argument("--seed", type=int, default=7)
    m.add_argument("--level", default=None, help="the run's level (to find its best move again)")
    m.add_argument("--players", choices=("review", "game"), default="review",
                   help="who plays to the end: the review's playouts (R516) or the game's own quick players (R508)")
    m.add_argument("--which", choices=("marks", "farmer-now", "greedy"), default="marks",
                   help="the turns to judge again: the mistake marks, every 'farmer now' turn, or every turn's "
                        "move against the greedy bot's in the player's place")
    m.add_argument("--set", action="append", default=[], metavar="MODULE.ATTR=VALUE",
                   help="a variant, set before anything runs: the review that finds the best move again and "
                        "the judge to the end alike (e.g. the claiming playouts, R498's knob)")
    args = ap.parse_args()
    {"run": run, "summary": summary, "balance": balance_run, "marks": marks}[args.what](args)


if __name__ == "__main__":
    main()
