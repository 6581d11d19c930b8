"""Calibrate the levels to play against (grn/bots/levels.json, "play"): duplicate matches, Elo with intervals.

    nice .venv/bin/python bench/calibrate_levels.py --deals 20 --out bench/results/levels.jsonl
    .venv/bin/python bench/calibrate_levels.py --summary bench/results/levels.jsonl

Each pairing of adjacent levels on the ladder (beginner-casual, casual-easy,
...), and one pairing two rungs apart as a check (``--check``, default the
first and the third level), plays ``--deals`` deals in every game, each deal
twice with the seats swapped (:func:`grn.bots.arena.match`: the same tile
order or layout of cards for both seatings), 2 players.  Deal *d* of a game
is the same in every pairing (seed ``--seed``), so the run is reproducible:
the same seed and code give the same games move for move.  Every finished
pair of games is appended to ``--out`` as one JSON line at once (its scores,
margins, and each bot's CPU seconds and moves), so a stopped run still tells
what it played and a new run resumes after the deals already there.  Deals
are interleaved across games and pairings, cheapest pairing first, so every
pairing advances; ``--max-deals PAIRING=N`` caps a dear pairing.

The summary fits a Bradley-Terry model per game by maximum likelihood over
every game played (a tie counts half a win each way): one rating per level,
the beginner's fixed at 0, in Elo (400 log10 of the odds); the 95%
intervals come from a bootstrap over deals (the two games of a deal stay
together, since they share their luck), 400 resamples, the 2.5th and 97.5th
percentiles, and a step's (a level's rating less the one below it) from the same resamples (R476)
(a level whose every pairing was won every time has no spread to resample: its interval is a
point, and the pairing's own line gives the exact bound, 0.025 to the power 1/n for n deals all won, Clopper
and Pearson's); a level with fewer than 10 deals in a pairing with a level below it gets no interval at all, for the
same reason.  A weak prior of one drawn game between each adjacent pair
keeps a pairing won every time finite (it pulls a 40-0 result to about
+760 Elo; R388).  Seconds a move are CPU seconds of the process
(``time.process_time``) around each bot's ``choose``: on a loaded machine
wall time measures the other processes, CPU time the bot.
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
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grn import games  # noqa: E402
from grn.bots.bot import PLAY_LEVELS, Bot, make_bot  # noqa: E402
from grn.bots.arena import MatchResult, _elo, _fmt, match  # noqa: E402

GAMES = ("goldrush", "carcassonne", "gold")
BOOTSTRAP = 400
#: A level whose pairings with the levels below hold fewer deals than this gets no bootstrap interval: a resample of a few deals, all
#: won, has no spread, and would give a narrow interval where the truth is wide (the pairing's own line says it).
MIN_DEALS = 10


class Timed(Bot):
    """A bot whose every choice is timed in CPU seconds of this process."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.ruleset)
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []

    def choose(self, state: Any, rng: random.Random, hand: tuple[Any, ...] = ()) -> Any:
        start = time.process_time()
        decision = self.inner.choose(state, rng, hand)
        self.times.append(time.process_time() - start)
        return decision


def one_deal(game: str, first: str, second: str, deal: int, seed: int) -> dict[str, Any]:
    """Play deal ``deal`` of ``game`` twice (both seatings) between two levels; the pair as a JSON-able dict."""
    ruleset = games.find_ruleset(game)
    a, b = Timed(make_bot(first, ruleset)), Timed(make_bot(second, ruleset))
    start = time.perf_counter()
    r = match(ruleset, a, b, 1, seed * 1000 + deal)
    return {"game": game, "first": first, "second": second, "deal": deal, "wins": r.wins, "games": r.games,
            "margins": r.margins, "seconds": round(time.perf_counter() - start, 2),
            "cpu": {first: round(sum(a.times), 3), second: round(sum(b.times), 3)},
            "moves": {first: len(a.times), second: len(b.times)},
            "slowest": {first: round(max(a.times, default=0.0), 3), second: round(max(b.times, default=0.0), 3)},
            "load": round(os.getloadavg()[0], 1)}


def speed(game: str, level: str, moves: int, seed: int) -> dict[str, Any]:
    """CPU seconds of ``moves`` choices of ``level``, at positions spread over a game the greedy bot plays
    against itself (a level too dear to calibrate by games, ``master``, is timed so)."""
    from grn.bots.arena import MAX_TURNS, new_game

    ruleset = games.find_ruleset(game)
    header, engine = new_game(ruleset, 2, seed * 1000)
    table = ruleset.determinise(engine, random.Random(seed * 1000))
    greedy, bot = make_bot("easy", ruleset), make_bot(level, ruleset)
    rng = random.Random(seed)
    positions: list[tuple[Any, tuple[Any, ...]]] = []
    while not table.is_over and len(positions) < MAX_TURNS:
        positions.append((table.engine.copy(), table.hand()))
        table.play(greedy.choose(table.engine.copy(), rng, table.hand()))
    step = max(1, len(positions) // moves)
    times = []
    for state, hand in positions[step // 2::step][:moves]:
        start = time.process_time()
        bot.choose(state, random.Random(seed), hand)
        times.append(round(time.process_time() - start, 3))
    return {"speed": level, "game": game, "times": times, "load": round(os.getloadavg()[0], 1)}


def pairings(ladder: list[str], check: tuple[str, str] | None) -> list[tuple[str, str]]:
    """Adjacent levels, stronger first, then the check pairing."""
    out = [(ladder[i + 1], ladder[i]) for i in range(len(ladder) - 1)]
    if check is not None and check not in out:
        out.append(check)
    return out


def fit(lines: list[dict[str, Any]], ladder: list[str], prior: float = 1.0) -> dict[str, float]:
    """Bradley-Terry ratings in Elo, ``ladder[0]`` at 0, by maximum likelihood (minorise-maximise); ``prior``
    drawn games between each adjacent pair keep a sweep finite."""
    idx = {n: i for i, n in enumerate(ladder)}
    k = len(ladder)
    wins = [[0.0] * k for _ in range(k)]  # wins[i][j]: i's points against j
    for x in lines:
        i, j = idx[x["first"]], idx[x["second"]]
        wins[i][j] += x["wins"]
        wins[j][i] += x["games"] - x["wins"]
    for i in range(k - 1):
        wins[i][i + 1] += prior / 2
        wins[i + 1][i] += prior / 2
    games_ = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    present = [i for i in range(k) if sum(games_[i]) > 0]
    gamma = [1.0] * k
    for _ in range(2000):
        change = 0.0
        for i in present:
            w = sum(wins[i])
            denom = sum(games_[i][j] / (gamma[i] + gamma[j]) for j in present if j != i and games_[i][j] > 0)
            new = w / denom if denom > 0 and w > 0 else 1e-9
            change = max(change, abs(math.log(new) - math.log(gamma[i])))
            gamma[i] = new
        norm = gamma[0]
        gamma = [g / norm for g in gamma]
        if change < 1e-9:
            break
    return {n: 400 * math.log10(gamma[idx[n]]) for n in ladder if idx[n] in present}


def _fits(lines: list[dict[str, Any]], ladder: list[str], rng: random.Random) -> list[dict[str, float]]:
    """:func:`fit` of ``BOOTSTRAP`` resamples of the deals, resampled within each pairing."""
    by_pair: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for x in lines:
        by_pair.setdefault((x["first"], x["second"]), []).append(x)
    return [fit([rng.choice(xs) for xs in by_pair.values() for _ in xs], ladder) for _ in range(BOOTSTRAP)]


def _span(vs: list[float]) -> tuple[float, float]:
    vs = sorted(vs)
    return vs[int(0.025 * len(vs))], vs[min(len(vs) - 1, int(0.975 * len(vs)))]


def interval(lines: list[dict[str, Any]], ladder: list[str], rng: random.Random,
             steps: dict[str, tuple[float, float]] | None = None) -> dict[str, tuple[float, float]]:
    """95% bootstrap intervals of :func:`fit`, resampling the deals within each pairing; ``steps``, if given, is
    filled with each level's interval of its step from the level below (the same resamples, R476)."""
    fits = _fits(lines, ladder, rng)
    out = {}
    for n in ladder:
        vs = [f[n] for f in fits if n in f]
        if vs:
            out[n] = _span(vs)
    if steps is not None:
        for below, n in zip(ladder, ladder[1:]):
            vs = [f[n] - f[below] for f in fits if n in f and below in f]
            if vs:
                steps[n] = _span(vs)
    return out


def _load(paths: list[str]) -> list[dict[str, Any]]:
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in paths:
        for x in (json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()):
            if "speed" in x:
                seen.setdefault(("speed", x["speed"], x["game"], len(seen)), x)
            else:
                seen.setdefault((x["game"], x["first"], x["second"], x["deal"]), x)
    return list(seen.values())


def summary(lines: list[dict[str, Any]], ladder: list[str]) -> str:
    """The tables of docs/bots.md: each game's levels with Elo and interval, and the pairings' raw scores."""
    out = []
    timed = [x for x in lines if "speed" in x]
    lines = [x for x in lines if "speed" not in x]
    played_games = [g for g in GAMES if any(x["game"] == g for x in lines)]
    for game in played_games:
        mine = [x for x in lines if x["game"] == game]
        levels = [n for n in ladder if any(n in (x["first"], x["second"]) for x in mine)]
        ratings = fit(mine, levels)
        steps: dict[str, tuple[float, float]] = {}
        ci = interval(mine, levels, random.Random(f"calibrate:{game}"), steps)
        out.append(f"### {game}\n")
        out.append("| level | Elo over the beginner (95% interval) | step from the level below (95% interval) | "
                   "CPU s a move (mean; slowest) | games played |")
        out.append("|---|---|---|---|---|")
        prev = None
        for n in levels:
            cpu = sum(x["cpu"].get(n, 0.0) for x in mine)
            moves = sum(x["moves"].get(n, 0) for x in mine)
            slow = max((x["slowest"].get(n, 0.0) for x in mine), default=0.0)
            played = sum(x["games"] for x in mine if n in (x["first"], x["second"]))
            low, high = ci.get(n, (math.nan, math.nan))
            step = "" if prev is None else f"{ratings[n] - ratings[prev]:+.0f}"
            below = {(x["first"], x["second"]) for x in mine if n in (x["first"], x["second"])
                     and levels.index(x["second"] if x["first"] == n else x["first"]) < levels.index(n)}
            fewest = min((sum(1 for x in mine if (x["first"], x["second"]) == pair) for pair in below), default=0)
            span = (f"{low:+.0f} to {high:+.0f}" if fewest >= MIN_DEALS or n == levels[0]
                    else f"no interval: {fewest} deal{'s' * (fewest != 1)}")
            if prev is not None and n in steps and fewest >= MIN_DEALS:
                step += f" ({steps[n][0]:+.0f} to {steps[n][1]:+.0f})"
            out.append(f"| {n} | {ratings[n]:+.0f} ({span}) | {step} | "
                       f"{cpu / max(1, moves):.3f}; {slow:.2f} | {played} |")
            prev = n
        out.append("")
        out.append("| pairing | games | first's score | mean margin | Elo of the pairing alone (95% interval) |")
        out.append("|---|---|---|---|---|")
        for first, second in dict.fromkeys((x["first"], x["second"]) for x in mine):
            xs = [x for x in mine if x["first"] == first and x["second"] == second]
            r = MatchResult.of_deals((first, second), xs)
            low, mid, high = r.elo()
            if r.wins == r.games:  # a sweep: the deals' spread is nil; the exact bound of n deals all won
                low = _elo(0.025 ** (1 / len(xs)))
            words = f"{_fmt(mid)} ({_fmt(low)} to {_fmt(high)})"
            out.append(f"| {first} vs {second} | {r.games} | {100 * r.score:.1f}% | {r.mean_margin:+.1f} | {words} |")
        out.append("")
    if timed:
        out.append("| level | game | moves timed | CPU s a move (mean; slowest) |")
        out.append("|---|---|---|---|")
        for level in dict.fromkeys(x["speed"] for x in timed):
            for game in GAMES:
                ts = [t for x in timed if x["speed"] == level and x["game"] == game for t in x["times"]]
                if ts:
                    out.append(f"| {level} | {game} | {len(ts)} | {statistics.fmean(ts):.2f}; {max(ts):.2f} |")
    return "\n".join(out)


def main() -> None:
    ladder = list(PLAY_LEVELS)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20, help="deals per pairing and game (two games each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first-deal", type=int, default=0, help="start at this deal (another run plays the first)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--levels", default=",".join(ladder[:4]),
                    help="the rungs calibrated, weakest first (default: the first four)")
    ap.add_argument("--check", default=None, help="the pairing two rungs apart, STRONG-WEAK (default: the third "
                    "level against the first; none: no check)")
    ap.add_argument("--max-deals", action="append", default=[], metavar="FIRST-SECOND=N",
                    help="at most N deals of this pairing (a dear one)")
    ap.add_argument("--out", default="levels.jsonl")
    ap.add_argument("--summary", metavar="JSONL", nargs="+", help="print the tables of runs and stop")
    ap.add_argument("--speed", metavar="LEVEL", help="time LEVEL's moves instead (--moves a game), append to --out")
    ap.add_argument("--moves", type=int, default=4, help="moves timed a game with --speed")
    args = ap.parse_args()
    if args.summary:
        print(summary(_load(args.summary), ladder))
        return
    if args.speed:
        with Path(args.out).open("a") as sink:
            for game in args.games.split(","):
                sink.write(json.dumps(speed(game, args.speed, args.moves, args.seed)) + "\n")
                sink.flush()
        return
    rungs = args.levels.split(",")
    for n in rungs:
        if n not in PLAY_LEVELS:
            raise SystemExit(f"--levels: {n!r} is not a level of the ladder ({', '.join(ladder)})")
    if args.check == "none":
        check = None
    else:
        check = tuple(args.check.split("-", 1)) if args.check else ((rungs[2], rungs[0]) if len(rungs) > 2 else None)
    pairs = pairings(rungs, check)  # type: ignore[arg-type]
    caps = {tuple(k.split("=")[0].split("-", 1)): int(k.split("=")[1]) for k in args.max_deals}
    done = set()
    out = Path(args.out)
    if out.exists():  # resume: skip the deals already played
        for x in _load([str(out)]):
            done.add((x["game"], x["first"], x["second"], x["deal"]))
    # cheapest first within a deal: the pairings up the ladder cost more
    order = sorted(pairs, key=lambda p: (rungs.index(p[0]), rungs.index(p[1])))
    work = [(g, a, b, d, args.seed) for d in range(args.first_deal, args.deals) for a, b in order for g in args.games.split(",")
            if (g, a, b, d) not in done and d < caps.get((a, b), args.deals)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, out.open("a") as sink:
        futures = [pool.submit(one_deal, *w) for w in work]
        for future in as_completed(futures):
            sink.write(json.dumps(future.result()) + "\n")
            sink.flush()
    print(summary(_load([str(out)]), ladder))


if __name__ == "__main__":
    main()
