"""Carcassonne for bots: a turn's follow-ups (the second gold ingot, a follower)."""

from __future__ import annotations

import random
from typing import Any

from grn.games.carcassonne.rules import CarcassonneState
from grn.tiling.commands import PlaceTile
from grn.tiling.world import TileWorld


class CarcassonneWorld(TileWorld):
    """A Carcassonne game with one order of the bag."""

    __slots__ = ()

    @property
    def state(self) -> CarcassonneState:
        engine = self.engine
        assert isinstance(engine, CarcassonneState)
        return engine

    def followups(self, placement: PlaceTile) -> list[tuple[Any, ...]]:
        state = self.state
        ingots: list[tuple[Any, ...]] = [(i,) for i in state.ingot_options(placement)] or [()]
        followers: list[tuple[Any, ...]] = [()] + [(f,) for f in state.follower_options(placement)]
        return [i + f for i in ingots for f in followers]

    def bare_followup(self, placement: PlaceTile) -> tuple[Any, ...]:
        """A Gold Mines tile must say where its second ingot goes: the first tile next to it."""
        ingots = self.state.ingot_options(placement)
        return (ingots[0],) if ingots else ()

    def quick_followup(self, placement: PlaceTile, rng: random.Random) -> tuple[Any, ...]:
        state = self.state
        ingots = state.ingot_options(placement)
        head: tuple[Any, ...] = (rng.choice(ingots),) if ingots else ()
        if rng.random() < 0.5:
            followers = state.follower_options(placement)
            if followers:
                return head + (rng.choice(followers),)
        return head


__all__ = ["CarcassonneWorld"]
