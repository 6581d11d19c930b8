"""Why Gold's puzzles had no *blocked miner* (issue 44, R492): how often a waiting move leads Gold's first race,
and what the confirming search then says of it.

    nice .venv/bin/python bench/gold_waiting_moves.py --games 40 --players 2 --confirm-rounds 40

A Gold puzzle's solution is written only from remembered cards (an unseen card's face cannot be), so a blocked
miner is a standstill of two remembered cards: a *waiting move*, which leaves the table as it was.  For every
two-card turn of ``--games`` self-played games this races the turn's candidates as ``grn puzzles`` does (its
level, seed and worlds) and, where a waiting move leads the race by the game's threshold, confirms it as
``grn puzzles`` would with ``--confirm-rounds``: one line per such turn (the waiting move's faces, the first
gap, what the confirmation put first and by how much), then the counts and the CPU seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Hashable, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--from", dest="first", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="quick")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--confirm-rounds", type=int, default=640)
    args = parser.parse_args()

    from grn import games
    from grn.analysis.judge import replay
    from grn.analysis.puzzles import Criteria, _seed, budget_for, confirm_search, contenders, verdict
    from grn.bots.search import candidate_moves, evaluate, make_worlds, with_played
    from grn.games.gold.commands import FlipCard, card_text
    from grn.games.gold.rules import GoldState
    from grn.rules.ruleset import player_key
    from grn.rules.selfplay import to_record

    ruleset = games.find_ruleset("gold")
    budget = budget_for(args.level, confirm_rounds=args.confirm_rounds, seed=args.seed)
    counts = {"two-card turns": 0, "a waiting move leads": 0, "by the threshold": 0, "confirmed": 0}
    start = time.process_time()
    for deal in range(args.first, args.first + args.games):
        record = to_record(ruleset.selfplay(args.players, deal))
        _, seats, line = replay(record)
        criteria = Criteria(found=True).for_game(ruleset)
        previous = 0
        for turn, before in line:
            if before is None:
                break
            state = cast(GoldState, before)
            if previous < 1 or state.flips_due != 2:  # R395: from turn 2; the rush turns one card
                previous = turn.number
                continue
            previous = turn.number
            counts["two-card turns"] += 1
            player = player_key(seats, turn.player)
            hand = tuple(ruleset.hand_of(turn.actions))
            played = ruleset.decision_of(before, turn.actions)
            worlds = make_worlds(ruleset, before, hand, random.Random(_seed(budget, turn.number, "worlds")),
                                 ruleset.greedy_samples)
            world = worlds[0]
            candidates = with_played(world, candidate_moves(worlds, player, budget.width, from_position=True),
                                     played)
            race = evaluate(ruleset, before, hand, candidates, seed=_seed(budget, turn.number, "race"),
                            playouts=budget.playouts, keep=[played], first_halving=world.first_halving,
                            learned=budget.learned)

            def answer(d: object) -> Hashable:
                return ruleset.puzzles.answer(before, world.effect(d))

            first = verdict(race, criteria, answer)
            known = state.known_faces()
            places = cast(tuple[str, ...], first.best)
            if not all(p in known for p in places):
                continue  # an unseen card: no puzzle can write it
            after = state.copy()
            after.play_turn(state.current_player, [FlipCard(p, known[p]) for p in places])
            if after.scores != state.scores or len(after.face_down()) != len(state.face_down()):
                continue  # not a waiting move
            counts["a waiting move leads"] += 1
            if first.by is None:
                continue
            counts["by the threshold"] += 1
            moves = contenders(race, first.best, played, answer)
            again = verdict(confirm_search(ruleset, before, hand, moves, budget,
                                           _seed(budget, turn.number, "confirm")), criteria, answer)
            same = answer(again.best) == answer(first.best)
            kept = same and again.unique and again.by is not None
            counts["confirmed"] += kept
            faces = " ".join(card_text(known[p]) for p in places)
            print(f"deal {deal} turn {turn.number}: wait ({faces}) first by {first.gap:.2f} ± {first.gap_se:.2f}; "
                  f"confirmation: {'the same' if same else 'another move'} first, by {again.gap:.2f} ± "
                  f"{again.gap_se:.2f}{', kept' if kept else ''}", flush=True)
    print(f"{args.games} games of {args.players} from deal {args.first}, level {args.level}, seed {args.seed}, "
          f"{budget.confirm_rounds} rounds: " + ", ".join(f"{k} {v}" for k, v in counts.items())
          + f"; {time.process_time() - start:.0f} CPU s")


if __name__ == "__main__":
    main()
