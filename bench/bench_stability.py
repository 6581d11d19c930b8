"""Stability of ``grn analyse``: two seeds, the same games, how often they agree on mistakes or worse.

    nice .venv/bin/python bench/bench_stability.py --games 20 --jobs 2 --out stability.jsonl
    .venv/bin/python bench/bench_stability.py --summary stability.jsonl

For each game kind, ``--games`` records (deal seeds 100, 101, ...; Carcassonne
with The Gold Mines) are analysed at the default level with seeds 1 and 2.
Who plays them (``--bot``): by default each game's own choice (R206): the
game's self-play for the tile games, and for Gold a greedy bot against a
random one, seats swapped from one record to the next (``mixed``), since
Gold's self-play leaves almost nothing to judge; ``selfplay``, ``random``,
``greedy`` or ``mixed`` choose the same players for every game.  Among the moves either run judged a mistake or a
blunder, the share both runs judged so is the agreement (the issue asks for
90%; R182: a move judged by neither run does not count, a mistake in one run
and a blunder in the other agree).  The share of the judgements of mistake or
worse that the other run shares (2 × both / (first + second)) is printed
beside it, as are the turns' playouts (the cost of the confirmation).  Every analysed record is appended to ``--out`` at once (one JSON line
with both runs' turns), so a stopped run keeps what it measured and a second
run skips what is there.  The line also keeps every turn's loss and standard
error, so other thresholds can be judged again without searching.

``--without candidates,halving,pick,eliminate`` turns off round seven's changes
to Gold's search (R225 candidates from the position, R226 the later first
halving, R227 the playouts' order of places, R228 the contenders kept until
clearly behind), to measure each step's share in one build; ``edge`` and
``edgez`` turn off round eight's (R255 the confirmation's longer cap near the
mistake threshold, R256 three standard errors there); ``--without all``
is round six's Gold search.  ``--summary FILE --clear`` judges every stored
turn's loss and standard error again with a mistake or a blunder only where the
loss's lower bound (loss - z × standard error) passes the threshold (the rule
R229 measured and did not adopt): the sampling does not depend on the rule, so
this is what a run with it gives, to the stored rounding of two decimals.
``--summary FILE --mistake M`` judges the stored losses with the mistake
threshold at M (a first look only: the stored sampling was steered by the
game's own threshold).  ``--summary FILE... --valley GAME [--mistake M]``
counts the stored losses of GAME in 0.2-point windows above its mistake
threshold (or M) and prints where R278's rule places the threshold: the
middle of the first window above it that holds fewer losses than the one
before and no more than the next (the nearest valley).

Target: two seeds agree on the mistakes and worse of the same games (docs/analysis.md gives today's agreement).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grn import games  # noqa: E402
from grn.analysis.judge import Thresholds, agreement, analyse, ruleset_thresholds  # noqa: E402
from grn.bots import GreedyBot, RandomBot  # noqa: E402
from grn.bots.arena import play_game  # noqa: E402
from grn.core.record import parse_options  # noqa: E402
from grn.rules.selfplay import to_record  # noqa: E402
from ladder import apply_settings  # noqa: E402  (bench/ladder.py: --set, a variant of the yardstick)

#: Where a run's files go by default (kept out of the tree: bench/results is ignored by git).
RESULTS = Path(__file__).resolve().parent / "results"

GAMES = ("goldrush", "carcassonne", "gold")
OPTIONS = {"goldrush": "", "carcassonne": "goldmines", "gold": ""}
SEEDS = (1, 2)
#: Who plays each game's records by default (R206): Gold's self-play makes almost no mistake or worse.
PLAYERS = {"goldrush": "selfplay", "carcassonne": "selfplay", "gold": "mixed"}


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


#: Round seven's changes to Gold's search that ``--without`` can turn off (R225-R228), each with round six's value,
#: and round eight's (R255 ``edge``, R256 ``edgez``), each with round seven's.
STEPS = ("candidates", "halving", "pick", "eliminate", "edge", "edgez")


def without(steps: list[str]) -> None:
    """Turn off round seven's ``steps`` of Gold's search in this process (round six's search for each)."""
    from grn.games.gold import bot as gold

    if "candidates" in steps:
        gold.CANDIDATES = "greedy"
    if "halving" in steps:
        gold.GoldWorld.first_halving = 4
        gold.GoldWorld.race_keeps_lead = False
    if "pick" in steps:
        gold.PICK = "draw"
    if "eliminate" in steps:
        gold.GoldWorld.confirm_eliminates = False
    if "edge" in steps:
        gold.GoldWorld.confirm_edge_scale = 1
    if "edgez" in steps:
        gold.GoldWorld.confirm_edge_z = None


def one_record(game: str, index: int, level: str | None, bot: str = "selfplay", off: tuple[str, ...] = (),
               settings: tuple[str, ...] = (), seeds: tuple[int, ...] = SEEDS) -> dict:
    """Analyse record ``index`` of ``game`` with both seeds; the result as a JSON-able dict.

    ``bot``: who played the record: ``selfplay`` (the game's self-play, as ``grn selfplay``), two ``random``
    or ``greedy`` bots, or ``mixed``: a greedy bot and a random one, the greedy bot first in the even records.
    """
    without(list(off))
    apply_settings(list(settings))  # the tile games' self-play is random play: the records do not depend on it
    ruleset = games.find_ruleset(game)
    options = ruleset.parse_options(parse_options(OPTIONS[game]))
    if bot == "selfplay":
        record = to_record(ruleset.selfplay(2, 100 + index, options), seed=100 + index)
    else:
        kinds = {"greedy": (GreedyBot, GreedyBot), "random": (RandomBot, RandomBot),
                 "mixed": (GreedyBot, RandomBot) if index % 2 == 0 else (RandomBot, GreedyBot)}[bot]
        record = play_game(ruleset, [cls(ruleset) for cls in kinds], 100 + index, 100 + index,
                           options=options).record()
    cpu = time.process_time()
    runs = []
    for seed in seeds:
        a = analyse(record, level=level, seed=seed)
        runs.append([(t.turn, round(t.points_lost, 2), round(t.lost_se, 2), t.judgement, t.playouts, t.near)
                     for t in a.turns])
    return {"game": game, "record": index, "bot": bot, "level": level or "default", "without": list(off), "settings": list(settings),
            "seeds": list(seeds), "runs": runs,
            "cpu": round(time.process_time() - cpu, 1), "load": os.getloadavg()[0]}


def clear_judge(game: str) -> Callable[[list], str | None]:
    """A turn's judgement (from a stored ``[turn, lost, se, ...]``) with ``game``'s thresholds on the loss's
    lower bound (:meth:`grn.analysis.judge.Thresholds.judge` with ``clear``, R229)."""
    thresholds = ruleset_thresholds(games.find_ruleset(game))
    return lambda t: thresholds.judge(t[1], t[2], bound_z=thresholds.z)


def moved_judge(game: str, mistake: float) -> Callable[[list], str | None]:
    """A turn's judgement (from a stored ``[turn, lost, se, ...]``) with ``game``'s thresholds but the mistake
    threshold at ``mistake`` (round eight's look at where the threshold sits; the stored sampling was
    steered by the game's own threshold, so this is a first look, not what a run with it gives)."""
    t = ruleset_thresholds(games.find_ruleset(game))
    moved = Thresholds(min(t.inaccuracy, mistake), mistake, max(t.blunder, mistake), t.z)
    return lambda x: moved.judge(x[1], x[2])


def per_game(lines: list[dict], again: bool = False,
             mistake: float | None = None) -> dict[tuple[str, str], tuple[int, int, int, int, float]]:
    """Per game and players: (records, moves judged mistake or worse by both runs, by either, judgements of
    mistake or worse made by the two runs together, cpu seconds per record); ``again``: judged on the lower
    bound (:func:`clear_judge`), not as stored; ``mistake``: judged with that mistake threshold
    (:func:`moved_judge`)."""
    out = {}
    for game in GAMES:
        judged = (clear_judge(game) if again else moved_judge(game, mistake) if mistake is not None
                  else (lambda t: t[3]))
        for bot in sorted({x.get("bot", "selfplay") for x in lines if x["game"] == game}):
            mine = [x for x in lines if x["game"] == game and x.get("bot", "selfplay") == bot]
            both = either = made = 0
            for x in mine:
                b, e, m = agreement(*([(t[0], judged(t)) for t in run] for run in x["runs"]))
                both, either, made = both + b, either + e, made + m
            out[game, bot] = (len(mine), both, either, made, sum(x["cpu"] for x in mine) / len(mine))
    return out


def playouts(lines: list[dict], game: str, bot: str) -> float:
    """The mean playouts a turn (race and confirmation) over the runs of ``game`` played by ``bot``; 0 for lines
    without them."""
    counts = [t[4] for x in lines if x["game"] == game and x.get("bot", "selfplay") == bot
              for run in x["runs"] for t in run if len(t) > 4]
    return sum(counts) / len(counts) if counts else 0.0


def report(lines: list[dict], again: bool = False, mistake: float | None = None) -> str:
    rows = []
    for (game, bot), (records, both, either, made, cpu) in per_game(lines, again, mistake).items():
        share = both / either if either else 1.0
        shared = 2 * both / made if made else 1.0
        rows.append(f"{game} ({bot}): {records} records, the two runs agree on {100 * share:.0f}% of the moves "
                    f"judged mistake or worse ({both} of {either}; {100 * shared:.0f}% of the {made} judgements); "
                    f"{cpu:.0f} s of CPU a record (both runs), {playouts(lines, game, bot):.0f} playouts a turn; "
                    f"{made / (2 * records):.1f} mistakes or worse a record in a run")
    return "\n".join(rows)


def valley(lines: list[dict], game: str, threshold: float, width: float = 0.2, step: float = 0.05,
           reach: float = 1.0) -> tuple[float, list[tuple[float, int]]]:
    """Where R278 places ``game``'s mistake threshold from the losses stored in ``lines`` (both runs): walking
    up from ``threshold`` in ``step``s, the middle of the first ``width``-point window that holds fewer losses
    than the window before it and no more than the one after (the nearest valley above the threshold: it
    moves the calibrated threshold least); the emptiest window within ``reach`` when none does.  With every
    window's count, (window's low end, losses in it)."""
    losses = [t[1] for x in lines if x["game"] == game for run in x["runs"] for t in run]
    windows = []
    for i in range(int(round(reach / step))):
        low = round(threshold - width / 2 + (i + 1) * step, 4)
        windows.append((low, sum(1 for v in losses if low <= v < low + width)))
    valleys = [windows[i] for i in range(1, len(windows) - 1)
               if windows[i][1] < windows[i - 1][1] and windows[i][1] <= windows[i + 1][1]]
    low, _ = valleys[0] if valleys else min(windows, key=lambda w: (w[1], w[0]))
    return round(low + width / 2, 4), windows


def _read(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="records of each game kind")
    ap.add_argument("--only", default=",".join(GAMES))
    ap.add_argument("--level", default=None, help="analysis level (default: the default level)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bot", choices=("default", "selfplay", "random", "greedy", "mixed"), default="default",
                    help="who plays the records (default: each game's choice, R206: self-play for the tile games, "
                         "a greedy bot against a random one for Gold)")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.ATTR=VALUE",
                    help="a variant of the analysis, e.g. grn.games.tiling.world.TileWorld.horizon=24 (repeatable; "
                         "use a --out of its own: the records it skips are those of --out)")
    ap.add_argument("--without", default="", help="round seven's and eight's changes to Gold's search to turn "
                                                  f"off: {', '.join(STEPS)} or all (R225-R228, R255-R256)")
    ap.add_argument("--seeds", default="1,2", help="the two analysis seeds (another pair checks that a figure "
                    "is not a property of seeds 1 and 2)")
    ap.add_argument("--out", default=str(RESULTS / "stability.jsonl"))
    ap.add_argument("--summary", metavar="JSONL", nargs="+", help="print the agreement of runs and stop")
    ap.add_argument("--clear", action="store_true", help="with --summary: judge the stored losses on their lower "
                                                           "bound (R229's measure)")
    ap.add_argument("--mistake", type=float, default=None, help="with --summary: judge the stored losses with "
                                                                   "this mistake threshold (round eight's look)")
    ap.add_argument("--valley", metavar="GAME", default=None, help="with --summary: the losses stored for GAME "
                                                                     "by 0.2-point windows above its mistake "
                                                                     "threshold, and where R278 places it")
    args = ap.parse_args()
    if args.mistake is not None and not args.mistake > 0:
        ap.error(f"--mistake must be more than 0, not {args.mistake}")
    if args.summary and args.valley:
        if args.valley not in GAMES:
            ap.error(f"--valley: one of {', '.join(GAMES)}, not {args.valley!r}")
        stored = [x for path in args.summary for x in _read(path)]
        at = ruleset_thresholds(games.find_ruleset(args.valley)).mistake if args.mistake is None else args.mistake
        placed, windows = valley(stored, args.valley, at)
        for low, count in windows:
            print(f"  {low:.2f}-{low + 0.2:.2f}: {count}")
        print(f"{args.valley}: the first valley above {at:g} puts the mistake threshold at {placed:g}")
        return
    if args.summary:
        print(report([x for path in args.summary for x in _read(path)], args.clear, args.mistake))
        return
    off = tuple(STEPS if args.without == "all" else [x for x in args.without.split(",") if x])
    if any(x not in STEPS for x in off):
        ap.error(f"--without: one of {', '.join(STEPS)} or all, not {args.without!r}")

    def players(game: str) -> str:
        return PLAYERS[game] if args.bot == "default" else args.bot

    try:
        seeds = tuple(int(x) for x in args.seeds.split(","))
    except ValueError:
        seeds = ()
    if len(seeds) != 2:
        ap.error(f"--seeds: two whole numbers, e.g. 3,4, not {args.seeds!r}")

    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    done = {(x["game"], x["record"], x.get("bot", "selfplay")) for x in _read(args.out)}
    work = [(g, i) for i in range(args.games) for g in args.only.split(",") if (g, i, players(g)) not in done]
    print(f"# stability: {len(work)} records to analyse twice ({load()})", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(one_record, g, i, args.level, players(g), off, tuple(args.set), seeds)
                   for g, i in work]
        for f in as_completed(futures):
            line = f.result()
            with open(args.out, "a", encoding="utf-8") as sink:
                sink.write(json.dumps(line) + "\n")
            print(f"  {line['game']} record {line['record']}: {line['cpu']} s CPU", flush=True)
    print(report(_read(args.out)), f"({load()})", sep="\n")


if __name__ == "__main__":
    main()
