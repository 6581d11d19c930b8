"""Carcassonne (base game) with The Gold Mines, on the tiling core's :class:`~grn.games.tiling.engine.TileEngine`.

:class:`CarcassonneState` replays turns given as engine commands
(:mod:`grn.games.carcassonne.commands`, :mod:`grn.games.tiling.commands`): a turn is
any discards of tiles that fit nowhere, one tile, with a Gold Mines tile the
second ingot (``ingot@x,y``), at most one follower (``+N``), and optionally
the tiles the turn's gold is taken from (``take@x,y``).  Everything is checked
before anything changes, so an illegal turn raises
:class:`~grn.core.errors.IllegalAction` (rule, section, hint, span) and leaves the
game as it was.  Rulings where the rules are silent are in docs/rulings.md.
"""
from __future__ import annotations

from typing import Any, Sequence

from grn.rules.engine import Event
from grn.core.errors import IllegalAction
from grn.games.carcassonne.commands import PlaceFollower, PlaceIngot, TakeIngot
from grn.games.carcassonne.completion import AROUND, Completion
from grn.games.carcassonne.events import (
    FollowersReturned, IngotsPlaced, IngotsRemoved, IngotTaken, ScoreEvent, TileDiscarded,
)
from grn.games.carcassonne.followers import FOLLOWER_FIELDS
from grn.games.carcassonne.gold import GoldMines, distribute
from grn.games.carcassonne.options import Options
from grn.games.carcassonne.scoring import SCORING_FIELDS
from grn.games.carcassonne.setup_turn import SetUp
from grn.games.carcassonne.terms import (
    FOLLOWERS, INGOT_MARK, Q_ORDER_BASE, Q_PLACE, Q_SEQUENCE, Q_SETUP, SEC_GENERAL, SEC_GOLD_PLACE, SEC_GOLD_SETUP,
    SEC_PLAYING, TILE_RULES, counted,
)
from grn.core.record import Command
from grn.rules.ruleset import COLOURS
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.tiling.engine import TILE_FIELDS
from grn.games.tiling.tiles import TileSet, load_shipped_tileset

#: Every field of a CarcassonneState (what copies take over and what pickle keeps).
_STATE_FIELDS: tuple[str, ...] = TILE_FIELDS + FOLLOWER_FIELDS + SCORING_FIELDS


class CarcassonneState(SetUp):
    """A game of Carcassonne in progress (with The Gold Mines when its option is on).

    Build with :meth:`new`; play with :meth:`play_turn`; end with
    :meth:`final_scoring`.  Players are colours in clockwise seat order.  The
    engine is built in layers, one job each: the tile-laying core
    (:class:`grn.games.tiling.engine.TileEngine`), followers (:mod:`.followers`),
    scoring (:mod:`.scoring`) and set-up turns (:mod:`.setup_turn`); this class
    adds the turn itself.  The Gold Mines is a part composed in, not a layer
    (R480): :attr:`mines`, a :class:`~grn.games.carcassonne.gold.GoldMines` when
    the option is on and None when it is off.
    """

    __slots__ = ()

    @classmethod
    def new(cls, tileset: TileSet | None, players: Sequence[str], options: Options = Options(),
            first: str | None = None, start: tuple[str, int, int, int] | None = None) -> CarcassonneState:
        """A new game: the start tile D at 0,0 (or ``start``: tile, x, y, rotation), the other tiles in the bag
        (the Gold Mines tiles with ``goldmines``; ``options.basic`` and ``goldmines_copies`` copies of each)."""
        if tileset is None:
            tileset = load_shipped_tileset("grn.games.carcassonne")
        players = tuple(players)
        if not 2 <= len(players) <= 5:
            raise IllegalAction(f"Carcassonne is for 2 to 5 players, not {len(players)}",
                                rule="for 2 to 5 players", section=SEC_GENERAL)
        for colour in players:
            if colour not in COLOURS:
                raise IllegalAction(f"unknown colour {colour!r}", rule="each player takes the followers of a colour",
                                    section=SEC_GENERAL, hint="the colours are " + ", ".join(COLOURS))
        if len(set(players)) != len(players):
            raise IllegalAction("a colour is taken twice", rule="each player takes the followers of a colour",
                                section=SEC_GENERAL)
        if first is None:
            first = players[0]
        if first not in players:
            raise IllegalAction(f"first player {first!r} is not playing", rule="the start player",
                                section=SEC_PLAYING)
        if start is not None and start[0] not in tileset:
            raise IllegalAction(f"the start tile {start[0]!r} is not a tile of the set", rule="the start tile",
                                section=SEC_GENERAL)
        s = CarcassonneState.__new__(CarcassonneState)
        s._start(tileset, players, first, TILE_RULES, start)
        start_id = tileset.start if start is None else start[0]
        for t in tileset.tiles:  # the box: each set's copies, less the start tile
            gold = INGOT_MARK in t.marks
            copies = (options.goldmines_copies if options.goldmines else 0) if gold else options.basic
            s._bag[t.id] = max(0, t.count * copies - (t.id == start_id))
        s.bag_left = sum(s._bag.values())
        s.options = options
        s.supply = [FOLLOWERS] * len(players)
        s.follower_at = {}
        s.mines = GoldMines(players) if options.goldmines else None
        s.final_done = False
        return s

    def copy(self) -> CarcassonneState:
        """An independent copy."""
        c = CarcassonneState.__new__(CarcassonneState)
        c._adopt(self)
        c.board = self.board.copy()
        c._bag = self._bag.copy()
        c._scores = self._scores[:]
        c.supply = self.supply[:]
        c.follower_at = self.follower_at.copy()
        c.mines = self.mines.copy() if self.mines is not None else None
        return c

    def state_fields(self) -> tuple[str, ...]:
        return _STATE_FIELDS

    def __repr__(self) -> str:
        sc = ", ".join(f"{p} {s}" for p, s in zip(self.players, self._scores))
        return (f"<CarcassonneState turn {self.turn}, {self.current_player} to play, {len(self.board)} tiles, "
                f"{self.bag_left} in bag; {sc}>")

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, so that a Jupyter notebook shows the board (as python-chess's Board does)."""
        # imported here: drawing (svgwrite, the renderer) loads only when a notebook asks
        from grn.rules.position import state_svg

        return state_svg(self, "carcassonne")

    def fingerprint(self) -> Any:
        """A hashable summary of the whole state (tests check that an illegal turn changes nothing)."""
        return (self.board.state_key(), self.seat, self.turn, tuple(sorted(self._bag.items())), self.bag_left,
                tuple(self._scores), tuple(self.supply), tuple(sorted(self.follower_at.items())),
                self.mines.key() if self.mines is not None else None, self.final_done)

    # ------------------------------------------------------------------
    # a turn
    # ------------------------------------------------------------------
    def play_turn(self, player: str, actions: Sequence[Command]) -> list[Event]:
        """Play one turn of ``player``; returns what happened.  Raises IllegalAction and changes nothing when illegal.

        Kept whole: the turn's steps in the rulebook's order, every one checked before
        anything changes."""
        seat = self._seat_to_play(player, actions)
        # a tuple (a record's turn already holds one: tuple() hands it back): compiled indexing is then a C read
        acts = tuple(actions)
        n = len(acts)
        i = 0
        while i < n and type(acts[i]) is DiscardTile:
            i += 1
        discards: list[DiscardTile] = [a for a in acts[:i] if isinstance(a, DiscardTile)]
        place: PlaceTile | None = None
        a0 = acts[i] if i < n else None
        if isinstance(a0, PlaceTile):
            place = a0
            i += 1
        ingot: PlaceIngot | None = None
        a1 = acts[i] if i < n else None
        if isinstance(a1, PlaceIngot):
            ingot = a1
            i += 1
        follow: PlaceFollower | None = None
        a2 = acts[i] if i < n else None
        if isinstance(a2, PlaceFollower):
            follow = a2
            i += 1
        takes: list[TakeIngot] = []
        while i < n:
            a = acts[i]
            if not isinstance(a, TakeIngot):
                break
            takes.append(a)
            i += 1
        if i < n or (place is None and (ingot is not None or follow is not None or takes)):
            bad = acts[i] if i < n else (ingot or follow or takes[0])
            raise IllegalAction(f"{self._word(bad)} is out of order", rule=Q_SEQUENCE if self.options.goldmines
                                else Q_ORDER_BASE, section=SEC_PLAYING, span=getattr(bad, "span", None),
                                hint="write a turn as: discards, the tile, the second ingot, the follower, "
                                     "then the tiles gold is taken from")

        # no dict made for the usual turn without discards
        used = self._check_discards(discards) if discards else None
        events: list[Event] = []
        if place is None:
            if self.bag_left - len(discards) > 0:
                span = discards[-1].span if discards else None
                left = self.bag_left - len(discards)
                raise IllegalAction("the turn places no tile", rule=self.rules.draw_and_place,
                                    section=SEC_PLAYING, span=span,
                                    hint=f"{counted(left, 'tile')} {'is' if left == 1 else 'are'} left in the bag: "
                                         "write the tile drawn and where it goes, such as K@1,0:90")
            events += self._discard(player, discards)
            self._next_turn(seat)
            return events

        design = self._design(place.tile, place.span)
        gold = INGOT_MARK in design.marks
        if gold and not self.options.goldmines:
            raise IllegalAction(f"tile {design.id} is a Gold Mines tile, and this game is played without "
                                "The Gold Mines", rule=Q_SETUP, section=SEC_GOLD_SETUP, span=place.span,
                                hint='add the option: [Options "goldmines"]')
        if self._bag[design.id] - (used.get(design.id, 0) if used else 0) <= 0:
            raise self._bag_error(design, place.span)
        p = self._preview(place, design)
        pos = (p.x, p.y)
        mines = self.mines
        placed: tuple[tuple[int, int], tuple[int, int]] | None = None
        if gold and mines is not None:
            placed = (pos, mines.second(self, design, pos, ingot, place.span))
        elif ingot is not None:
            raise IllegalAction(f"tile {design.id} has no gold ingot, so no ingot is set",
                                rule=Q_PLACE, section=SEC_GOLD_PLACE, span=ingot.span,
                                hint="ingots are set only after placing a tile with a gold ingot")
        local = self._check_follower(seat, p, follow) if follow is not None else -1
        done = self._completions(p, seat, local)
        picks: list[tuple[int, tuple[int, int]]] = []
        if mines is not None:
            picks = mines.picks(self, done, takes, placed)
        elif takes:
            distribute(self, done, {}, takes)  # raises: without The Gold Mines every take@ is one too many

        # ---- apply --------------------------------------------------------
        events += self._discard(player, discards)
        targets = self._lay(p)
        if placed is not None and mines is not None:
            mines.place(placed, events)
        if local >= 0:
            self._put_follower(seat, p.base + local)
        for c in done:
            self._score(c, targets, events)
        if picks and mines is not None:
            mines.hand_out(picks, events)
        self._next_turn(seat)
        return events

    def _word(self, action: Any) -> str:
        names = {PlaceTile: "the tile", DiscardTile: "a discard", PlaceIngot: "the ingot",
                 PlaceFollower: "the follower", TakeIngot: "an ingot taken"}
        return names.get(type(action), repr(action))


def ingot_options(state: CarcassonneState, placement: PlaceTile) -> list[PlaceIngot]:
    """Where the second ingot may go after ``placement``: nowhere without The Gold Mines or when the tile has no
    ingot (the recorder's, the bots' and self-play's question, R480)."""
    mines = state.mines
    return mines.options(state, placement) if mines is not None else []


__all__ = ["CarcassonneState", "ingot_options", "Options", "Completion", "AROUND", "Event", "ScoreEvent",
           "FollowersReturned", "IngotsPlaced", "IngotTaken", "IngotsRemoved", "TileDiscarded"]
