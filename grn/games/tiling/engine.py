"""What every tile-laying engine shares: seats and turn order, the bag, placing tiles, followers' majority.

:class:`TileEngine` is the base of a tile-laying game's rules engine (Gold
Rush's :class:`~grn.games.goldrush.rules.GoldRushState`, and the next
Carcassonne ruleset).  It holds the board, the players in seat order, whose
turn it is, the bag and the scores, and it checks what the rules of every
tile-laying game say alike: a tile comes from the bag and goes on an empty
square beside another tile where every edge matches; a tile that fits
nowhere is discarded; the turn passes clockwise; the majority of followers on
a feature scores, ties share.  The game's own words for these rules (its
sections and quotes) come from a :class:`TileRules` it hands over.
"""

from __future__ import annotations

from typing import Any, Final, Iterable, Sequence

from grn.rules.engine import Engine, not_playing
from grn.core.errors import IllegalAction, Span
from grn.games.tiling.board import Board, PlacedTile, Placement
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.tiling.events import TileDiscarded
from grn.games.tiling.places import PLACE_INDEX, POSITIONS, ROTATIONS, spot_text
from grn.games.tiling.tiles import TileDesign, TileSet


_RULES_FIELDS = ("general", "playing", "placing", "distribution", "end", "must_touch", "must_match", "discard",
                 "clockwise", "game_end", "draw_and_place")


class TileRules:
    """How a tile-laying game's rules word the checks :class:`TileEngine` makes: sections and quotes."""

    __slots__ = _RULES_FIELDS

    def __init__(self, *, general: str, playing: str, placing: str, distribution: str, end: str,
                 must_touch: str, must_match: str, discard: str, clockwise: str, game_end: str,
                 draw_and_place: str) -> None:
        #: Sections of the rules (how a player finds them).
        self.general = general
        self.playing = playing
        self.placing = placing
        self.distribution = distribution
        self.end = end
        #: The rules' own sentences.
        self.must_touch = must_touch
        self.must_match = must_match
        self.discard = discard
        self.clockwise = clockwise
        self.game_end = game_end
        self.draw_and_place = draw_and_place

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy.deepcopy: a compiled class is rebuilt from its keyword arguments
        return (_restore_rules, (tuple((name, getattr(self, name)) for name in _RULES_FIELDS),))


def _restore_rules(items: tuple[tuple[str, str], ...]) -> TileRules:
    return TileRules(**dict(items))


#: id(tile set) -> (the tile set, its full bag): every game of a file starts from the same bag, and copying
#: a dict costs a fraction of building it (the tile set is kept to tell a reused id apart).
_BAGS: Final[dict[int, tuple[TileSet, dict[str, int]]]] = {}


def _full_bag(tileset: TileSet) -> dict[str, int]:
    """Tile id -> copies in the box (a shared dict: copy it before changing it)."""
    hit = _BAGS.get(id(tileset))
    if hit is not None and hit[0] is tileset:
        return hit[1]
    bag = {t.id: t.count for t in tileset.tiles}
    if len(_BAGS) >= 64:
        _BAGS.clear()
    _BAGS[id(tileset)] = (tileset, bag)
    return bag


#: The fields of a :class:`TileEngine` (what copies and pickles carry).
TILE_FIELDS: tuple[str, ...] = ("tileset", "players", "board", "seat", "turn", "_bag", "bag_left", "_scores",
                                "_seat_of", "_last_pos", "rules")


class TileEngine(Engine):
    """A tile-laying game in progress: the board, the seats, the bag and the scores.

    Players are colours in clockwise seat order.  A subclass sets the fields
    with :meth:`_start` and adds its own pieces and scoring.
    """

    __slots__ = TILE_FIELDS

    tileset: TileSet
    players: tuple[str, ...]
    board: Board
    seat: int
    turn: int
    _bag: dict[str, int]
    bag_left: int
    _scores: list[int]
    _seat_of: dict[str, int]
    _last_pos: tuple[int, int]
    rules: TileRules

    def _start(self, tileset: TileSet, players: tuple[str, ...], first: str,
               rules: TileRules, start: tuple[str, int, int, int] | None = None) -> tuple[Placement, list[int]]:
        """Seat the players, fill the bag and lay the start tile (the set's at 0,0 unturned, or ``start``: tile,
        x, y, rotation); returns its placement and feature roots."""
        self.tileset = tileset
        self.players = players
        self.rules = rules
        self.board = Board(tileset)
        self.seat = players.index(first)
        self.turn = 0
        self._bag = _full_bag(tileset).copy()
        self._scores = [0] * len(players)
        self._seat_of = {p: i for i, p in enumerate(players)}
        tile_id, x, y, rotation = start if start is not None else (tileset.start, 0, 0, 0)
        design = tileset[tile_id]
        p = self.board.preview(design, x, y, rotation, first=True)
        assert p is not None
        targets = self.board.place(p)
        self._bag[design.id] = max(0, self._bag[design.id] - 1)
        self.bag_left = sum(self._bag.values())
        self._last_pos = (x, y)
        return p, targets

    # ------------------------------------------------------------------
    # read-only views
    # ------------------------------------------------------------------
    @property
    def current_player(self) -> str:
        """The colour whose turn it is."""
        return self.players[self.seat]

    @property
    def scores(self) -> dict[str, int]:
        """Points per player so far."""
        return dict(zip(self.players, self._scores))

    @property
    def is_over(self) -> bool:
        """No tile left in the bag: the game has ended (final scoring may follow)."""
        return self.bag_left == 0

    def bag(self) -> dict[str, int]:
        """Remaining copies per tile id (ids with none left included, as 0)."""
        return dict(self._bag)

    def set_scores(self, scores: dict[str, int]) -> None:
        """Overwrite scores (a set-up position's score checkpoint)."""
        for p, v in scores.items():
            if p in self._seat_of:
                self._scores[self._seat_of[p]] = v

    def legal_placements(self, tile_id: str) -> list[PlaceTile]:
        """Every legal placement of ``tile_id`` (one of identical rotations, the lowest)."""
        design = self._design(tile_id, None)
        return [PlaceTile(tile_id, x, y, r) for x, y, r in self.board.legal_positions(design)]

    # ------------------------------------------------------------------
    # seats and turns
    # ------------------------------------------------------------------
    def _player_seat(self, player: str, span: Span | None) -> int:
        """The seat of a player the record names (any seat: set-up turns are not in turn order)."""
        seat = self._seat_of.get(player)
        if seat is None:
            raise not_playing(player, self.players, section=self.rules.general, span=span)
        return seat

    def _seat_to_play(self, player: str, actions: Sequence[Any]) -> int:
        """The seat of the player whose turn it must be; refuses a turn after the end or out of turn."""
        seat = self._seat_of.get(player, -1)
        if seat >= 0 and seat == self.seat and not self._finished():
            return seat  # the usual case: no span looked up
        first_span = getattr(actions[0], "span", None) if actions else None
        if self._finished():
            raise IllegalAction("the game is over: no tile is left", rule=self.rules.game_end,
                                section=self.rules.end, span=first_span)
        seat = self._player_seat(player, first_span)
        if seat != self.seat:
            raise IllegalAction(f"it is {self.players[self.seat]}'s turn, not {player}'s",
                                rule=self.rules.clockwise, section=self.rules.playing, span=first_span)
        return seat

    def _finished(self) -> bool:
        """No turn may be played any more (default: the bag is empty)."""
        return self.bag_left == 0

    def _clockwise(self, start: int) -> list[int]:
        n = len(self.players)
        return [(start + i) % n for i in range(n)]

    def _next_turn(self, seat: int) -> None:
        """The turn passes clockwise."""
        self.turn += 1
        self.seat = (seat + 1) % len(self.players)

    def _majority(self, followers: Iterable[tuple[Any, int]]) -> list[int]:
        """The seats with the most followers (owners are seats), clockwise from the player on turn."""
        n = len(self.players)
        counts = [0] * n
        best = 0
        for f in followers:
            s: int = f[0]
            c = counts[s] + 1
            counts[s] = c
            if c > best:
                best = c
        out: list[int] = []
        if best == 0:
            return out
        s = self.seat
        for _ in range(n):  # clockwise from the player on turn (no list of seats, no modulo per seat)
            if counts[s] == best:
                out.append(s)
            s += 1
            if s == n:
                s = 0
        return out

    # ------------------------------------------------------------------
    # tiles: the bag, placing, discarding
    # ------------------------------------------------------------------
    def _design(self, tile: str, span: Span | None) -> TileDesign:
        d = self.tileset.by_id.get(tile)
        if d is None:
            raise IllegalAction(f"there is no tile {tile!r} in the {self.tileset.name} tile set",
                                rule="the tiles are those of the box", section=self.rules.distribution, span=span,
                                hint="tile ids: " + " ".join(t.id for t in self.tileset.tiles))
        return d

    def _bag_error(self, design: TileDesign, span: Span | None) -> IllegalAction:
        return IllegalAction(f"no copy of tile {design.id} is left (the box has {design.count})",
                             rule=f"the box holds {design.count} of tile {design.id}",
                             section=self.rules.distribution, span=span,
                             hint="tiles left: " + " ".join(f"{t}x{c}" for t, c in self._bag.items() if c))

    def _check_rotation(self, rotation: int, span: Span | None) -> None:
        # int arithmetic, not a search of ROTATIONS (which a compiled build would box every int for)
        if rotation % 90 or not 0 <= rotation < 360:
            raise IllegalAction(f"rotation {rotation} is not 0, 90, 180 or 270",
                                rule="tiles are turned in quarter turns", section=self.rules.placing, span=span)

    def _preview(self, cmd: PlaceTile, design: TileDesign) -> Placement:
        """Where the tile would go, checked (rotation, empty square, a neighbour, matching edges)."""
        self._check_rotation(cmd.rotation, cmd.span)
        p = self.board.preview(design, cmd.x, cmd.y, cmd.rotation)
        if p is None:
            raise self._placement_error(cmd, design)
        return p

    def _check_discards(self, discards: Sequence[DiscardTile]) -> dict[str, int]:
        """Each discarded tile is in the bag and fits nowhere; returns the copies used per tile id."""
        used: dict[str, int] = {}
        for d in discards:
            design = self._design(d.tile, d.span)
            if self._bag[design.id] - used.get(design.id, 0) <= 0:
                raise self._bag_error(design, d.span)
            if self.board.has_legal_position(design):
                raise IllegalAction(f"tile {design.id} fits on the board, so it may not be discarded",
                                    rule=self.rules.discard, section=self.rules.placing,
                                    span=d.span, hint=self._placement_hint(design))
            used[design.id] = used.get(design.id, 0) + 1
        return used

    def _discard(self, player: str, discards: Sequence[DiscardTile]) -> list[Any]:
        """The discards of a turn (checked by :meth:`_check_discards`) leave the bag; returns their events."""
        events: list[Any] = []
        for d in discards:
            self._take_from_bag(d.tile)
            events.append(TileDiscarded(player, d.tile))
        return events

    def _take_from_bag(self, tile: str) -> None:
        self._bag[tile] = self._bag[tile] - 1
        self.bag_left -= 1

    def _lay(self, p: Placement) -> list[int]:
        """Take the tile from the bag and lay it; returns the feature roots of its segment groups."""
        self._take_from_bag(p.design.id)
        targets = self.board.place(p)
        self._last_pos = (p.x, p.y)
        return targets

    def _placement_error(self, cmd: PlaceTile, design: TileDesign) -> IllegalAction:
        board = self.board
        x, y, r = cmd.x, cmd.y, cmd.rotation
        hint = self._placement_hint(design, x, y)
        if (x, y) in board.tiles:
            return IllegalAction(f"{x},{y} already holds tile {board.tiles[(x, y)].design.id}",
                                 rule="A tile goes on an empty square", section=self.rules.placing, span=cmd.span,
                                 hint=hint)
        if (x, y) not in board.frontier:
            return IllegalAction(f"tile {design.id} at {x},{y} touches no tile", rule=self.rules.must_touch,
                                 section=self.rules.placing, span=cmd.span, hint=hint)
        bad = board.mismatches(design, x, y, r)
        return IllegalAction(f"tile {design.id} at {spot_text(x, y, r)} does not match its neighbour"
                             f"{'s' if len(bad) > 1 else ''} on the {' and '.join(bad)} edge{'s' if len(bad) > 1 else ''}",
                             rule=self.rules.must_match, section=self.rules.placing, span=cmd.span, hint=hint)

    def _placement_hint(self, design: TileDesign, x: int | None = None, y: int | None = None) -> str:
        board = self.board
        if x is not None and y is not None and (x, y) in board.frontier:
            rots = [r for r in ROTATIONS if board.fits(design, x, y, r)]
            if rots:
                return f"tile {design.id} fits at {x},{y} only rotated {' or '.join(map(str, rots))}"
        spots = board.legal_positions(design)
        if not spots:
            return f"tile {design.id} fits nowhere: discard it"
        text = ", ".join(spot_text(*s) for s in spots[:12])
        return f"tile {design.id} fits at: {text}" + (f", ... ({len(spots)} in all)" if len(spots) > 12 else "")

    # ------------------------------------------------------------------
    # places on a tile
    # ------------------------------------------------------------------
    @staticmethod
    def _segment_of(design: TileDesign, o: Any, base: int, location: str) -> int:
        """The sid (``base`` + local index) a location names on a tile; -1 when it names nothing."""
        if location == "C":
            centre = [i for i, pl in enumerate(o.segment_places) if not pl]
            return base + centre[0] if len(centre) == 1 else -1
        idx = PLACE_INDEX.get(location, -1)  # a dict look-up, not a search of POSITIONS
        if idx < 0:
            return -1
        return base + o.place_segment[idx]

    @staticmethod
    def _location_name(o: Any, local: int) -> str:
        """The canonical location of a tile's segment: C, an edge middle, or its first place."""
        places = o.segment_places[local]
        if not places:
            return "C"
        mids = [p for p in places if p % 3 == 1]
        return POSITIONS[mids[0] if mids else places[0]]

    def state_fields(self) -> tuple[str, ...]:
        """Every field of the game's engine, its own layers' and these (a game's class says)."""
        raise NotImplementedError

    def _adopt(self, other: "TileEngine") -> None:
        """Take over every field of ``other`` (by reference)."""
        for name in self.state_fields():
            setattr(self, name, getattr(other, name))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy.deepcopy: compiled classes cannot be made without __init__ by copyreg
        return (_restore_engine, (type(self), tuple(getattr(self, name) for name in self.state_fields())))

    def _last_tile(self) -> PlacedTile | None:
        """The tile placed last (where a set-up turn's follower goes)."""
        return self.board.tiles.get(self._last_pos)


def _restore_engine(cls: type[TileEngine], values: tuple[Any, ...]) -> TileEngine:
    """A tile-laying engine of class ``cls`` from the field values :meth:`TileEngine.__reduce__` gave."""
    state = cls.__new__(cls)
    for name, value in zip(state.state_fields(), values):
        setattr(state, name, value)
    return state
