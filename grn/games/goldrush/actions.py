"""Step 2 of a Gold Rush turn: place a cowboy (2a), pitch or move the tent (2b), or mine for gold (2c).

The checks here serve both :meth:`play_turn` (which refuses an illegal step 2
before anything changes) and the move generator (:mod:`.moves`).
"""

from __future__ import annotations

from typing import Final, Sequence, cast

from grn.core.errors import IllegalAction, Span
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.games.goldrush.options import Options
from grn.games.goldrush.terms import (
    FEATURE_NAME, MOUNTAIN, PRAIRIE, ROLE, SEC_COWBOY, SEC_MINE, SEC_PLAYING, SEC_TENT,
)
from grn.games.goldrush.tokens import MiningTokens
from grn.core.record import Command
from grn.games.tiling.board import FeatureData, Placement
from grn.games.tiling.commands import DiscardTile, PlaceTile

#: The step-2 actions: a turn does at most one of them.
STEP_2: Final = (PlaceCowboy, PlaceTent, Mine)

#: The fields step 2 adds.
STEP_2_FIELDS: tuple[str, ...] = ("options", "supply", "tent", "tent_at", "cowboy_at")


def _where(cmd: PlaceTent) -> str:
    """Where a PlaceTent points, as the messages say it (made only for a message: legal turns need none)."""
    return f"{cmd.x},{cmd.y}" + (f" {cmd.location}" if cmd.location else "")


class Step2(MiningTokens):
    """Gold Rush's cowboys and tents on the board, and the checks of step 2."""

    __slots__ = STEP_2_FIELDS

    options: Options
    #: Per seat, cowboys in the supply.
    supply: list[int]
    #: Per seat, the sid of the mountain segment the tent stands on (-1: in the supply).
    tent: list[int]
    #: Mountain segment sid -> the seat whose tent stands there.
    tent_at: dict[int, int]
    #: Segment sid -> the seat whose cowboy stands there.
    cowboy_at: dict[int, int]

    @property
    def cowboys(self) -> dict[str, int]:
        """Cowboys in each player's supply."""
        return dict(zip(self.players, self.supply))

    @property
    def tents(self) -> dict[str, tuple[int, int] | None]:
        """Where each player's tent stands (the tile's x, y), or None when in the supply."""
        out: dict[str, tuple[int, int] | None] = {}
        for p, sid in zip(self.players, self.tent):
            out[p] = self.board.segment_tile[sid] if sid >= 0 else None
        return out

    def tokens_on(self, x: int, y: int, location: str | None = None) -> int:
        """Mining tokens on the mountain of the tile at ``(x, y)`` (its only, or the named, mountain)."""
        sid = self._mountain_segment(x, y, location)
        return len(self.stacks.get(self.board.find(sid), ()))

    def cowboys_on(self, x: int, y: int, location: str) -> list[str]:
        """Colours of the cowboys on the feature at ``location`` of the tile at ``(x, y)``."""
        t = self.board.tiles[(x, y)]
        sid = self._segment_of(t.design, t.orientation, t.base, location)
        followers = cast("list[tuple[int, int]]", self.board.followers(sid))  # owners are seats
        return [self.players[s] for s, _ in followers]

    def _mountain_segment(self, x: int, y: int, location: str | None, p: Placement | None = None,
                          span: Span | None = None) -> int:
        """The sid of the mountain segment a PlaceTent names (``p``: the tile placed this turn)."""
        t = self.board.tiles.get((x, y))
        if t is not None:
            design, o, base = t.design, t.orientation, t.base
        elif p is not None and (p.x, p.y) == (x, y):
            design, o, base = p.design, p.orientation, p.base
        else:
            raise IllegalAction(f"there is no tile at {x},{y}", rule="The tent goes on the mountain segment of a tile",
                                section=SEC_TENT, span=span)
        mountains = [i for i, seg in enumerate(design.segments) if seg.kind == MOUNTAIN]
        if location is None:
            if len(mountains) == 1:
                return base + mountains[0]
            if not mountains:
                raise IllegalAction(f"tile {design.id} at {x},{y} has no mountain",
                                    rule="The tent goes on the mountain segment of a tile", section=SEC_TENT,
                                    span=span)
            names = " or ".join(self._location_name(o, i) for i in mountains)
            raise IllegalAction(f"tile {design.id} at {x},{y} has {len(mountains)} mountain segments: say which",
                                rule="The tent goes on the mountain segment of a tile", section=SEC_TENT, span=span,
                                hint=f"write the location: {names}")
        sid = self._segment_of(design, o, base, location)
        if sid < 0 or design.segments[sid - base].kind != MOUNTAIN:
            names = " or ".join(self._location_name(o, i) for i in mountains) or "none"
            raise IllegalAction(f"{location} of tile {design.id} at {x},{y} is not a mountain",
                                rule="The tent goes on the mountain segment of a tile", section=SEC_TENT, span=span,
                                hint=f"mountain locations on that tile: {names}")
        return sid

    def _order_error(self, actions: Sequence[Command], i: int, placed: bool) -> IllegalAction:
        a = actions[i]
        span = getattr(a, "span", None)
        rule = ("A player takes the following actions in the specified order: place a tile (step 1), then at most "
                "one of 2a/2b/2c, then scoring (step 3).")
        if type(a) is DiscardTile:
            msg = "a tile is discarded only before the turn's tile is placed"
        elif type(a) is PlaceTile:
            msg = "only one tile is placed per turn"
        elif type(a) in STEP_2:
            msg = ("a player may perform no more than one of the actions of step 2" if any(
                type(b) in STEP_2 for b in actions[:i]) else "step 2 comes after the tile is placed")
            if type(a) in STEP_2 and any(type(b) in STEP_2 for b in actions[:i]):
                rule = "A player may perform no more than one of the actions detailed in step 2."
        elif type(a) is RevealTokens:
            msg = "the tokens are revealed once, at the end of the turn"
        else:
            msg = f"{a!r} is not a Gold Rush action"
        return IllegalAction(msg, rule=rule, section=SEC_PLAYING, span=span)

    def _check_cowboy(self, seat: int, p: Placement, cmd: PlaceCowboy) -> int:
        """Validate a PlaceCowboy after placement ``p``; returns the new tile's local segment."""
        if self.supply[seat] <= 0:
            raise IllegalAction(f"{self.players[seat]} has no cowboy left in the supply",
                                rule="The cowboy must come from their personal supply", section=SEC_COWBOY,
                                span=cmd.span, hint="cowboys come back when their railroad, mountain or city is "
                                                    "completed; place the tile without a cowboy")
        o = p.orientation
        sid = self._segment_of(p.design, o, 0, cmd.location)
        if sid < 0:
            names = ", ".join(self._location_name(o, i) for i in range(len(p.design.segments)))
            raise IllegalAction(f"{cmd.location} names no feature of tile {p.design.id}",
                                rule="The cowboy must be placed on the newly placed tile and occupy a single feature",
                                section=SEC_COWBOY, span=cmd.span, hint=f"locations on this tile: {names}")
        seg = p.design.segments[sid]
        if seg.kind == PRAIRIE and not self.options.farmers:
            raise IllegalAction("this game is played without farmers",
                                rule="For your first game, it is best to play without the farmers",
                                section=SEC_COWBOY, span=cmd.span, hint="the options say farmers=off")
        if seg.kind not in ROLE:
            raise IllegalAction(f"a cowboy cannot stand on a {seg.kind}", rule="railwayman, gold miner, merchant "
                                "or farmer", section=SEC_COWBOY, span=cmd.span)
        g = p.group[sid]
        root_data: list[FeatureData] = self.board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
        for r in p.group_roots[g]:
            followers: list[tuple[int, int]] | None = root_data[r].followers  # type: ignore[assignment]  # owners are seats
            if followers:
                who = ", ".join(sorted({self.players[s] for s, _ in followers}))
                name = FEATURE_NAME[seg.kind]
                raise IllegalAction(f"the {name} at {cmd.location} already has a cowboy ({who})",
                                    rule="No other cowboy (of another player or your own) may be present on the "
                                         "railroad, mountain, or prairie on which you place your cowboy.",
                                    section=SEC_COWBOY, span=cmd.span, hint=self._cowboy_hint(seat, p))
        return sid

    def _cowboy_hint(self, seat: int, p: Placement) -> str:
        ok = [c for c in self._cowboy_options(seat, p)]
        return ("free features on the new tile: " + ", ".join(c.location for c in ok)) if ok else \
            "no feature of the new tile is free"

    def _cowboy_options(self, seat: int, p: Placement) -> list[PlaceCowboy]:
        out: list[PlaceCowboy] = []
        if self.supply[seat] <= 0:
            return out
        root_data: list[FeatureData] = self.board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
        for ls, seg in enumerate(p.design.segments):
            if seg.kind not in ROLE or (seg.kind == PRAIRIE and not self.options.farmers):
                continue
            if any(root_data[r].followers for r in p.group_roots[p.group[ls]]):
                continue
            out.append(PlaceCowboy(self._location_name(p.orientation, ls)))
        return out

    def _check_tent(self, seat: int, p: Placement, cmd: PlaceTent) -> int:
        """Validate a PlaceTent after placement ``p``; returns the target sid."""
        sid = self._mountain_segment(cmd.x, cmd.y, cmd.location, p, cmd.span)
        board = self.board
        if sid >= p.base:
            g = p.group[sid - p.base]
            open_after = p.group_open[g]
        else:
            r = board.find(sid)
            g2 = p.root_group.get(r)
            open_after = board.root_data[r].open if g2 is None else p.group_open[g2]  # type: ignore[union-attr]
        if open_after == 0:
            # completed earlier, or by this turn's own tile (which counts: the tile comes first)
            just_now = sid >= p.base or board.root_data[board.find(sid)].open > 0  # type: ignore[union-attr]
            raise IllegalAction(f"the mountain at {_where(cmd)} is completed" + (" by this turn's tile" if just_now else ""),
                                rule="The mountain must not be completed", section=SEC_TENT, span=cmd.span,
                                hint=("the tile is placed in step 1, so its mountain is completed before step 2b"
                                      if just_now else "pitch the tent on a mountain that is still open"))
        owner = self.tent_at.get(sid)
        if owner == seat:
            raise IllegalAction(f"{self.players[seat]}'s tent already stands at {_where(cmd)}",
                                rule="place/move their own tent on/to a mountain (moving it where it stands "
                                     "changes nothing)", section=SEC_TENT, span=cmd.span)
        if owner is not None:
            raise IllegalAction(f"{self.players[owner]}'s tent stands on the mountain segment at {_where(cmd)}",
                                rule="The mountain segment of the tile must be vacant", section=SEC_TENT, span=cmd.span)
        cb = self.cowboy_at.get(sid)
        if cb is not None:
            raise IllegalAction(f"{self.players[cb]}'s gold miner stands on the mountain segment at {_where(cmd)}",
                                rule="The mountain segment of the tile must be vacant (a cowboy may occupy another "
                                     "segment of the same tile)", section=SEC_TENT, span=cmd.span)
        return sid

    def _check_mine(self, seat: int, p: Placement, cmd: Mine, alloc: list[tuple[int, int, int]]) -> tuple[int, int]:
        """Validate a Mine after placement ``p``; returns (old root or -1, group or -1) of the tent's mountain."""
        t = self.tent[seat]
        if t < 0:
            raise IllegalAction(f"{self.players[seat]} has no tent on a mountain",
                                rule="take the topmost Mining token from the mountain where their tent is located",
                                section=SEC_MINE, span=cmd.span, hint="pitch the tent first (step 2b)")
        r = self.board.find(t)
        g = p.root_group.get(r, -1)
        size = self._post_stack(p, g, alloc) if g >= 0 else len(self.stacks.get(r, ()))
        if size == 0:
            x, y = self.board.segment_tile[t]
            raise IllegalAction(f"no mining token is left on the mountain of {self.players[seat]}'s tent at {x},{y}",
                                rule="take the topmost Mining token from the mountain where their tent is located",
                                section=SEC_MINE, span=cmd.span, hint="move the tent (step 2b) instead")
        self._check_value(cmd.value, {}, cmd.span, "the mined token", SEC_MINE)
        return r, g

    def _put_cowboy(self, seat: int, sid: int) -> None:
        """A cowboy from ``seat``'s supply onto segment ``sid``."""
        self.board.add_follower(sid, seat)
        self.cowboy_at[sid] = seat
        self.supply[seat] = self.supply[seat] - 1

    def _move_tent(self, seat: int, sid: int) -> None:
        """``seat``'s tent onto mountain segment ``sid`` (from the supply or another mountain)."""
        old = self.tent[seat]
        if old >= 0:
            del self.tent_at[old]
        self.tent[seat] = sid
        self.tent_at[sid] = seat

    def _mine_top(self, seat: int, stack: list[int], value: int | None) -> int:
        """``seat`` takes the top token of ``stack`` (its face, when the record states it); returns its id."""
        token = stack.pop()
        self.hands[seat].append(token)
        if value is not None:
            self._learn_face(token, value)
        return token
