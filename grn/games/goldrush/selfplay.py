"""Self-play of Carcassonne: Gold Rush: random legal games, reproducible from a seed.

The tile bag and the mining tokens are shuffled with ``random.Random(seed)``;
each turn draws tiles (discarding those that fit nowhere), places one at a
random legal spot, then picks a step-2 action (first a random kind among
nothing / cowboy / tent / mine that is possible, then a random one of that
kind).  The record holds the true token faces: ``Mine(value)`` and, when the
turn's scoring hands tokens out, ``RevealTokens`` with their faces in
hand-out order.
"""

from __future__ import annotations

import random
from typing import Sequence

from grn.games.goldrush.commands import Mine, RevealTokens
from grn.core.record import Command
from grn.rules.ruleset import COLOURS
from grn.games.goldrush.rules import GoldRushState, Options, TokenMined, TokensTaken
from grn.rules.selfplay import PlayedTurn, SelfPlayGame
from grn.games.tiling.selfplay import draw_placement, shuffled_bag
from grn.games.tiling.tiles import TileSet, load_shipped_tileset


def play(players: int | Sequence[str], seed: int, options: Options = Options(),
         tileset: TileSet | None = None) -> SelfPlayGame:
    """Play one random legal game of Gold Rush; the same seed gives the same game."""
    if isinstance(players, int):
        colours: tuple[str, ...] = COLOURS[:players]
    else:
        colours = tuple(players)
    ts = tileset if tileset is not None else load_shipped_tileset("grn.games.goldrush")
    rng = random.Random(seed)
    state = GoldRushState.new(ts, colours, options)
    draw = shuffled_bag(state, rng)
    faces: list[int] = [v for v, n in ts.tokens for _ in range(n)]
    rng.shuffle(faces)  # token id i (the i-th drawn from the fresh supply) shows faces[i]
    turns: list[PlayedTurn] = []
    while not state.is_over:
        player = state.current_player
        actions, placement = draw_placement(state, draw, rng)
        if placement is None:
            state.play_turn(player, actions)
            turns.append(PlayedTurn(player, tuple(actions), state.scores))
            continue
        actions.append(placement)
        options_ = state.legal_followups(placement)
        kinds: dict[type, list[Command]] = {}
        for f in options_:
            if f is not None:
                kinds.setdefault(type(f), []).append(f)
        pick = rng.randrange(len(kinds) + 1)
        follow: Command | None = None
        if pick:
            follow = rng.choice(kinds[list(kinds)[pick - 1]])
        if follow is not None:
            actions.append(follow)
        # learn which tokens this turn moves (ids), on a copy, to record their true faces
        design = ts[placement.tile]
        if isinstance(follow, Mine) or any(s.kind == "mountain" for s in design.segments):
            _, events = state.after(player, actions)
            handed: list[int | None] = []
            for e in events:
                if isinstance(e, TokenMined):
                    actions[-1] = Mine(faces[e.id])
                elif isinstance(e, TokensTaken):
                    handed += [faces[i] for i in e.ids]
            if handed:
                actions.append(RevealTokens(tuple(handed)))
        state.play_turn(player, actions)
        turns.append(PlayedTurn(player, tuple(actions), state.scores))
    state.final_scoring()
    opts = {"farmers": "on" if options.farmers else "off", "cowboys": str(options.cowboys)}
    return SelfPlayGame("goldrush", colours, tuple(turns), state.scores, opts)


__all__ = ["play"]
