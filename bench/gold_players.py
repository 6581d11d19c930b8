"""Gold's playout players against each other: the measure behind R175 (docs/bots.md, "Gold, round five").

    nice .venv/bin/python bench/gold_players.py --deals 200
    nice .venv/bin/python bench/gold_players.py --deals 200 --worth 0,1,1.5,2
    nice .venv/bin/python bench/gold_players.py --deals 100 --first smart --second greedy-bot

Plays ``smart`` (:func:`grn.games.gold.bot.smart_move`) against ``memory``
(self-play's player, the search's playouts before R175), or any two of those,
``greedy`` (:func:`grn.games.gold.bot.greedy_move`, the playouts' model of the
greedy bot, R200), ``greedy-bot`` (the greedy bot itself), ``smart-ahead`` (``smart`` with round seven's
second card, :func:`grn.games.gold.bot.ahead_move`) and ``ahead`` (round seven's lead played alone,
:func:`grn.games.gold.bot.ahead_lead`, R486), on ``--deals`` deals,
each twice with the seats swapped, to the end of the game; prints the first
player's score (a tie counts half) and mean final margin with its standard
error, once per value of the miner's worth (``MINER_WORTH``) asked for.  The
players are quick: the whole run takes seconds.

Target: the playout player R175 chose keeps its margin over the one it replaced (docs/bots.md, "Gold, round five"); grn/games/gold/bot.py keeps the old one for this comparison.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grn import games  # noqa: E402
from grn.bots import make_bot  # noqa: E402
from grn.bots.arena import new_game  # noqa: E402
from grn.games.gold import bot  # noqa: E402
from grn.games.gold.rules import GoldState  # noqa: E402
from grn.games.gold.selfplay import _choose  # noqa: E402

Player = Callable[..., list[str]]
_GREEDY_BOT = make_bot("greedy", games.find_ruleset("gold"))


def _greedy_bot(state: GoldState, truth: dict, rng: random.Random) -> list[str]:
    """The ladder's greedy bot itself (8 sampled deals a turn); it reads no face it has not seen."""
    return list(_GREEDY_BOT.choose(state.copy(), rng))  # type: ignore[arg-type, call-overload]


def _ahead(state: GoldState, truth: dict, rng: random.Random) -> list[str]:
    """Round seven's lead (R486, :func:`grn.games.gold.bot.ahead_lead`) played as a player: its reactive turn's
    second card is chosen once the first is seen, by the table's world."""
    lead = bot.ahead_lead(state)
    return list(lead) if lead is not None else bot.smart_move(state, truth, rng)  # type: ignore[call-overload]


PLAYERS: dict[str, Player] = {"smart": bot.smart_move, "memory": _choose,
                               "greedy": lambda state, truth, rng: bot.greedy_move(state),
                               "greedy-bot": _greedy_bot,
                               "smart-ahead": lambda state, truth, rng: bot.ahead_move(state, truth, rng),
                               "ahead": _ahead}


def margin(first: Player, second: Player, deal: int, swap: bool) -> int:
    """``first``'s final margin over ``second`` on ``deal`` (``swap``: ``second`` sits in the first seat)."""
    ruleset = games.find_ruleset("gold")
    _, engine = new_game(ruleset, 2, deal)
    table = ruleset.determinise(engine, random.Random(deal))
    assert isinstance(table, bot.GoldWorld)
    assert isinstance(engine, GoldState)
    keys = list(engine.players)
    seats = [second, first] if swap else [first, second]
    rng = random.Random(deal * 2 + swap)
    while not table.is_over:
        player = seats[keys.index(table.player)]
        table.play(tuple(player(table.state, table.truth, rng)))
    scores = table.state.scores
    ours, theirs = (keys[1], keys[0]) if swap else (keys[0], keys[1])
    return scores[ours] - scores[theirs]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--first", default="smart", choices=sorted(PLAYERS))
    ap.add_argument("--second", default="memory", choices=sorted(PLAYERS))
    ap.add_argument("--worth", default=str(bot.MINER_WORTH), help="values of MINER_WORTH, comma-separated")
    args = ap.parse_args()
    print(f"# load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for worth in (float(w) for w in args.worth.split(",")):
        bot.MINER_WORTH = worth
        ms = [margin(PLAYERS[args.first], PLAYERS[args.second], d, s) for d in range(args.deals) for s in (False, True)]
        score = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in ms) / len(ms)
        se = statistics.stdev(ms) / len(ms) ** 0.5
        print(f"{args.first} vs {args.second}, miner worth {worth:g}: {len(ms)} games, score {100 * score:.1f}%, "
              f"mean margin {statistics.mean(ms):+.2f} ± {se:.2f}")


if __name__ == "__main__":
    main()
