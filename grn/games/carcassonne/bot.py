"""Carcassonne for bots: a turn's follow-ups (the second gold ingot, a follower) and a playout's quick worth."""

from __future__ import annotations

import random
from typing import Any

from grn.games.carcassonne.commands import PlaceFollower
from grn.games.carcassonne.completion import Completion
from grn.games.carcassonne.rules import CarcassonneState
from grn.games.carcassonne.terms import CITY, CLOISTER, FIELD, ROAD
from grn.games.tiling.board import Placement
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.world import TileWorld


class CarcassonneWorld(TileWorld):
    """A Carcassonne game with one order of the bag."""

    __slots__ = ()

    #: A playout weighs three placements of its tile by the points they score at once (R170).
    playout_samples = 3

    #: Farmers stay on their fields to the end (the learned evaluation's permanent followers, R332).
    permanent_kind = FIELD

    def pieces_on_board(self) -> dict[int, int]:
        return self.state.follower_at

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

    def _gain(self, completions: list[Completion], seat: int) -> float:
        """What ``completions`` score for ``seat`` less the mean of what they score for the others."""
        state = self.state
        others = max(1, len(state.players) - 1)
        gain = 0.0
        for c in completions:
            if not c.winners:
                continue
            n = len(c.tiles)
            points = n if c.kind == ROAD else 9 if c.kind == CLOISTER else state._city_points(n, c.pennants, True)
            for w in c.winners:
                gain += points if w == seat else -points / others
        return gain

    def quick_worth(self, placement: PlaceTile, preview: Placement,
                    rng: random.Random) -> tuple[float, tuple[Any, ...]]:
        """The points the placement scores at once for the mover (less the opponents' mean), with a follower
        on a feature it completes when that scores more; else a quick follow-up as before (R170)."""
        state = self.state
        seat = state.seat
        ingots = state.ingot_options(placement)
        head: tuple[Any, ...] = (rng.choice(ingots),) if ingots else ()
        best = self._gain(state._completions(preview, seat, -1), seat)
        follow: tuple[Any, ...] | None = None
        if state.supply[seat] > 0:
            design = preview.design
            for i, kind in enumerate(design.kinds):
                completes = (kind == CLOISTER) or ((kind == ROAD or kind == CITY)
                                                   and not preview.group_open[preview.group[i]])
                if not completes or state._occupied(preview, i):
                    continue
                gain = self._gain(state._completions(preview, seat, i), seat)
                if gain > best:
                    best = gain
                    follow = (PlaceFollower(state._location_name(preview.orientation, i)),)
        if follow is not None:
            return best, head + follow
        if rng.random() < 0.5:
            followers = state.follower_options(placement)
            if followers:
                return best, head + (rng.choice(followers),)
        return best, head


__all__ = ["CarcassonneWorld"]
