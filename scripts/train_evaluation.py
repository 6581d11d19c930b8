"""Fit a game's learned evaluation (``grn/games/<game>/evaluation.json``) on games grn plays itself.

    .venv/bin/python scripts/train_evaluation.py carcassonne --games 200 --jobs 2
    .venv/bin/python scripts/train_evaluation.py goldrush --games 200 --jobs 2 --bot mcts:quick
    .venv/bin/python scripts/train_evaluation.py carcassonne --games 4 --dry-run   # print, write nothing
    .venv/bin/python scripts/train_evaluation.py carcassonne --games 400 --for bot  # evaluation-bot.json (R485)
    .venv/bin/python scripts/train_evaluation.py carcassonne --games 400 \
        --features supply,supply_early,any_left,permanent,to_move                   # the review's (evaluation.json)
    .venv/bin/python scripts/train_evaluation.py carcassonne --games 400 --bot playout:review \
        --features supply,supply_early,any_left,permanent,to_move --out X.json      # on the review's players (R520)

Each game is played by ``--bot`` in every seat from a seeded deal (deal ``seed + i``), two players by default.
Before every turn each player's features (:meth:`grn.rules.world.World.features`) and projected score
(:meth:`grn.rules.world.World.value`) are written down; at the end the final scores.  The weights are the least
squares fit of what the rest of the game added to each player's margin over the opponents (final margin minus
projected margin) on the features, taken against the opponents' mean in the same way, without an intercept (a
game of identical positions adds nothing on average).  The spread of the residuals by the share of the game
left ``f`` is fitted as ``variance = a·f + b·f²`` (R333), which the win chances read.  The same arguments give
the same file (docs/analysis.md, "How far to trust it").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grn.rules import registry  # noqa: E402
from grn.bots import make_bot  # noqa: E402
from grn.bots.arena import MAX_TURNS, new_game  # noqa: E402
from grn.rules.evaluation import BOT_EVALUATION, EVALUATION, Evaluation, least_squares, load  # noqa: E402
from grn.rules.world import Decision, World, margin  # noqa: E402

#: A row: (features minus the opponents' mean, the share of the game left, the rest of the game's margin).
Row = tuple[tuple[float, ...], float, float]

#: ``--bot`` names that are no bot but a world's own playout player, every seat playing the playouts' turn with
#: the true bag: the game's (``playout``), the bot's claiming ones (``playout:claims``, R443) or the review's
#: (``playout:review``, R516), so an evaluation can be fitted on what the positions it values lead to in a playout.
PLAYOUT_PLAYERS = ("playout", "playout:claims", "playout:review")


def play(game: str, bot: str, deal: int, players: int, options: str | None,
         bot_evaluation: str | None = None) -> list[Row]:
    """One self-played game's rows: every position before a turn, for every player.  ``bot_evaluation`` names
    the evaluation file (in the game's package) a searching bot reads instead of its own: a step of policy
    iteration plays the bot of the step before."""
    ruleset = registry.find_ruleset(game)
    opts = ruleset.parse_options(dict(w.split("=", 1) for w in options.split(","))) if options else None
    _, engine = new_game(ruleset, players, deal, opts)
    table = ruleset.determinise(engine, random.Random(deal))
    if bot in PLAYOUT_PLAYERS:
        if bot == "playout:claims":
            table.claim_playouts()
        elif bot == "playout:review":
            table.review_playouts()
        return _rows(table, lambda rng: table.rollout_move(rng), deal)
    chooser = make_bot(bot, ruleset)
    if bot_evaluation is not None:
        if not hasattr(chooser, "evaluation"):
            raise SystemExit(f"--bot-evaluation: the bot {bot} reads no evaluation")
        setattr(chooser, "evaluation", bot_evaluation)
    return _rows(table, lambda rng: chooser.choose(table.engine.copy(), rng, table.hand()), deal)


def _rows(table: World, choose: Callable[[random.Random], Decision], deal: int) -> list[Row]:
    """The rows of one game played on ``table`` by ``choose`` in every seat, to its end."""
    rng = random.Random(f"train:{deal}")
    seen: list[tuple[dict[str, tuple[float, ...]], dict[str, float], float]] = []
    turns = 0
    while not table.is_over and turns < MAX_TURNS:
        keys = list(table.engine.players) if hasattr(table.engine, "players") else []
        seen.append(({p: table.features(p) for p in keys}, table.value(), table.phase()))
        table.play_commands(table.recorded(choose(rng)))
        turns += 1
    final = table.value()  # the game is over: its final scoring is in the projected scores
    rows: list[Row] = []
    for feats, value, phase in seen:
        for p in feats:
            others = [q for q in feats if q != p]
            if not others:
                continue
            x = tuple(a - sum(feats[q][i] for q in others) / len(others) for i, a in enumerate(feats[p]))
            rows.append((x, phase, margin(final, p) - margin(value, p)))
    return rows


def bot_source(game: str, bot: str, bot_evaluation: str | None = None) -> dict[str, Any]:
    """What a fitted file says of the bot that played its games: the evaluation file it was told to read
    (``bot_evaluation``), and the weights its playouts ended on (``bot_read``: its own file, else the review's, as
    :meth:`grn.rules.world.World.learned` reads them), so that a step of policy iteration says which step it
    follows.  A ValueError when the game's package has no ``bot_evaluation``."""
    package = f"grn.games.{game}"
    out: dict[str, Any] = {}
    if bot in PLAYOUT_PLAYERS:
        if bot_evaluation:
            raise ValueError(f"--bot-evaluation: the playout player {bot} reads no evaluation")
        return out
    if bot_evaluation:
        if load(package, bot_evaluation) is None:
            raise ValueError(f"--bot-evaluation: grn/games/{game} has no {bot_evaluation}")
        out["bot_evaluation"] = bot_evaluation
    if getattr(make_bot(bot, registry.find_ruleset(game)), "learned", False):
        read = load(package, bot_evaluation or BOT_EVALUATION) or load(package)
        if read is not None:
            out["bot_read"] = dict(zip(read.features, (round(w, 4) for w in read.weights)))
    return out


def fit(rows: list[Row], names: tuple[str, ...], source: dict[str, Any]) -> tuple[Evaluation, dict[str, float]]:
    """The evaluation fitted on ``rows``, and how well it fits (residual spread before and after)."""
    xs = [r[0] for r in rows]
    ys = [r[2] for r in rows]
    weights = least_squares(xs, ys)
    residuals = [y - sum(w * v for w, v in zip(weights, x)) for x, y in zip(xs, ys)]
    # the variance of what is left to come, by phase: a·f + b·f² through the squared residuals
    a, b = least_squares([(r[1], r[1] * r[1]) for r in rows], [e * e for e in residuals])
    n = len(ys)
    quality = {"rows": n, "mean_square_before": round(sum(y * y for y in ys) / n, 2),
               "mean_square_after": round(sum(e * e for e in residuals) / n, 2)}
    return Evaluation(names, weights, (a, b), {**source, **quality}), quality


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", help="the Game tag of the game to fit (a world without features gets its spread alone)")
    ap.add_argument("--games", type=int, default=200, help="self-played games (default 200)")
    ap.add_argument("--seed", type=int, default=1000, help="the first deal's seed (default 1000)")
    ap.add_argument("--bot", default="greedy", help="the bot in every seat (default greedy), or a playout player: "
                                                     + ", ".join(PLAYOUT_PLAYERS))
    ap.add_argument("--bot-evaluation", metavar="NAME",
                    help="the evaluation file in the game's package that a searching --bot reads (default: its own); "
                         "a step of policy iteration names the step before's file")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--options", default=None, help="the game's options as name=value words, comma separated")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--features", help="the world's features to weigh, comma separated (default: all of them)")
    ap.add_argument("--for", dest="use", choices=("review", "bot"), default="review",
                    help="the file to write: evaluation.json (the review's) or evaluation-bot.json (the bot's, R485)")
    ap.add_argument("--out", help="where to write (default: the game's package, the file --for names)")
    ap.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    args = ap.parse_args()
    ruleset = registry.find_ruleset(args.game)
    names = ruleset.determinise(new_game(ruleset, args.players, args.seed)[1], random.Random(0)).feature_names
    # a game with no features gets the spread alone (its win chances, R333)
    chosen = tuple(args.features.split(",")) if args.features else names
    unknown = [n for n in chosen if n not in names]
    if unknown:  # said before any game is played
        ap.error(f"{args.game}'s world has no feature {', '.join(unknown)}: it has {', '.join(names)}")
    try:  # said before any game is played, as an unknown feature is
        said = bot_source(args.game, args.bot, args.bot_evaluation)
    except ValueError as error:
        ap.error(str(error))
    start = time.time()
    deals = list(range(args.seed, args.seed + args.games))
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        parts = list(pool.map(play, [args.game] * len(deals), [args.bot] * len(deals), deals,
                              [args.players] * len(deals), [args.options] * len(deals),
                              [args.bot_evaluation] * len(deals)))
    rows = [r for part in parts for r in part]
    source = {"script": "scripts/train_evaluation.py", "game": args.game, "games": args.games, "seed": args.seed,
              "bot": args.bot, "players": args.players, "options": args.options or ""}
    source.update(said)
    if args.features:
        take = [names.index(n) for n in chosen]
        rows = [(tuple(x[i] for i in take), phase, y) for x, phase, y in rows]
        names = chosen
        source["features"] = args.features
    evaluation, quality = fit(rows, tuple(names), source)
    print(f"{evaluation!r}\n{quality} ({time.time() - start:.0f} s)")
    if args.dry_run:
        return
    package = ROOT / "grn" / "games" / args.game
    out = Path(args.out) if args.out else package / (BOT_EVALUATION if args.use == "bot" else EVALUATION)
    doc = {"description": "The learned evaluation of this game's positions (grn/rules/evaluation.py), made by "
                          "scripts/train_evaluation.py; docs/analysis.md, 'How far to trust it'."}
    if args.use == "bot":
        doc["description"] = ("The bot's learned evaluation of this game's positions (grn/rules/evaluation.py, R485): "
                              "what the mcts bot's playouts end on; the review reads evaluation.json.  Made by "
                              "scripts/train_evaluation.py --for bot; docs/bots.md.")
    doc.update(evaluation.to_json())
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
