"""Self-play of Carcassonne: random legal games, reproducible from a seed.

The bag is shuffled with ``random.Random(seed)``; each turn draws tiles
(discarding those that fit nowhere), places one at a random legal spot, sets
the second ingot of a Gold Mines tile on a random neighbour, then places a
follower on a random free feature of the tile about half of the time.  Gold
is taken by the default choice (docs/rulings.md), so no ``take@`` is written.
"""

from __future__ import annotations

import random
from typing import Sequence

from grn.games.carcassonne.options import Options
from grn.games.carcassonne.rules import CarcassonneState, ingot_options
from grn.rules.ruleset import COLOURS
from grn.rules.selfplay import PlayedTurn, SelfPlayGame
from grn.games.tiling.selfplay import draw_placement, shuffled_bag
from grn.games.tiling.tiles import TileSet, load_shipped_tileset


def play(players: int | Sequence[str], seed: int, options: Options = Options(),
         tileset: TileSet | None = None) -> SelfPlayGame:
    """Play one random legal game of Carcassonne; the same seed gives the same game."""
    colours: tuple[str, ...] = COLOURS[:players] if isinstance(players, int) else tuple(players)
    ts = tileset if tileset is not None else load_shipped_tileset("grn.games.carcassonne")
    rng = random.Random(seed)
    state = CarcassonneState.new(ts, colours, options)
    draw = shuffled_bag(state, rng)
    turns: list[PlayedTurn] = []
    while not state.is_over:
        player = state.current_player
        actions, placement = draw_placement(state, draw, rng)
        if placement is not None:
            actions.append(placement)
            spots = ingot_options(state, placement)
            if spots:
                actions.append(rng.choice(spots))
            followers = state.follower_options(placement)
            if followers and rng.random() < 0.6:
                kinds = [ts[placement.tile].kinds[state._segment_of(ts[placement.tile],
                                                                    ts[placement.tile].orientation(placement.rotation),
                                                                    0, f.location)] for f in followers]
                weights = [1 if k == "field" else 4 for k in kinds]
                actions.append(rng.choices(followers, weights)[0])
        state.play_turn(player, actions)
        turns.append(PlayedTurn(player, tuple(actions), state.scores))
    state.final_scoring()
    return SelfPlayGame("carcassonne", colours, tuple(turns), state.scores, options.words())


__all__ = ["play"]
