"""Set-up turns (turn 0 of a record): a Gold Rush position written directly, for rules diagrams.

Nothing scores and turn order is not checked; each action still obeys what
the board allows (a tile must touch and fit; a cowboy goes on the tile placed
last; a tent on a mountain segment; mining takes the top token under the tent).
"""

from __future__ import annotations

from typing import Sequence, cast

from grn.core.errors import IllegalAction
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent
from grn.games.goldrush.scoring import Scoring
from grn.games.goldrush.terms import PRAIRIE, SEC_COWBOY, SEC_MINE, SEC_PLAYING, SEC_TENT
from grn.core.record import Command
from grn.games.tiling.board import PlacedTile, Placement
from grn.games.tiling.commands import DiscardTile, PlaceTile


class SetUp(Scoring):
    """Gold Rush with set-up turns."""

    __slots__ = ()

    def setup(self, player: str, actions: Sequence[Command]) -> None:
        """Set up a position directly (a rules diagram, turn 0): nothing scores, turn order is not checked.

        PlaceTile: must touch and fit (it takes a copy from the bag and puts its
        mining tokens).  PlaceCowboy: on the tile placed last (in this or an
        earlier set-up or turn), from ``player``'s supply, on any feature (occupied or not).  PlaceTent:
        ``player``'s tent to any mountain segment.  Mine: ``player`` takes the
        top token of their tent's mountain.  DiscardTile: a copy leaves the
        bag.  All or nothing: on an error the state is unchanged.
        """
        work = cast(SetUp, self.copy())
        work._setup(player, actions)
        self._adopt(work)

    def _setup(self, player: str, actions: Sequence[Command]) -> None:
        seat = self._player_seat(player, getattr(actions[0], "span", None) if actions else None)
        board = self.board
        last: PlacedTile | Placement | None = self._last_tile()
        for a in actions:
            ta = type(a)
            if ta is PlaceTile:
                assert isinstance(a, PlaceTile)
                design = self._design(a.tile, a.span)
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                p = self._preview(a, design)
                self._put_tokens(p, self._lay(p))
                last = p
            elif ta is PlaceCowboy:
                assert isinstance(a, PlaceCowboy)
                if last is None:
                    raise IllegalAction("a set-up cowboy goes on the tile placed last",
                                        rule="The cowboy must be placed on the newly placed tile",
                                        section=SEC_COWBOY, span=a.span)
                if self.supply[seat] <= 0:
                    raise IllegalAction(f"{player} has no cowboy left in the supply",
                                        rule="The cowboy must come from their personal supply", section=SEC_COWBOY,
                                        span=a.span)
                sid = self._segment_of(last.design, last.orientation, last.base, a.location)
                if sid < 0:
                    raise IllegalAction(f"{a.location} names no feature of tile {last.design.id}",
                                        rule="The cowboy must occupy a single feature", section=SEC_COWBOY, span=a.span)
                kind = board.kind[sid]
                if kind == PRAIRIE and not self.options.farmers:
                    raise IllegalAction("this game is played without farmers",
                                        rule="For your first game, it is best to play without the farmers",
                                        section=SEC_COWBOY, span=a.span)
                self._put_cowboy(seat, sid)
            elif ta is PlaceTent:
                assert isinstance(a, PlaceTent)
                sid = self._mountain_segment(a.x, a.y, a.location, None, a.span)
                owner = self.tent_at.get(sid)
                if owner is not None and owner != seat:
                    raise IllegalAction(f"{self.players[owner]}'s tent already stands there",
                                        rule="The mountain segment of the tile must be vacant", section=SEC_TENT,
                                        span=a.span)
                self._move_tent(seat, sid)
            elif ta is Mine:
                assert isinstance(a, Mine)
                t = self.tent[seat]
                st = self.stacks.get(board.find(t)) if t >= 0 else None
                if not st:
                    raise IllegalAction("no token to mine under the tent", rule="take the topmost Mining token from "
                                        "the mountain where their tent is located", section=SEC_MINE, span=a.span)
                self._check_value(a.value, {}, a.span, "the mined token", SEC_MINE)
                self._mine_top(seat, st, a.value)
            elif ta is DiscardTile:
                assert isinstance(a, DiscardTile)
                design = self._design(a.tile, a.span)
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                self._take_from_bag(design.id)
            else:
                raise IllegalAction(f"{a!r} cannot be part of a set-up", rule="a set-up writes a position directly",
                                    section=SEC_PLAYING, span=getattr(a, "span", None))
