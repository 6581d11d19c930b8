"""The bots' ladder: duplicate matches greedy-random and mcts-greedy in every game (docs/bots.md).

    nice .venv/bin/python bench/ladder.py --deals 100 --jobs 2 --out ladder.jsonl
    .venv/bin/python bench/ladder.py --summary ladder.jsonl

Each deal is played twice, once per seating (grn.bots.arena.match), so a
pairing of 100 deals is 200 games.  Every finished pair of games is appended
to ``--out`` as one JSON line at once, so a run stopped early still tells
what it played; ``--summary`` turns the lines into the table of docs/bots.md.
Deals are interleaved across games and pairings, so every pairing advances.

Target: in every game the stronger bot beats the weaker in duplicate matches (mcts over greedy over random; docs/bots.md).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grn import games  # noqa: E402
from grn.bots import make_bot  # noqa: E402
from grn.bots.arena import MatchResult, match  # noqa: E402

#: Where a run's files go by default (kept out of the tree: bench/results is ignored by git).
RESULTS = Path(__file__).resolve().parent / "results"

GAMES = ("goldrush", "carcassonne", "gold")
PAIRINGS = (("greedy", "random"), ("mcts", "greedy"))


def apply_settings(settings: list[str]) -> list[tuple[Any, str, Any]]:
    """Set attributes named ``MODULE.CLASS.ATTR=VALUE`` or ``MODULE.ATTR=VALUE`` (a yardstick's variant: the
    analysis's horizon, its playout player; a value is read as JSON when it parses, else as a string).  Returns
    what was there before, for :func:`restore_settings`."""
    before: list[tuple[Any, str, Any]] = []
    for item in settings:
        target, eq, raw = item.partition("=")
        parts = target.split(".")
        if not eq or len(parts) < 2:
            raise SystemExit(f"--set {item}: expected MODULE.ATTR=VALUE")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        for cut in range(len(parts) - 1, 0, -1):  # the longest importable module, then attributes down to ATTR
            try:
                obj: Any = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for name in parts[cut:-1]:
                obj = getattr(obj, name)
            break
        else:
            raise SystemExit(f"--set {item}: no module in {target}")
        if not hasattr(obj, parts[-1]):
            raise SystemExit(f"--set {item}: {obj!r} has no attribute {parts[-1]}")
        before.append((obj, parts[-1], obj.__dict__[parts[-1]] if parts[-1] in vars(obj) else None))
        setattr(obj, parts[-1], value)
    return before


def restore_settings(before: list[tuple[Any, str, Any]]) -> None:
    """Undo :func:`apply_settings` (a pool's worker analyses the next record with the defaults)."""
    for obj, name, value in reversed(before):
        if value is None:
            delattr(obj, name)  # it was inherited: inherit again
        else:
            setattr(obj, name, value)


def ladder_bot(name: str, ruleset: Any) -> Any:
    """The bot ``name`` names (:func:`grn.bots.make_bot`), with variants of the search after a ``+`` for screening
    ideas on the same deals: ``+noclaims`` (the playouts of round two, R443), ``+noextra`` (the candidates of
    round two, R444), ``+classiceval`` (projected scores alone), ``+z0.5`` (the best overturns the first candidate by half a
    standard error), e.g. ``mcts:quick+noclaims``."""
    base, *flags = name.split("+")
    bot: Any = make_bot(base, ruleset)  # a search bot's settings, set by name below
    for flag in flags:
        if flag == "noclaims":
            bot.claims = False
        elif flag == "noextra":
            bot.extra = False
        elif flag == "classiceval":
            bot.learned = False
        elif flag.startswith("z"):  # +z0, +z0.5: the standard errors the best must beat the first candidate by
            bot.overturn_z = float(flag[1:])
        else:
            raise SystemExit(f"unknown variant +{flag} of {base}")
    bot.name = name
    return bot


def one_deal(game: str, first: str, second: str, deal: int, seed: int) -> dict:
    """Play deal ``deal`` twice (both seatings); the pair's result as a JSON-able dict."""
    ruleset = games.find_ruleset(game)
    start, cpu = time.perf_counter(), time.process_time()
    r = match(ruleset, ladder_bot(first, ruleset), ladder_bot(second, ruleset), 1, seed * 1000 + deal)
    return {"game": game, "first": first, "second": second, "deal": deal, "wins": r.wins, "games": r.games,
            "margins": r.margins, "seconds": round(time.perf_counter() - start, 2),
            "cpu": round(time.process_time() - cpu, 2), "load": os.getloadavg()[0]}


def summary(lines: list[dict]) -> str:
    """The ladder as a Markdown table."""
    rows = ["| game | pairing | games | first bot's wins | score | mean margin | Elo (95% interval) | s per game |",
            "|---|---|---|---|---|---|---|---|"]
    found = list(dict.fromkeys((x["first"], x["second"]) for x in lines))  # every pairing played, in order
    for game in GAMES:
        for first, second in found:
            mine = [x for x in lines if x["game"] == game and x["first"] == first and x["second"] == second]
            if not mine:
                continue
            r = MatchResult.of_deals((first, second), mine)
            low, mid, high = r.elo()
            secs = sum(x["seconds"] for x in mine) / r.games

            def f(v: float) -> str:
                return ("+inf" if v > 0 else "-inf") if math.isinf(v) else f"{v:+.0f}"
            rows.append(f"| {game} | {first} vs {second} | {r.games} | {r.wins:g} | {100 * r.score:.1f}% | "
                        f"{r.mean_margin:+.1f} | {f(mid)} ({f(low)} to {f(high)}) | {secs:.1f} |")
    return "\n".join(rows)


def _load(paths: list[str]) -> dict[tuple, dict]:
    seen: dict[tuple, dict] = {}
    for path in paths:  # runs in parallel may have played a deal twice: count it once
        for x in (json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()):
            seen.setdefault((x["game"], x["first"], x["second"], x["deal"]), x)
    return seen


def paired(base: dict[tuple, dict], variant: dict[tuple, dict]) -> str:
    """The variant's score and margin against the base's on the deals both played, with standard errors."""
    keys = sorted(set(base) & set(variant))
    if len(keys) < 2:
        return "fewer than two deals in common"
    ds = [variant[k]["wins"] / variant[k]["games"] - base[k]["wins"] / base[k]["games"] for k in keys]
    dm = [sum(variant[k]["margins"]) / len(variant[k]["margins"]) - sum(base[k]["margins"]) / len(base[k]["margins"])
          for k in keys]
    sb = sum(base[k]["wins"] for k in keys) / sum(base[k]["games"] for k in keys)
    sv = sum(variant[k]["wins"] for k in keys) / sum(variant[k]["games"] for k in keys)

    def mse(xs: list[float]) -> tuple[float, float]:
        m = sum(xs) / len(xs)
        return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
    (s, s_se), (m, m_se) = mse(ds), mse(dm)
    return (f"{len(keys)} deals in common: base {100 * sb:.1f}%, variant {100 * sv:.1f}%; variant - base: "
            f"{100 * s:+.1f} ± {100 * s_se:.1f} points of score, {m:+.2f} ± {m_se:.2f} points of margin a game")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100, help="deals per pairing (two games each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first-deal", type=int, default=0, help="start at this deal (deals first-deal..deals-1)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--out", default=str(RESULTS / "ladder.jsonl"))
    ap.add_argument("--pairings", default=",".join(f"{a}-{b}" for a, b in PAIRINGS),
                    help="which pairings, e.g. greedy-random")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.ATTR=VALUE",
                    help="a variant: set a module attribute in every worker (repeatable)")
    ap.add_argument("--summary", metavar="JSONL", nargs="+", help="print the table of runs and stop")
    ap.add_argument("--paired", metavar="JSONL", nargs=2, help="BASE VARIANT: the variant against the base on the "
                    "deals both played (a comma joins several files into one side)")
    args = ap.parse_args()
    if args.summary:
        print(summary(list(_load(args.summary).values())))
        return
    if args.paired:
        print(paired(_load(args.paired[0].split(",")), _load(args.paired[1].split(","))))
        return
    done = set()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():  # resume: skip the deals already played
        for x in (json.loads(x) for x in out.read_text().splitlines() if x.strip()):
            done.add((x["game"], x["first"], x["second"], x["deal"]))
    pairings = [tuple(p.split("-")) for p in args.pairings.split(",")]
    work = [(g, a, b, d, args.seed) for d in range(args.first_deal, args.deals) for a, b in pairings for g in args.games.split(",")
            if (g, a, b, d) not in done]
    apply_settings(args.set)
    with ProcessPoolExecutor(max_workers=args.jobs, initializer=apply_settings, initargs=(args.set,)) as pool, out.open("a") as sink:
        futures = [pool.submit(one_deal, *w) for w in work]
        for future in as_completed(futures):
            sink.write(json.dumps(future.result()) + "\n")
            sink.flush()
    lines = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
    print(summary(lines))


if __name__ == "__main__":
    main()
