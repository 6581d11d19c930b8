"""The Gold Mines: ingots set after a tile with a gold ingot, and their distribution when features complete.

"He then sets a gold ingot on that tile and on an adjacent tile (even
diagonally)."  When features are completed, their majorities take the ingots
on their tiles one at a time, "Starting with the active player and followed
by the other players in turn order" (rulings R35-R37 for what the rules leave open).

The expansion is a part the engine holds only when the option is on (R480): a
:class:`GoldMines` keeps the ingots on the tiles and those each player took,
and the engine calls its hooks at the points of a turn where gold happens
(the second ingot checked, gold handed out, ingots set and taken, the gold
table at the end).  With the option off the engine holds none, and nothing
of gold is asked.
"""

from __future__ import annotations

from typing import Any, Sequence

from grn.core.errors import IllegalAction, Span
from grn.rules.engine import Event
from grn.games.carcassonne.commands import PlaceIngot, TakeIngot
from grn.games.carcassonne.completion import AROUND, Completion
from grn.games.carcassonne.events import IngotsPlaced, IngotsRemoved, IngotTaken, ScoreEvent
from grn.games.carcassonne.followers import Followers
from grn.games.carcassonne.terms import (
    INGOT_MARK, Q_PLACE, Q_SHARE, Q_STACK, Q_TWO, SEC_GOLD_PLACE, SEC_GOLD_TAKE, counted, ingot_value,
)
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.tiles import TileDesign

#: A square of the board, (x, y).
Square = tuple[int, int]
#: Who takes an ingot from where: (seat, square), in the order they are taken.
Pick = tuple[int, Square]


class GoldMines:
    """The Gold Mines' part of a Carcassonne game in progress: the ingots on the tiles, those each player took.

    Its hooks take the engine (:class:`~grn.games.carcassonne.followers.Followers`, the layer below scoring)
    to read the board, the seats and whose turn it is; they change only this part, and the scores where the
    gold table adds to them.
    """

    __slots__ = ("players", "ingots", "held")

    def __init__(self, players: tuple[str, ...], ingots: dict[Square, int] | None = None,
                 held: list[int] | None = None) -> None:
        #: The players (colours) in seat order, as the engine seats them.
        self.players = players
        #: Tile position -> gold ingots on it.
        self.ingots: dict[Square, int] = ingots if ingots is not None else {}
        #: Per seat, gold ingots taken.
        self.held: list[int] = held if held is not None else [0] * len(players)

    def copy(self) -> GoldMines:
        """An independent copy."""
        return GoldMines(self.players, self.ingots.copy(), self.held[:])

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy.deepcopy of the compiled class: rebuilt from its arguments
        return (GoldMines, (self.players, self.ingots, self.held))

    def __repr__(self) -> str:
        return f"<GoldMines {sum(self.ingots.values())} on tiles, held {self.gold}>"

    def key(self) -> tuple[Any, ...]:
        """A hashable summary (the engine's fingerprint)."""
        return (tuple(sorted(self.ingots.items())), tuple(self.held))

    @property
    def gold(self) -> dict[str, int]:
        """Gold ingots each player has taken ("The players' gold ingots are never hidden")."""
        return dict(zip(self.players, self.held))

    # -- placing a tile ----------------------------------------------------------------
    def spots(self, engine: Followers, pos: Square) -> list[Square]:
        """The placed tiles around ``pos`` (even diagonally): where a second ingot may go."""
        tiles = engine.board.tiles
        x, y = pos
        return [(x + dx, y + dy) for dx, dy in AROUND if (x + dx, y + dy) in tiles]

    def options(self, engine: Followers, placement: PlaceTile) -> list[PlaceIngot]:
        """Where the second ingot may go after ``placement`` (empty when the tile has no ingot)."""
        design = engine._design(placement.tile, placement.span)
        if INGOT_MARK not in design.marks:
            return []
        return [PlaceIngot(x, y) for x, y in self.spots(engine, (placement.x, placement.y))]

    def second(self, engine: Followers, design: TileDesign, pos: Square, ingot: PlaceIngot | None,
               span: Span | None) -> Square:
        """Where the second ingot of the gold tile ``design`` placed at ``pos`` goes: ``ingot``'s square,
        checked, or the only tile next to it when the record leaves it out (R35)."""
        if ingot is not None:
            return self._check(engine, pos, ingot)
        spots = self.spots(engine, pos)
        if len(spots) != 1:
            raise IllegalAction(f"tile {design.id} has a gold ingot: say which tile next to it takes the "
                                "second ingot", rule=Q_PLACE + " " + Q_TWO, section=SEC_GOLD_PLACE, span=span,
                                hint="add one of: " + " ".join(f"ingot@{x},{y}" for x, y in spots))
        return spots[0]

    def _check(self, engine: Followers, pos: Square, cmd: PlaceIngot) -> Square:
        q = (cmd.x, cmd.y)
        spots = self.spots(engine, pos)
        hint = "the tiles next to it: " + " ".join(f"ingot@{x},{y}" for x, y in spots)
        if q == pos:
            raise IllegalAction("the second ingot goes on a tile next to the new one, not on the new tile",
                                rule=Q_PLACE, section=SEC_GOLD_PLACE, span=cmd.span, hint=hint)
        if q not in spots:
            what = "no tile" if q not in engine.board.tiles else "a tile that is not next to the new one"
            raise IllegalAction(f"{q[0]},{q[1]} is {what}", rule=Q_PLACE + " " + Q_STACK,
                                section=SEC_GOLD_PLACE, span=cmd.span, hint=hint)
        return q

    # -- handing gold out ----------------------------------------------------------------
    def picks(self, engine: Followers, done: list[Completion], takes: Sequence[TakeIngot],
              placed: tuple[Square, Square] | None) -> list[Pick]:
        """Who takes which ingot this turn (nothing changed yet): the ingots on the tiles, with the two the turn
        sets (``placed``: the gold tile's square and the second ingot's), handed out over ``done``."""
        if not takes and not (done and (placed is not None or self.ingots)):
            return []
        pile = self.ingots.copy()
        if placed is not None:
            for q in placed:
                pile[q] = pile.get(q, 0) + 1
        return distribute(engine, done, pile, takes)

    def place(self, placed: tuple[Square, Square], events: list[Event]) -> None:
        """Set the two ingots of a gold tile (its own square and the second ingot's)."""
        for q in placed:
            self.ingots[q] = self.ingots.get(q, 0) + 1
        events.append(IngotsPlaced(placed))

    def hand_out(self, picks: list[Pick], events: list[Event]) -> None:
        """Give each pick's ingot to its taker."""
        for s, q in picks:
            self.take(s, q)
            events.append(IngotTaken(self.players[s], q[0], q[1]))

    def put(self, q: Square) -> None:
        """An ingot on the tile at ``q`` (a set-up turn)."""
        self.ingots[q] = self.ingots.get(q, 0) + 1

    def take(self, seat: int, q: Square) -> None:
        """``seat`` takes an ingot from the tile at ``q`` (which holds one)."""
        left = self.ingots[q] - 1
        if left:
            self.ingots[q] = left
        else:
            del self.ingots[q]
        self.held[seat] = self.held[seat] + 1

    # -- the end ----------------------------------------------------------------
    def final_scoring(self, engine: Followers, scores: list[int], events: list[Event]) -> None:
        """The gold table: ingots left on the tiles leave the game, each player's ingots score by how many."""
        left = sum(self.ingots.values())
        if left:
            events.append(IngotsRemoved(left))
            self.ingots = {}
        for s in engine._clockwise(0):
            count = self.held[s]
            if count:
                value = ingot_value(count)
                scores[s] = scores[s] + (count * value)
                events.append(ScoreEvent(self.players[s], count * value, "gold",
                                         f"{counted(count, 'gold ingot')} at {value} each", final=True,
                                         counts=(("ingots", count),)))


def distribute(engine: Followers, done: list[Completion], pile: dict[Square, int],
               takes: Sequence[TakeIngot]) -> list[Pick]:
    """Who takes which ingot of ``pile`` this turn, one at a time from the active player on (rulings 13-15).

    Also the check of a game without The Gold Mines (an empty pile): every ``take@`` is one too many."""
    claims: dict[Square, set[int]] = {}
    for c in done:
        if not c.winners:
            continue
        for q in c.tiles:
            if pile.get(q, 0) > 0:
                claims.setdefault(q, set()).update(c.winners)
    picks: list[Pick] = []
    left = {q: pile[q] for q in claims}
    order = engine._clockwise(engine.seat)
    players = engine.players
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
                        f"{players[s]} takes the next ingot, and may not take it from {q[0]},{q[1]}",
                        rule=Q_SHARE, section=SEC_GOLD_TAKE, span=t.span,
                        hint=f"{players[s]} may take from: " +
                             " ".join(f"take@{x},{y}" for x, y in _by_default(mine, claims)))
            else:
                q = _by_default(mine, claims)[0]
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


def _by_default(mine: list[Square], claims: dict[Square, set[int]]) -> list[Square]:
    """The default choice (ruling 14): the tile most players claim, then north to south, then west to east."""
    return sorted(mine, key=lambda q: (-len(claims[q]), -q[1], q[0]))
