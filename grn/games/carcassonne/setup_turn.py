"""Set-up turns (turn 0 of a record): a Carcassonne position written directly, for rules diagrams and puzzles.

Nothing scores and turn order is not checked; tiles must still touch and match
(ruling R44).
"""

from __future__ import annotations

from typing import Sequence, cast

from grn.core.errors import IllegalAction
from grn.games.carcassonne.commands import PlaceFollower, PlaceIngot, TakeIngot
from grn.games.carcassonne.scoring import Scoring
from grn.games.carcassonne.terms import (
    FIELD, FOLLOWERS, INGOT_MARK, Q_FARMERS_OFF, Q_FOLLOWER_NEW, Q_FOLLOWER_SUPPLY, Q_SETUP, Q_SHARE, Q_STACK,
    SEC_FARMERS, SEC_FOLLOWER, SEC_GOLD_PLACE, SEC_GOLD_SETUP, SEC_GOLD_TAKE, SEC_PLAYING,
)
from grn.core.record import Command
from grn.games.tiling.board import PlacedTile
from grn.games.tiling.commands import DiscardTile, PlaceTile


class SetUp(Scoring):
    """Carcassonne with set-up turns."""

    __slots__ = ()

    def setup(self, player: str, actions: Sequence[Command]) -> None:
        """Set up a position directly (a rules diagram): nothing scores, turn order is not checked.

        PlaceTile: must touch and fit.  PlaceFollower: on the tile placed last,
        from ``player``'s supply, on any of its features.  PlaceIngot: an ingot
        on any placed tile.  TakeIngot: ``player`` takes an ingot from that
        tile.  DiscardTile: a copy leaves the bag.  All or nothing.
        """
        work = cast(SetUp, self.copy())
        work._setup(player, actions)
        self._adopt(work)

    def _setup(self, player: str, actions: Sequence[Command]) -> None:
        seat = self._player_seat(player, getattr(actions[0], "span", None) if actions else None)
        last: PlacedTile | None = self._last_tile()
        for a in actions:
            if isinstance(a, PlaceTile):
                design = self._design(a.tile, a.span)
                if INGOT_MARK in design.marks and not self.options.goldmines:
                    raise IllegalAction(f"tile {design.id} is a Gold Mines tile, and this game is played without "
                                        "The Gold Mines", rule=Q_SETUP, section=SEC_GOLD_SETUP, span=a.span,
                                        hint='add the option: [Options "goldmines"]')
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                p = self._preview(a, design)
                self._lay(p)
                last = self.board.tiles[(p.x, p.y)]
            elif isinstance(a, PlaceFollower):
                if last is None:
                    raise IllegalAction("a set-up follower goes on the tile placed last", rule=Q_FOLLOWER_NEW,
                                        section=SEC_FOLLOWER, span=a.span, hint="place a tile first")
                if self.supply[seat] <= 0:
                    raise IllegalAction(f"{player} has no follower left in the supply", rule=Q_FOLLOWER_SUPPLY,
                                        section=SEC_FOLLOWER, span=a.span,
                                        hint=f"each player has {FOLLOWERS} followers")
                local = self._segment_of(last.design, last.orientation, 0, a.location)
                if local < 0:
                    raise IllegalAction(f"{a.location} names no feature of tile {last.design.id}",
                                        rule=Q_FOLLOWER_NEW, section=SEC_FOLLOWER, span=a.span,
                                        hint="the features of the tile: " + self._locations(last.design,
                                                                                            last.orientation))
                if last.design.kinds[local] == FIELD and not self.options.farmers:
                    raise IllegalAction("this game is played without farmers", rule=Q_FARMERS_OFF,
                                        section=SEC_FARMERS, span=a.span,
                                        hint="the features of the tile: " + self._locations(last.design,
                                                                                            last.orientation))
                self._put_follower(seat, last.base + local)
            elif isinstance(a, (PlaceIngot, TakeIngot)):
                mines = self.mines
                if mines is None:
                    raise IllegalAction("this game is played without The Gold Mines: it has no gold ingots",
                                        rule=Q_SETUP, section=SEC_GOLD_SETUP, span=a.span,
                                        hint='add the option: [Options "goldmines"]')
                q = (a.x, a.y)
                if isinstance(a, PlaceIngot):
                    if q not in self.board.tiles:
                        raise IllegalAction(f"there is no tile at {a.x},{a.y}", rule=Q_STACK,
                                            section=SEC_GOLD_PLACE, span=a.span, hint="ingots go on placed tiles")
                    mines.put(q)
                else:
                    if mines.ingots.get(q, 0) <= 0:
                        raise IllegalAction(f"there is no gold ingot on {a.x},{a.y}", rule=Q_SHARE,
                                            section=SEC_GOLD_TAKE, span=a.span,
                                            hint="tiles with gold: " + (" ".join(f"take@{x},{y}" for x, y in
                                                                                 sorted(mines.ingots)) or "none"))
                    mines.take(seat, q)
            elif isinstance(a, DiscardTile):
                design = self._design(a.tile, a.span)
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                self._take_from_bag(design.id)
            else:
                raise IllegalAction(f"{a!r} cannot be part of a set-up", rule="a set-up writes a position directly",
                                    section=SEC_PLAYING, span=getattr(a, "span", None),
                                    hint="a set-up places tiles, followers and ingots, takes ingots or discards")
