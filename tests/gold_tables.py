"""Gold tables the bot tests set up by hand: two players and a fresh 8x8 game with some turns played."""

from __future__ import annotations

from grn.games.gold.commands import Card, FlipCard
from grn.games.gold.rules import GoldState

# two players: red (red+yellow) against green (green+blue); black's miners belong to nobody
SEATS = [("red", ("red", "yellow")), ("green", ("green", "blue"))]


def table(*turns: tuple[tuple[str, Card], ...]) -> GoldState:
    """A fresh 8x8 game with ``turns`` played (each a tuple of (place, face) turned over)."""
    state = GoldState.new(SEATS)
    for flips in turns:
        state.play_turn(state.current_player, [FlipCard(p, c) for p, c in flips])
    return state
