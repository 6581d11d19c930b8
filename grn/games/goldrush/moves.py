"""Move generation for Gold Rush: every legal placement of a tile, and every step 2 that may follow it."""

from __future__ import annotations

from typing import Any

from grn.core.errors import IllegalAction
from grn.games.goldrush.commands import Mine, PlaceTent
from grn.games.goldrush.setup_turn import SetUp
from grn.games.goldrush.terms import MOUNTAIN
from grn.core.record import Command
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.tiles import TileDesign


class Moves(SetUp):
    """Gold Rush with its legal moves listed."""

    __slots__ = ()

    def legal_followups(self, placement: PlaceTile) -> list[Command | None]:
        """After ``placement`` by the current player: None (do nothing) and every legal step-2 action."""
        design = self._design(placement.tile, placement.span)
        p = self._preview(placement, design)
        seat = self.seat
        out: list[Command | None] = [None]
        out += self._cowboy_options(seat, p)
        board = self.board
        candidates: list[tuple[int, int, Any, int, TileDesign]] = []
        for t in board.tiles.values():
            for ls, seg in enumerate(t.design.segments):
                if seg.kind == MOUNTAIN:
                    candidates.append((t.x, t.y, t.orientation, ls, t.design))
        for ls, seg in enumerate(design.segments):
            if seg.kind == MOUNTAIN:
                candidates.append((p.x, p.y, p.orientation, ls, design))
        for x, y, o, ls, d in candidates:
            several = sum(1 for s in d.segments if s.kind == MOUNTAIN) > 1
            cmd = PlaceTent(x, y, self._location_name(o, ls) if several else None)
            try:
                self._check_tent(seat, p, cmd)
            except IllegalAction:
                continue
            out.append(cmd)
        if self.tent[seat] >= 0:
            try:
                self._check_mine(seat, p, Mine(), self._alloc_tokens(design))
            except IllegalAction:
                pass
            else:
                out.append(Mine())
        return out
