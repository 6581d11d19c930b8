"""Where the tile search loses strength (issue 41 item 5): positions from games greedy plays against itself.

    nice -n 5 .venv/bin/python bench/diagnose_search.py carcassonne --deals 4 --every 5

At every ``--every``-th turn: the default level's candidates (greedy's best 8), whether they hold a farmer, a
move without a follower, greedy's best farmer move and best move without a follower; whether the bot's choice
overturns greedy's; and an oracle (the ``deep`` budget over the candidates plus those two moves), whether its
best is among the 8.  ``--claims``: the oracle and the bot with R443's playouts, else round two's.  The oracle shares the search's playouts and evaluation: it tells where the search would go
with more room, not what is right.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grn.bots import make_bot  # noqa: E402
from grn.bots.arena import new_game  # noqa: E402
from grn.bots.search import best_of, candidate_moves, evaluate, greedy_rank, make_worlds, paired_difference  # noqa: E402
from grn.rules import registry  # noqa: E402


def kind_of(world: Any, decision: Any) -> str:
    """'farmer', 'follower' or 'none': what the decision puts on the board."""
    from grn.games.tiling.commands import PlaceTile
    state = world.engine
    figures = [c for c in decision if type(c).__name__ in ("PlaceFollower", "PlaceCowboy", "PlaceFigure")]
    if not figures:
        return "none"
    place = next(c for c in decision if isinstance(c, PlaceTile))
    design = state.tileset.by_id[place.tile]
    p = state._preview(place, design)
    local = state._segment_of(design, p.orientation, 0, figures[0].location)
    k = design.kinds[local] if local >= 0 else "?"
    return "farmer" if k in ("field", "prairie") else "follower"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--every", type=int, default=5)
    ap.add_argument("--oracle", default="deep")
    ap.add_argument("--claims", action="store_true", help="the oracle's playouts claim (R443), as the bot's do")
    args = ap.parse_args()
    ruleset = registry.find_ruleset(args.game)
    greedy = make_bot("greedy", ruleset)
    stats: dict[str, int] = {}

    def count(key: str, yes: bool = True) -> None:
        stats[key] = stats.get(key, 0) + int(yes)
    for deal in range(args.deals):
        _, engine = new_game(ruleset, 2, 5000 + deal)
        table = ruleset.determinise(engine, random.Random(deal))
        rng = random.Random(deal)
        turn = 0
        while not table.is_over:
            if turn % args.every == 2:
                state, hand = table.engine.copy(), table.hand()
                worlds = make_worlds(ruleset, state, hand, random.Random(turn), ruleset.greedy_samples)
                player = state.current_player
                cands = candidate_moves(worlds, player, 8)
                rank = greedy_rank(worlds, player)
                every = worlds[0].moves()
                ranked = sorted(every, key=lambda d: -rank(d))
                kinds = {d: kind_of(worlds[0], d) for d in ranked}
                best_farm = next((d for d in ranked if kinds[d] == "farmer"), None)
                best_none = next((d for d in ranked if kinds[d] == "none"), None)
                count("positions")
                count("cands_with_farmer", any(kinds[d] == "farmer" for d in cands))
                count("cands_with_none", any(kinds[d] == "none" for d in cands))
                count("best_farmer_exists", best_farm is not None)
                count("best_farmer_in_cands", best_farm in cands)
                count("best_none_in_cands", best_none in cands)
                count("greedy_first_farmer", kinds[cands[0]] == "farmer")
                count("greedy_first_follower", kinds[cands[0]] == "follower")
                extra = cands + [d for d in (best_farm, best_none) if d is not None and d not in cands]
                lvl: Any = make_bot(f"mcts:{args.oracle}", ruleset)
                est = evaluate(ruleset, state, hand, extra, seed=turn * 7 + deal, playouts=lvl.playouts * len(extra) // 8,
                               keep=extra[:1], opponents=True, claims=args.claims)
                best = best_of(est)
                diff, se = paired_difference(best, est[0])
                chosen = best.decision if diff > se else extra[0]
                count("oracle_overturns_greedy", chosen != extra[0])
                count("oracle_outside_8", chosen not in cands)
                count("oracle_picks_farmer", kinds[chosen] == "farmer")
                count("oracle_picks_none", kinds[chosen] == "none")
                count("oracle_picks_extra_farm", chosen == best_farm and best_farm not in cands)
                count("oracle_picks_extra_none", chosen == best_none and best_none not in cands)
                bot = make_bot("mcts", ruleset)
                bot.claims = args.claims  # type: ignore[attr-defined]
                mine = bot.choose(state.copy(), random.Random(turn), hand)
                count("mcts_overturns_greedy", mine != cands[0])
                count("mcts_agrees_oracle", mine == chosen)
                count("mcts_picks_farmer", kinds.get(mine) == "farmer")
                count("mcts_picks_none", kinds.get(mine) == "none")
            decision = greedy.choose(table.engine.copy(), rng, table.hand())
            table.play_commands(table.recorded(decision))
            turn += 1
        print(deal, stats, flush=True)
    n = stats["positions"]
    for k, v in stats.items():
        print(f"{k:28s} {v:4d} {100 * v / n:5.1f}%")


if __name__ == "__main__":
    main()
