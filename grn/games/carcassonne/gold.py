"""The Gold Mines: ingots set after a tile with a gold ingot, and their distribution when features complete.

"He then sets a gold ingot on that tile and on an adjacent tile (even
diagonally)."  When features are completed, their majorities take the ingots
on their tiles one at a time, "Starting with the active player and followed
by the other players in turn order" (rulings R35-R37 for what the rules leave open).
"""

from __future__ import annotations

from typing import Sequence

from grn.core.errors import IllegalAction
from grn.games.carcassonne.commands import PlaceIngot, TakeIngot
from grn.games.carcassonne.completion import AROUND, Completion
from grn.games.carcassonne.followers import Followers
from grn.games.carcassonne.terms import INGOT_MARK, Q_PLACE, Q_SHARE, Q_STACK, SEC_GOLD_PLACE, SEC_GOLD_TAKE, counted
from grn.games.tiling.commands import PlaceTile

#: The fields this layer adds.
GOLD_FIELDS: tuple[str, ...] = ("ingots", "held")


class GoldMines(Followers):
    """Carcassonne's followers with The Gold Mines' ingots."""

    __slots__ = GOLD_FIELDS

    #: Tile position -> gold ingots on it.
    ingots: dict[tuple[int, int], int]
    #: Per seat, gold ingots taken.
    held: list[int]

    @property
    def gold(self) -> dict[str, int]:
        """Gold ingots each player has taken ("The players' gold ingots are never hidden")."""
        return dict(zip(self.players, self.held))

    def _ingot_spots(self, pos: tuple[int, int]) -> list[tuple[int, int]]:
        tiles = self.board.tiles
        x, y = pos
        return [(x + dx, y + dy) for dx, dy in AROUND if (x + dx, y + dy) in tiles]

    def ingot_options(self, placement: PlaceTile) -> list[PlaceIngot]:
        """Where the second ingot may go after ``placement`` (empty when the tile has no ingot)."""
        design = self._design(placement.tile, placement.span)
        if INGOT_MARK not in design.marks:
            return []
        return [PlaceIngot(x, y) for x, y in self._ingot_spots((placement.x, placement.y))]

    def _check_ingot(self, pos: tuple[int, int], cmd: PlaceIngot) -> tuple[int, int]:
        q = (cmd.x, cmd.y)
        spots = self._ingot_spots(pos)
        hint = "the tiles next to it: " + " ".join(f"ingot@{x},{y}" for x, y in spots)
        if q == pos:
            raise IllegalAction("the second ingot goes on a tile next to the new one, not on the new tile",
                                rule=Q_PLACE, section=SEC_GOLD_PLACE, span=cmd.span, hint=hint)
        if q not in spots:
            what = "no tile" if q not in self.board.tiles else "a tile that is not next to the new one"
            raise IllegalAction(f"{q[0]},{q[1]} is {what}", rule=Q_PLACE + " " + Q_STACK,
                                section=SEC_GOLD_PLACE, span=cmd.span, hint=hint)
        return q

    def _distribute(self, done: list[Completion], pile: dict[tuple[int, int], int],
                    takes: Sequence[TakeIngot]) -> list[tuple[int, tuple[int, int]]]:
        """Who takes which ingot this turn, one at a time from the active player on (rulings 13-15)."""
        claims: dict[tuple[int, int], set[int]] = {}
        for c in done:
            if not c.winners:
                continue
            for q in c.tiles:
                if pile.get(q, 0) > 0:
                    claims.setdefault(q, set()).update(c.winners)
        picks: list[tuple[int, tuple[int, int]]] = []
        left = {q: pile[q] for q in claims}
        order = self._clockwise(self.seat)
        k = 0
        while any(left.values()):
            for s in order:
                mine = [q for q in left if left[q] and s in claims[q]]
                if not mine:
                    continue
                if k < len(takes):
                    t = takes[k]
                    q = (t.x, t.y)
                    if q not in mine:
                        raise IllegalAction(
                            f"{self.players[s]} takes the next ingot, and may not take it from {q[0]},{q[1]}",
                            rule=Q_SHARE, section=SEC_GOLD_TAKE, span=t.span,
                            hint=f"{self.players[s]} may take from: " +
                                 " ".join(f"take@{x},{y}" for x, y in self._by_default(mine, claims)))
                else:
                    q = self._by_default(mine, claims)[0]
                k += 1
                left[q] = left[q] - 1
                picks.append((s, q))
        if len(takes) > k:
            t = takes[k]
            raise IllegalAction(f"only {counted(k, 'ingot')} {'is' if k == 1 else 'are'} handed out this turn, "
                                f"but {len(takes)} are taken", rule=Q_SHARE, section=SEC_GOLD_TAKE, span=t.span,
                                hint="drop the extra take@ words" if k else
                                "no completed feature with followers holds gold this turn")
        return picks

    @staticmethod
    def _by_default(mine: list[tuple[int, int]], claims: dict[tuple[int, int], set[int]]) -> list[tuple[int, int]]:
        """The default choice (ruling 14): the tile most players claim, then north to south, then west to east."""
        return sorted(mine, key=lambda q: (-len(claims[q]), -q[1], q[0]))
