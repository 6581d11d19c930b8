"""Carcassonne's followers: the supply of seven, where they stand, and the checks of placing one.

A follower goes only on a feature of the tile just placed that no follower
occupies, from the player's supply; on a field only when farmers are played.
The checks serve both :meth:`play_turn` and the move generator.
"""

from __future__ import annotations

from typing import Any

from grn.core.errors import IllegalAction
from grn.games.carcassonne.commands import PlaceFollower
from grn.games.carcassonne.completion import seated
from grn.games.carcassonne.options import Options
from grn.games.carcassonne.terms import (
    FIELD, FOLLOWERS, Q_FARMERS_OFF, Q_FOLLOWER_FREE, Q_FOLLOWER_NEW, Q_FOLLOWER_SUPPLY, ROLE, SEC_FARMERS,
    SEC_FOLLOWER,
)
from grn.games.tiling.board import Placement
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.engine import TileEngine
from grn.games.tiling.tiles import TileDesign

#: The fields this layer adds.
FOLLOWER_FIELDS: tuple[str, ...] = ("options", "supply", "follower_at")


class Followers(TileEngine):
    """The tile-laying engine with Carcassonne's options and followers."""

    __slots__ = FOLLOWER_FIELDS

    options: Options
    #: Per seat, followers in the supply.
    supply: list[int]
    #: Segment id -> the seat whose follower stands there.
    follower_at: dict[int, int]

    @property
    def followers_in_supply(self) -> dict[str, int]:
        """Followers in each player's supply."""
        return dict(zip(self.players, self.supply))

    def followers_on(self, x: int, y: int, location: str) -> list[str]:
        """Colours of the followers on the feature at ``location`` of the tile at ``(x, y)``."""
        t = self.board.tiles[(x, y)]
        sid = self._segment_of(t.design, t.orientation, t.base, location)
        return [self.players[s] for s, _ in seated(self.board.followers(sid))]

    def placed_followers(self) -> list[tuple[str, int, int, int, str]]:
        """Every follower on the board: (colour, x, y, local segment, kind), by segment.

        Read from the features, which count every follower: a set-up position may stand two on one
        feature of one tile, where :attr:`follower_at` keeps one owner per segment.
        """
        board = self.board
        found = sorted((sid, seat) for r in board.roots() for seat, sid in seated(board.followers(r)))
        out = []
        for sid, seat in found:
            x, y = board.segment_tile[sid]
            t = board.tiles[(x, y)]
            out.append((self.players[seat], x, y, sid - t.base, board.kind[sid]))
        return out

    def _put_follower(self, seat: int, sid: int) -> None:
        self.board.add_follower(sid, seat)
        self.follower_at[sid] = seat
        self.supply[seat] = self.supply[seat] - 1

    def _locations(self, design: TileDesign, o: Any) -> str:
        return ", ".join(f"+{self._location_name(o, i)} ({k})" for i, k in enumerate(design.kinds)
                         if k != FIELD or self.options.farmers)

    def _check_follower(self, seat: int, p: Placement, cmd: PlaceFollower) -> int:
        """The local segment a follower goes on, checked (supply, a feature of the new tile, unoccupied)."""
        design = p.design
        if self.supply[seat] <= 0:
            raise IllegalAction(f"{self.players[seat]} has no follower left in the supply", rule=Q_FOLLOWER_SUPPLY,
                                section=SEC_FOLLOWER, span=cmd.span,
                                hint=f"each player has {FOLLOWERS}; they come back when their feature is scored")
        local = self._segment_of(design, p.orientation, 0, cmd.location)
        if local < 0:
            raise IllegalAction(f"{cmd.location} names no feature of tile {design.id}", rule=Q_FOLLOWER_NEW,
                                section=SEC_FOLLOWER, span=cmd.span,
                                hint="the features of the new tile: " + self._locations(design, p.orientation))
        kind = design.kinds[local]
        if kind == FIELD and not self.options.farmers:
            raise IllegalAction("this game is played without farmers", rule=Q_FARMERS_OFF, section=SEC_FARMERS,
                                span=cmd.span, hint="the features of the new tile: " +
                                self._locations(design, p.orientation))
        g = p.group[local]
        root_data = self.board.root_data
        for r in p.group_roots[g]:
            f = root_data[r]
            if f is not None and f.followers:
                owners = ", ".join(sorted({self.players[s] for s, _ in seated(f.followers)}))
                free = [i for i, k in enumerate(design.kinds)
                        if (k != FIELD or self.options.farmers) and not self._occupied(p, i)]
                hint = ("free features of the new tile: " + ", ".join(
                    f"+{self._location_name(p.orientation, i)} ({design.kinds[i]})" for i in free)) if free \
                    else "every feature of the new tile is occupied: place no follower"
                raise IllegalAction(f"the {kind} at {cmd.location} is already occupied ({owners}: "
                                    f"{ROLE[kind]})", rule=Q_FOLLOWER_FREE, section=SEC_FOLLOWER, span=cmd.span,
                                    hint=hint)
        return local

    def _occupied(self, p: Placement, local: int) -> bool:
        root_data = self.board.root_data
        for r in p.group_roots[p.group[local]]:
            f = root_data[r]
            if f is not None and f.followers:
                return True
        return False

    def follower_options(self, placement: PlaceTile) -> list[PlaceFollower]:
        """Every legal follower after ``placement`` by the current player (one per feature of the tile)."""
        design = self._design(placement.tile, placement.span)
        p = self._preview(placement, design)
        if self.supply[self.seat] <= 0:
            return []
        return [PlaceFollower(self._location_name(p.orientation, i)) for i, k in enumerate(design.kinds)
                if (k != FIELD or self.options.farmers) and not self._occupied(p, i)]
