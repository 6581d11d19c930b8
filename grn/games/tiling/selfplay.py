"""What self-play does alike in every tile-laying game: shuffle the bag, draw until a tile fits."""

from __future__ import annotations

import random

from grn.core.record import Command
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.tiling.engine import TileEngine


def shuffled_bag(state: TileEngine, rng: random.Random) -> list[str]:
    """The tiles of ``state``'s bag in a random order; the next tile drawn is the last."""
    draw = [tid for tid, n in sorted(state.bag().items()) for _ in range(n)]
    rng.shuffle(draw)
    return draw


def draw_placement(state: TileEngine, draw: list[str], rng: random.Random) -> tuple[list[Command], PlaceTile | None]:
    """Draw from ``draw`` until a tile fits: the discards on the way, and a random legal placement of
    the tile that fits (None when the bag ran out first)."""
    discards: list[Command] = []
    while draw:
        tile = draw.pop()
        legal = state.legal_placements(tile)
        if legal:
            return discards, rng.choice(legal)
        discards.append(DiscardTile(tile))
    return discards, None
