"""What a tile-laying turn did to the board, for puzzle themes (``grn puzzles``): the shape of the move.

Each game names its themes (:meth:`grn.rules.ruleset.Puzzles.themes`) from its
score events and from :func:`placement_facts`: the kind of feature the player's new
figure stands on, the features the tile joined that hold the player's and an
opponent's figures (a join, or a steal when the player now leads), and the
opponents' open features the tile left next to a square no tile left in the bag
can fill (a blocked feature, R400).  Kinds are the tile set's words; this module
names none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from grn.games.tiling.commands import PlaceTile

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.games.tiling.engine import TileEngine

#: The squares beside a square, with the edge (0 N, 1 E, 2 S, 3 W) of the neighbour that faces it.
_SIDES = ((0, 1, 2), (1, 0, 3), (0, -1, 0), (-1, 0, 1))


@dataclass(frozen=True, slots=True)
class PlacementFacts:
    """The shape of one turn: ``figure`` the kind of feature the player's new figure stands on (None: no new
    figure); ``joined`` and ``stolen`` the kinds of features the tile joined to one of the player's, now holding
    the player's and an opponent's figures (``stolen``: the player has more there than any opponent);
    ``blocked`` the kinds of the opponents' open features that lie beside a square no tile left can fill now."""

    figure: str | None
    joined: tuple[str, ...]
    stolen: tuple[str, ...]
    blocked: tuple[str, ...]

    def shape_themes(self) -> set[str]:
        """The themes every tile-laying game reads from a turn's shape: a feature stolen, joined, or blocked."""
        return {theme for theme, kinds in (("steal a feature", self.stolen), ("join a feature", self.joined),
                                           ("blocked feature", self.blocked)) if kinds}


def _placed(actions: Sequence[Command]) -> PlaceTile | None:
    return next((a for a in actions if isinstance(a, PlaceTile)), None)


def placement_facts(before: TileEngine, after: TileEngine, player: str, actions: Sequence[Command]) -> PlacementFacts:
    """The facts of ``player``'s turn ``actions`` from the tile engines ``before`` and ``after`` it."""
    placed = _placed(actions)
    if placed is None:
        return PlacementFacts(None, (), (), ())
    seat = list(after.players).index(player)
    old, new = before.board, after.board
    tile = new.tiles.get((placed.x, placed.y))
    if tile is None:
        return PlacementFacts(None, (), (), ())
    sids = [tile.sid(i) for i in range(len(tile.design.segments))]
    figure = None
    joined: list[str] = []
    stolen: list[str] = []
    seen: set[int] = set()
    for sid in sids:
        root = new.find(sid)
        if root in seen:
            continue
        seen.add(root)
        data = new.data(sid)
        followers = list(data.followers or ())
        for owner, where in followers:
            if owner == seat and where in sids:
                figure = data.kind
        # the features before the tile that hold the followers now on this one
        parts: dict[int, set[Any]] = {}
        for owner, where in followers:
            if where < len(old.parent):
                parts.setdefault(old.find(where), set()).add(owner)
        own = [r for r, owners in parts.items() if owners == {seat}]
        theirs = [r for r, owners in parts.items() if seat not in owners]
        if own and theirs:
            counts: dict[Any, int] = {}
            for owner, _ in followers:
                counts[owner] = counts.get(owner, 0) + 1
            others = max((n for o, n in counts.items() if o != seat), default=0)
            (stolen if counts.get(seat, 0) > others else joined).append(data.kind)
    blocked = _blocked(before, after, seat, placed)
    return PlacementFacts(figure, tuple(joined), tuple(stolen), tuple(blocked))


def _fillable(engine: TileEngine, x: int, y: int) -> bool:
    """Whether some tile left in the bag fits the empty square ``(x, y)`` in some rotation."""
    board = engine.board
    for tile, count in engine.bag().items():
        if count <= 0:
            continue
        design = engine.tileset.by_id.get(tile)
        if design is None:
            continue
        if any(board.fits(design, x, y, r) for r in (0, 90, 180, 270)):
            return True
    return False


def _blocked(before: TileEngine, after: TileEngine, seat: int, placed: PlaceTile) -> list[str]:
    """The kinds of the opponents' open features beside a square next to the tile placed that the tile made
    unfillable (some tile left could fill it before, none can now)."""
    board = after.board
    out: list[str] = []
    for dx, dy, _ in _SIDES:
        sx, sy = placed.x + dx, placed.y + dy
        if (sx, sy) in board.tiles or _fillable(after, sx, sy) or not _fillable(before, sx, sy):
            continue
        for ex, ey, edge in _SIDES:
            near = board.tiles.get((sx + ex, sy + ey))
            if near is None:
                continue
            for k in range(3):
                data = board.data(near.segment_at(3 * edge + k))
                owners = {o for o, _ in (data.followers or ())}
                if data.open and owners and seat not in owners and data.kind not in out:
                    out.append(data.kind)
    return out


__all__ = ["PlacementFacts", "placement_facts"]
