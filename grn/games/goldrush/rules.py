"""Carcassonne: Gold Rush rules on the generic board core (the Gold Rush rulebook and rules page).

:class:`GoldRushState` replays turns given as engine commands
(:mod:`grn.games.goldrush.commands`, :mod:`grn.tiling.commands`), refuses illegal ones with
:class:`~grn.errors.IllegalAction` (rule, section, hint, span) and leaves the
state unchanged when it does, scores completed features (step 3) and the
final scoring, and reports what happened as small :class:`Event` values.

Rulings where the documents are silent (each is tested):

* Merged mining-token stacks: when a tile joins mountains, their stacks are
  piled oldest mountain (earliest first tile) at the bottom, in that order,
  and the new tile's tokens go on top.
* Token supply exhausted: a tile places only the tokens left; its nugget
  symbols still score.
* Tokens that go back to the supply (completed mountain without gold miner,
  rules page, footnote 5) go to the bottom of the face-down supply.
* Scoring order within a turn: railroads, then mountains, then cities; within
  a kind by the first place (clockwise from NNW, on the board) the feature
  holds on the new tile; a city by the first such place among its railroads
  completed this turn.  RevealTokens lists the faces in that hand-out order.
* A mountain completed by this turn's tile counts as completed for step 2b
  (no tent there); mining it (2c) is allowed and happens before scoring (rules
  page, footnote 4).
* Moving one's tent to the segment it already stands on is illegal (nothing
  would change).
* Step 2 needs a tile placed this turn: a turn whose discards empty the bag
  has no step 2.
* Final scoring: every feature still holding cowboys scores with the
  incomplete-feature rules (a feature completed during a set-up turn 0 was
  never scored); tents and tokens still on mountains are removed first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Iterable, Sequence, cast

from grn.tiling.board import Board, FeatureData, PlacedTile, Placement
from grn.engine import Engine, Event
from grn.errors import IllegalAction, Span
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.record import Command
from grn.ruleset import COLOURS
from grn.tiling.commands import DiscardTile, PlaceTile
from grn.tiling.places import POSITIONS
from grn.tiling.tiles import TileDesign, TileSet, load_shipped_tileset
from grn.value import reduce_dataclass

#: How rule messages cite the rules: by the rulebook's own section names.
RULEBOOK = "Gold Rush rulebook"
SEC_GENERAL = f"{RULEBOOK}, General Info and Comments"
SEC_PLAYING = f"{RULEBOOK}, Playing the Game"
SEC_PLACING = f"{RULEBOOK}, step 1. Placing Land Tiles"
SEC_TOKENS = f"{RULEBOOK}, Placing Mining Tokens"
SEC_COWBOY = f"{RULEBOOK}, step 2a. Place a cowboy"
SEC_TENT = f"{RULEBOOK}, step 2b. Pitch a Tent"
SEC_MINE = f"{RULEBOOK}, step 2c. Mine for gold"
SEC_SCORING = f"{RULEBOOK}, step 3. Scoring Completed Railroads, Mountains and Cities"
SEC_MOUNTAIN = f"{RULEBOOK}, Completed Mountain"
SEC_END = f"{RULEBOOK}, Game End"
SEC_FINAL = f"{RULEBOOK}, Final Scoring"
SEC_DIST = f"{RULEBOOK}, Tile Distribution"
SEC_PRAIRIES = f"{RULEBOOK}, The Prairies"

RAIL, MOUNTAIN, CITY, PRAIRIE = "rail", "mountain", "city", "prairie"
#: What a cowboy is called on each kind of feature.
ROLE = {RAIL: "railwayman", MOUNTAIN: "gold miner", CITY: "merchant", PRAIRIE: "farmer"}
#: ScoreEvent.feature names.
FEATURE_NAME = {RAIL: "railroad", MOUNTAIN: "mountain", CITY: "city", PRAIRIE: "prairie"}
_FOLLOW = (PlaceCowboy, PlaceTent, Mine)

_NUMBER = {1: "one", 2: "two", 3: "three"}


def _n(count: int, noun: str, plural: str | None = None, words: bool = False) -> str:
    word = _NUMBER.get(count, str(count)) if words else str(count)
    return f"{word} {noun if count == 1 else (plural or noun + 's')}"


def _values_text(values: Sequence[int | None]) -> str:
    return ", ".join("?" if v is None else str(v) for v in values)


# --------------------------------------------------------------------------
# options and events
# --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Options:
    """Game options.

    ``farmers``: play with farmers and prairie scoring (the rulebook advises
    without for a first game).  ``cowboys``: cowboys each player may place;
    4 by the rules (the fifth is the scoring marker), 5 with the house rule.
    """

    farmers: bool = True
    cowboys: int = 4

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_dataclass(self)


class ScoreEvent(Event):
    """``player`` scores ``points`` for a ``feature`` ('railroad', 'mountain', 'city', 'prairie', 'gold')."""

    __slots__ = ("player", "points", "feature", "detail", "final")
    _fields = ("player", "points", "feature", "detail", "final")

    def __init__(self, player: str, points: int, feature: str, detail: str, final: bool = False) -> None:
        self.player: Final = player
        self.points: Final = points
        self.feature: Final = feature
        self.detail: Final = detail
        self.final: Final = final

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.points, self.feature, self.detail, self.final)

    def describe(self) -> str:
        """E.g. "blue scores 8 for a completed railroad of 4 tiles with one locomotive"."""
        return f"{self.player} scores {self.points} for {self.detail}"

    def __repr__(self) -> str:
        return f"<ScoreEvent {self.player} +{self.points} {self.feature}{' final' if self.final else ''}>"


class TokensTaken(Event):
    """``player`` takes ``count`` mining tokens from a completed mountain (faces as revealed, None unknown).

    ``ids`` (the tokens' places in the supply) take no part in equality.
    """

    __slots__ = ("player", "count", "values", "ids")
    _fields = ("player", "count", "values", "ids")

    def __init__(self, player: str, count: int, values: tuple[int | None, ...], ids: tuple[int, ...] = ()) -> None:
        self.player: Final = player
        self.count: Final = count
        self.values: Final = values
        self.ids: Final = ids

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.count, self.values)

    def describe(self) -> str:
        """E.g. "yellow takes 6 mining tokens (2, 2, ?, 1, 3, 0)"."""
        return f"{self.player} takes {_n(self.count, 'mining token')} ({_values_text(self.values)})"

    def __repr__(self) -> str:
        return f"<TokensTaken {self.player} {self.count} [{_values_text(self.values)}]>"


class TokenMined(Event):
    """``player`` takes the top mining token of the mountain where their tent stands (step 2c).

    ``id`` (the token's place in the supply) takes no part in equality.
    """

    __slots__ = ("player", "value", "id")
    _fields = ("player", "value", "id")

    def __init__(self, player: str, value: int | None, id: int = -1) -> None:
        self.player: Final = player
        self.value: Final = value
        self.id: Final = id

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.value)

    def describe(self) -> str:
        """E.g. "red mines a token (2)"."""
        return f"{self.player} mines a token ({'?' if self.value is None else self.value})"

    def __repr__(self) -> str:
        return f"<TokenMined {self.player} {'?' if self.value is None else self.value}>"


class TokensPlaced(Event):
    """``count`` mining tokens go on the mountain of the tile at ``(x, y)``; ``wanted`` its nugget symbols."""

    __slots__ = ("x", "y", "count", "wanted")
    _fields = ("x", "y", "count", "wanted")

    def __init__(self, x: int, y: int, count: int, wanted: int) -> None:
        self.x: Final = x
        self.y: Final = y
        self.count: Final = count
        self.wanted: Final = wanted

    def _key(self) -> tuple[object, ...]:
        return (self.x, self.y, self.count, self.wanted)

    def describe(self) -> str:
        """E.g. "2 mining tokens go on the mountain at 1,0"."""
        verb = "goes" if self.count == 1 else "go"
        text = f"{_n(self.count, 'mining token')} {verb} on the mountain at {self.x},{self.y}"
        if self.count < self.wanted:
            text += f" (the supply is out: {self.wanted} were due)"
        return text

    def __repr__(self) -> str:
        return f"<TokensPlaced {self.x},{self.y} {self.count}/{self.wanted}>"


class TokensReturned(Event):
    """``count`` tokens leave a mountain without a taker: back to the supply, or out of the game (final)."""

    __slots__ = ("count", "final")
    _fields = ("count", "final")

    def __init__(self, count: int, final: bool = False) -> None:
        self.count: Final = count
        self.final: Final = final

    def _key(self) -> tuple[object, ...]:
        return (self.count, self.final)

    def describe(self) -> str:
        """E.g. "3 mining tokens go back to the supply"."""
        if self.final:
            verb = "is" if self.count == 1 else "are"
            return f"{_n(self.count, 'mining token')} left on mountains {verb} removed from the game"
        return f"{_n(self.count, 'mining token')} go back to the supply (no gold miner on the mountain)"

    def __repr__(self) -> str:
        return f"<TokensReturned {self.count}{' final' if self.final else ''}>"


class FollowerReturned(Event):
    """A cowboy of ``player`` comes back from a completed ``feature`` ('railroad', 'mountain', 'city')."""

    __slots__ = ("player", "feature")
    _fields = ("player", "feature")

    def __init__(self, player: str, feature: str) -> None:
        self.player: Final = player
        self.feature: Final = feature

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.feature)

    def describe(self) -> str:
        """E.g. "blue's railwayman returns to the supply"."""
        role = {"railroad": "railwayman", "mountain": "gold miner", "city": "merchant"}.get(self.feature, "cowboy")
        return f"{self.player}'s {role} returns to the supply"

    def __repr__(self) -> str:
        return f"<FollowerReturned {self.player} {self.feature}>"


class TentReturned(Event):
    """The tent of ``player`` comes back (its mountain was completed, or the game ended)."""

    __slots__ = ("player",)
    _fields = ("player",)

    def __init__(self, player: str) -> None:
        self.player: Final = player

    def _key(self) -> tuple[object, ...]:
        return (self.player,)

    def describe(self) -> str:
        """E.g. "red's tent returns to the supply"."""
        return f"{self.player}'s tent returns to the supply"

    def __repr__(self) -> str:
        return f"<TentReturned {self.player}>"


class TileDiscarded(Event):
    """``player`` discarded ``tile``, which fitted nowhere."""

    __slots__ = ("player", "tile")
    _fields = ("player", "tile")

    def __init__(self, player: str, tile: str) -> None:
        self.player: Final = player
        self.tile: Final = tile

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.tile)

    def describe(self) -> str:
        """E.g. "red discards tile 17 (it fits nowhere)"."""
        return f"{self.player} discards tile {self.tile} (it fits nowhere)"

    def __repr__(self) -> str:
        return f"<TileDiscarded {self.player} {self.tile}>"


@dataclass(frozen=True, slots=True)
class GoldCount:
    """A player's mining tokens: the total of the known faces and how many faces are unknown."""

    known: int
    unknown: int
    count: int

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_dataclass(self)


# --------------------------------------------------------------------------
# the state
# --------------------------------------------------------------------------

def _fmt_spot(x: int, y: int, r: int) -> str:
    return f"{x},{y}" + (f":{r}" if r else "")


_NUGGETS: dict[int, tuple[TileSet, dict[str, tuple[tuple[int, int], ...]]]] = {}


def _nuggets_of(tileset: TileSet) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per tile id, its mountain segments with nugget symbols (worked out once per tile set)."""
    hit = _NUGGETS.get(id(tileset))
    if hit is not None and hit[0] is tileset:
        return hit[1]
    table = {t.id: tuple((i, seg.count("nuggets")) for i, seg in enumerate(t.segments)
                         if seg.kind == MOUNTAIN and seg.count("nuggets"))
             for t in tileset.tiles}
    _NUGGETS[id(tileset)] = (tileset, table)
    return table


#: Every field of a GoldRushState (its slots, what _adopt takes over and what pickle keeps).
_STATE_FIELDS: tuple[str, ...] = ("tileset", "options", "players", "board", "seat", "turn", "_bag", "bag_left", "_scores",
    "supply", "tent", "tent_at", "cowboy_at", "token_supply", "stacks", "hands", "token_value",
    "known", "final_done", "_seat_of", "_nuggets", "_token_counts", "_last_pos")


class GoldRushState(Engine):
    """A game of Carcassonne: Gold Rush in progress.

    Build with :meth:`new`; play with :meth:`play_turn` (or :meth:`after` on a
    copy); end with :meth:`final_scoring`.  Players are colours, in clockwise
    seat order.
    """

    __slots__ = _STATE_FIELDS

    tileset: TileSet
    options: Options
    players: tuple[str, ...]
    board: Board
    seat: int
    turn: int
    _bag: dict[str, int]
    bag_left: int
    _scores: list[int]
    supply: list[int]
    tent: list[int]
    tent_at: dict[int, int]
    cowboy_at: dict[int, int]
    token_supply: list[int]
    stacks: dict[int, list[int]]
    hands: list[list[int]]
    token_value: dict[int, int]
    known: dict[int, int]
    final_done: bool
    _seat_of: dict[str, int]
    _nuggets: dict[str, tuple[tuple[int, int], ...]]
    _token_counts: dict[int, int]
    _last_pos: tuple[int, int]

    # ------------------------------------------------------------------
    @classmethod
    def new(cls, tileset: TileSet | None, players: Sequence[str], options: Options = Options(),
            first: str | None = None) -> GoldRushState:
        """A new game: the start tile at 0,0 (with its mining tokens), the other tiles in the bag.

        ``players`` are 2-5 distinct colours of :data:`grn.ruleset.COLOURS`
        in clockwise seat order; ``first`` (default ``players[0]``) begins.
        """
        if tileset is None:
            tileset = load_shipped_tileset("grn.games.goldrush")
        players = tuple(players)
        if not 2 <= len(players) <= 5:
            raise IllegalAction(f"Gold Rush is for 2 to 5 players, not {len(players)}",
                                rule="for 2 to 5 players", section=SEC_GENERAL)
        for colour in players:
            if colour not in COLOURS:
                raise IllegalAction(f"unknown colour {colour!r}", rule="players choose a colour",
                                    section=SEC_GENERAL, hint="the colours are " + ", ".join(COLOURS))
        if len(set(players)) != len(players):
            raise IllegalAction("a colour is taken twice", rule="players choose a colour", section=SEC_GENERAL)
        if first is None:
            first = players[0]
        if first not in players:
            raise IllegalAction(f"first player {first!r} is not playing", rule="the start player",
                                section=SEC_PLAYING)
        s = GoldRushState.__new__(GoldRushState)
        s.tileset = tileset
        s.options = options
        s.players = players
        s.board = Board(tileset)
        s.seat = players.index(first)
        s.turn = 0
        s._bag = {t.id: t.count for t in tileset.tiles}
        n = len(players)
        s._scores = [0] * n
        s.supply = [options.cowboys] * n
        s.tent = [-1] * n
        s.tent_at = {}
        s.cowboy_at = {}
        total_tokens = tileset.token_total
        s.token_supply = list(range(total_tokens - 1, -1, -1))  # pop() draws token 0, 1, 2, ...
        s.stacks = {}
        s.hands = [[] for _ in players]
        s.token_value = {}
        s.known = {}
        s.final_done = False
        s._seat_of = {p: i for i, p in enumerate(players)}
        s._nuggets = _nuggets_of(tileset)
        s._token_counts = tileset.token_counts
        start = tileset[tileset.start]
        p = s.board.preview(start, 0, 0, 0, first=True)
        assert p is not None
        targets = s.board.place(p)
        s._bag[start.id] -= 1
        s.bag_left = sum(s._bag.values())
        s._put_tokens(p, targets)
        s._last_pos = (0, 0)
        return s

    def copy(self) -> GoldRushState:
        """An independent copy (cheap: flat lists and small dicts)."""
        c = GoldRushState.__new__(GoldRushState)
        c._adopt(self)
        # then fresh copies of everything that changes during play
        c.board = self.board.copy()
        c._bag = self._bag.copy()
        c._scores = self._scores[:]
        c.supply = self.supply[:]
        c.tent = self.tent[:]
        c.tent_at = self.tent_at.copy()
        c.cowboy_at = self.cowboy_at.copy()
        c.token_supply = self.token_supply[:]
        c.stacks = {r: st[:] for r, st in self.stacks.items()}
        c.hands = [h[:] for h in self.hands]
        c.token_value = self.token_value.copy()
        c.known = self.known.copy()
        return c

    def _adopt(self, other: GoldRushState) -> None:
        """Take every field of ``other`` (by reference)."""
        for name in _STATE_FIELDS:
            setattr(self, name, getattr(other, name))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy.deepcopy: compiled classes cannot be made without __init__ by copyreg
        return (_restore_state, (tuple(getattr(self, name) for name in _STATE_FIELDS),))

    def __repr__(self) -> str:
        sc = ", ".join(f"{p} {s}" for p, s in zip(self.players, self._scores))
        return (f"<GoldRushState turn {self.turn}, {self.current_player} to play, {len(self.board)} tiles, "
                f"{self.bag_left} in bag; {sc}>")

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

    @property
    def token_supply_count(self) -> int:
        """Face-down mining tokens left in the supply."""
        return len(self.token_supply)

    @property
    def tokens_held(self) -> dict[str, int]:
        """Mining tokens in front of each player."""
        return {p: len(h) for p, h in zip(self.players, self.hands)}

    def token_info(self) -> dict[str, Any]:
        """Where the mining tokens are: supply, on mountains, held per player, known faces."""
        return {"supply": len(self.token_supply),
                "on_mountains": sum(len(st) for st in self.stacks.values()),
                "held": self.tokens_held,
                "known": dict(sorted(self.known.items()))}

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

    def gold(self) -> dict[str, GoldCount]:
        """Each player's mining tokens: known total, unknown count, count."""
        out = {}
        for p, hand in zip(self.players, self.hands):
            known = unknown = 0
            for t in hand:
                v = self.token_value.get(t)
                if v is None:
                    unknown += 1
                else:
                    known += v
            out[p] = GoldCount(known, unknown, len(hand))
        return out

    def score_ranges(self) -> dict[str, tuple[int, int]]:
        """Lowest and highest possible score per player once unknown token faces are counted.

        Before :meth:`final_scoring` this adds the whole gold; after it, only
        the unknown faces (the known ones are in :attr:`scores`).
        """
        pool: list[int] = []
        for v, n in sorted(self._token_counts.items()):
            pool += [v] * max(0, n - self.known.get(v, 0))
        out = {}
        for p, s, g in zip(self.players, self._scores, self.gold().values()):
            base = s if self.final_done else s + g.known
            u = g.unknown
            low = sum(pool[:u])
            high = sum(pool[len(pool) - u:]) if u else 0
            out[p] = (base + low, base + high)
        return out

    def set_scores(self, scores: dict[str, int]) -> None:
        """Overwrite scores (a set-up position's score checkpoint)."""
        for p, v in scores.items():
            if p in self._seat_of:
                self._scores[self._seat_of[p]] = v

    def fingerprint(self) -> Any:
        """A hashable summary of the whole state (tests use it to check an illegal turn changed nothing)."""
        return (self.board.state_key(), self.seat, self.turn, tuple(sorted(self._bag.items())), self.bag_left,
                tuple(self._scores), tuple(self.supply), tuple(self.board.find(t) if t >= 0 else -1 for t in self.tent),
                tuple(sorted(self.tent_at.items())), tuple(sorted(self.cowboy_at.items())), tuple(self.token_supply),
                tuple(sorted((self.board.find(r), tuple(st)) for r, st in self.stacks.items())),
                tuple(tuple(h) for h in self.hands), tuple(sorted(self.token_value.items())), self.final_done)

    # ------------------------------------------------------------------
    # helpers
    # ------------------------------------------------------------------
    def _design(self, tile: str, span: Span | None) -> TileDesign:
        d = self.tileset.by_id.get(tile)
        if d is None:
            raise IllegalAction(f"there is no tile {tile!r} in the {self.tileset.name} tile set",
                                rule="the tiles are those of the box", section=SEC_DIST, span=span,
                                hint="tile ids: " + " ".join(t.id for t in self.tileset.tiles))
        return d

    def _player_seat(self, player: str, span: Span | None) -> int:
        seat = self._seat_of.get(player)
        if seat is None:
            raise IllegalAction(f"{player} is not playing", rule="players", section=SEC_GENERAL, span=span,
                                hint="the players are " + ", ".join(self.players))
        return seat

    def _clockwise(self, start: int) -> list[int]:
        n = len(self.players)
        return [(start + i) % n for i in range(n)]

    @staticmethod
    def _segment_of(design: TileDesign, o: Any, base: int, location: str) -> int:
        """The sid (``base`` + local index) a location names on a tile; -1 when it names nothing."""
        if location == "C":
            centre = [i for i, pl in enumerate(o.segment_places) if not pl]
            return base + centre[0] if len(centre) == 1 else -1
        try:
            idx = POSITIONS.index(location)
        except ValueError:
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

    def _alloc_tokens(self, design: TileDesign) -> list[tuple[int, int, int]]:
        """(local segment, tokens placed, nuggets) for a new tile, limited by the supply (ruling)."""
        out = []
        left = len(self.token_supply)
        for ls, k in self._nuggets[design.id]:
            got = k if k <= left else left
            left -= got
            out.append((ls, got, k))
        return out

    def _put_tokens(self, p: Placement, targets: list[int],
                    alloc: list[tuple[int, int, int]] | None = None) -> list[TokensPlaced]:
        """After board.place: merge the stacks of joined mountains, then pile the new tile's tokens on top."""
        stacks = self.stacks
        for g, roots in enumerate(p.group_roots):
            if len(roots) > 1 and stacks:
                merged: list[int] = []
                for r in roots:
                    st = stacks.pop(r, None)
                    if st:
                        merged += st
                if merged:
                    stacks[targets[g]] = merged
        events = []
        supply = self.token_supply
        for ls, got, want in (self._alloc_tokens(p.design) if alloc is None else alloc):
            t = targets[p.group[ls]]
            st = stacks.get(t)
            if st is None:
                st = stacks[t] = []
            for _ in range(got):
                st.append(supply.pop())
            events.append(TokensPlaced(p.x, p.y, got, want))
        return events

    def _post_stack(self, p: Placement, g: int, alloc: list[tuple[int, int, int]]) -> int:
        """Tokens on the mountain of group ``g`` once the tile is placed."""
        stacks = self.stacks
        n = sum(len(stacks[r]) for r in p.group_roots[g] if r in stacks)
        for ls, got, _ in alloc:
            if p.group[ls] == g:
                n += got
        return n

    def _check_value(self, value: int | None, extra: dict[int, int], span: Span | None, what: str,
                     section: str) -> None:
        if value is None:
            return
        total = self._token_counts.get(value)
        if total is None:
            raise IllegalAction(f"{what}: there is no mining token worth {value}",
                                rule="Mining tokens show 1, 2, 3 or 5 nuggets, or gravel (0)", section=SEC_GENERAL,
                                span=span, hint="token values: " + ", ".join(map(str, sorted(self._token_counts))))
        used = self.known.get(value, 0) + extra.get(value, 0)
        if used >= total:
            raise IllegalAction(f"{what}: all {total} tokens worth {value} are already accounted for",
                                rule="the box holds " + ", ".join(f"{n}x{v}" for v, n in sorted(self._token_counts.items())),
                                section=SEC_DIST, span=span)
        extra[value] = extra.get(value, 0) + 1

    def _placement_error(self, cmd: PlaceTile, design: TileDesign) -> IllegalAction:
        board = self.board
        x, y, r = cmd.x, cmd.y, cmd.rotation
        hint = self._placement_hint(design, x, y)
        if (x, y) in board.tiles:
            return IllegalAction(f"{x},{y} already holds tile {board.tiles[(x, y)].design.id}",
                                 rule="A tile goes on an empty square", section=SEC_PLACING, span=cmd.span, hint=hint)
        if (x, y) not in board.frontier:
            return IllegalAction(f"tile {design.id} at {x},{y} touches no tile",
                                 rule="The newly placed tile must be placed adjacent to at least one existing tile. "
                                      "Diagonal adjacency is not sufficient.",
                                 section=SEC_PLACING, span=cmd.span, hint=hint)
        bad = board.mismatches(design, x, y, r)
        return IllegalAction(f"tile {design.id} at {_fmt_spot(x, y, r)} does not match its neighbour"
                             f"{'s' if len(bad) > 1 else ''} on the {' and '.join(bad)} edge{'s' if len(bad) > 1 else ''}",
                             rule="Railroad tracks, mountains, and prairies must continue from this newly placed tile "
                                  "to existing adjacent tiles.",
                             section=SEC_PLACING, span=cmd.span, hint=hint)

    def _placement_hint(self, design: TileDesign, x: int | None = None, y: int | None = None) -> str:
        board = self.board
        if x is not None and y is not None and (x, y) in board.frontier:
            rots = [r for r in (0, 90, 180, 270) if board.fits(design, x, y, r)]
            if rots:
                return f"tile {design.id} fits at {x},{y} only rotated {' or '.join(map(str, rots))}"
        spots = board.legal_positions(design)
        if not spots:
            return f"tile {design.id} fits nowhere: discard it"
        text = ", ".join(_fmt_spot(*s) for s in spots[:12])
        return f"tile {design.id} fits at: {text}" + (f", ... ({len(spots)} in all)" if len(spots) > 12 else "")

    def _order_error(self, actions: Sequence[Command], i: int, placed: bool) -> IllegalAction:
        a = actions[i]
        span = getattr(a, "span", None)
        rule = ("A player takes the following actions in the specified order: place a tile (step 1), then at most "
                "one of 2a/2b/2c, then scoring (step 3).")
        if type(a) is DiscardTile:
            msg = "a tile is discarded only before the turn's tile is placed"
        elif type(a) is PlaceTile:
            msg = "only one tile is placed per turn"
        elif type(a) in _FOLLOW:
            msg = ("a player may perform no more than one of the actions of step 2" if any(
                type(b) in _FOLLOW for b in actions[:i]) else "step 2 comes after the tile is placed")
            if type(a) in _FOLLOW and any(type(b) in _FOLLOW for b in actions[:i]):
                rule = "A player may perform no more than one of the actions detailed in step 2."
        elif type(a) is RevealTokens:
            msg = "the tokens are revealed once, at the end of the turn"
        else:
            msg = f"{a!r} is not a Gold Rush action"
        return IllegalAction(msg, rule=rule, section=SEC_PLAYING, span=span)

    # ------------------------------------------------------------------
    # checks shared by play_turn and legal_followups
    # ------------------------------------------------------------------
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
        where = f"{cmd.x},{cmd.y}" + (f" {cmd.location}" if cmd.location else "")
        if open_after == 0:
            # completed earlier, or by this turn's own tile (which counts: the tile comes first)
            just_now = sid >= p.base or board.root_data[board.find(sid)].open > 0  # type: ignore[union-attr]
            raise IllegalAction(f"the mountain at {where} is completed" + (" by this turn's tile" if just_now else ""),
                                rule="The mountain must not be completed", section=SEC_TENT, span=cmd.span,
                                hint=("the tile is placed in step 1, so its mountain is completed before step 2b"
                                      if just_now else "pitch the tent on a mountain that is still open"))
        owner = self.tent_at.get(sid)
        if owner == seat:
            raise IllegalAction(f"{self.players[seat]}'s tent already stands at {where}",
                                rule="place/move their own tent on/to a mountain (moving it where it stands "
                                     "changes nothing)", section=SEC_TENT, span=cmd.span)
        if owner is not None:
            raise IllegalAction(f"{self.players[owner]}'s tent stands on the mountain segment at {where}",
                                rule="The mountain segment of the tile must be vacant", section=SEC_TENT, span=cmd.span)
        cb = self.cowboy_at.get(sid)
        if cb is not None:
            raise IllegalAction(f"{self.players[cb]}'s gold miner stands on the mountain segment at {where}",
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

    # ------------------------------------------------------------------
    # the turn
    # ------------------------------------------------------------------
    def play_turn(self, player: str, actions: Sequence[Command]) -> list[Event]:
        """Play one turn of ``player``; returns what happened.

        ``actions``: any DiscardTile (only for tiles that fit nowhere), one
        PlaceTile (unless the bag runs out), at most one of PlaceCowboy /
        PlaceTent / Mine, optionally RevealTokens (faces of the tokens handed
        out by this turn's scoring, in hand-out order).  Raises
        :class:`~grn.errors.IllegalAction` and changes nothing when illegal.
        """
        if self.final_done or self.bag_left == 0:
            first_span = getattr(actions[0], "span", None) if actions else None
            raise IllegalAction("the game is over: no tile is left", rule="The game ends immediately after the turn "
                                "during which the last Land tile is placed.", section=SEC_END, span=first_span)
        seat = self._seat_of.get(player)
        if seat is None or seat != self.seat:
            first_span = getattr(actions[0], "span", None) if actions else None
            if seat is None:
                raise IllegalAction(f"{player} is not playing", rule="players", section=SEC_GENERAL, span=first_span,
                                    hint="the players are " + ", ".join(self.players))
            raise IllegalAction(f"it is {self.players[self.seat]}'s turn, not {player}'s",
                                rule="The game is played in clockwise order from the start player.",
                                section=SEC_PLAYING, span=first_span)
        n = len(actions)
        i = 0
        while i < n and type(actions[i]) is DiscardTile:
            i += 1
        discards: Sequence[DiscardTile] = actions[:i]  # type: ignore[assignment]  # checked by type() above
        place: PlaceTile | None = None
        if i < n and type(actions[i]) is PlaceTile:
            place = actions[i]  # type: ignore[assignment]
            i += 1
        follow: Any = None
        if i < n and type(actions[i]) in _FOLLOW:
            if place is None:
                raise self._order_error(actions, i, False)
            follow = actions[i]
            i += 1
        reveal: RevealTokens | None = None
        if i < n and type(actions[i]) is RevealTokens:
            reveal = actions[i]  # type: ignore[assignment]
            i += 1
        if i < n:
            raise self._order_error(actions, i, place is not None)

        bag = self._bag
        board = self.board
        used: dict[str, int] = {}
        design: TileDesign | None
        for d in discards:
            design = self._design(d.tile, d.span)
            if bag[design.id] - used.get(design.id, 0) <= 0:
                raise self._bag_error(design, d.span)
            if board.has_legal_position(design):
                raise IllegalAction(f"tile {design.id} fits on the board, so it may not be discarded",
                                    rule="In the rare case that a drawn tile cannot be legally placed, it is "
                                         "discarded from the game.", section=SEC_PLACING,
                                    span=d.span, hint=self._placement_hint(design))
            used[design.id] = used.get(design.id, 0) + 1
        if place is None:
            if self.bag_left - len(discards) > 0:
                span = reveal.span if reveal is not None else (discards[-1].span if discards else None)
                raise IllegalAction("the turn places no tile", rule="The player must draw a Land tile and place it",
                                    section=SEC_PLAYING, span=span)
            if reveal is not None and reveal.values:
                raise IllegalAction(f"no token was handed out this turn, but {len(reveal.values)} are revealed",
                                    rule="Scoring completed mountains hands out their Mining tokens",
                                    section=SEC_MOUNTAIN, span=reveal.span, hint="drop the token list")
            events: list[Event] = []
            for d in discards:
                bag[d.tile] -= 1
                self.bag_left -= 1
                events.append(TileDiscarded(player, d.tile))
            self.turn += 1
            self.seat = (self.seat + 1) % len(self.players)
            return events

        design = self.tileset.by_id.get(place.tile)
        if design is None:
            design = self._design(place.tile, place.span)
        if bag[design.id] - (used.get(design.id, 0) if used else 0) <= 0:
            raise self._bag_error(design, place.span)
        rot = place.rotation
        if rot not in (0, 90, 180, 270):
            raise IllegalAction(f"rotation {rot} is not 0, 90, 180 or 270", rule="tiles are turned in quarter turns",
                                section=SEC_PLACING, span=place.span)
        p = board.preview(design, place.x, place.y, rot)
        if p is None:
            raise self._placement_error(place, design)
        alloc = self._alloc_tokens(design) if self._nuggets[design.id] else []

        # step 2 checks (nothing changed yet)
        cowboy_ls = -1
        tent_sid = -1
        mine_g = -1
        mine_root = -1
        if follow is not None:
            ft = type(follow)
            if ft is PlaceCowboy:
                cowboy_ls = self._check_cowboy(seat, p, follow)
            elif ft is PlaceTent:
                tent_sid = self._check_tent(seat, p, follow)
            else:
                mine_root, mine_g = self._check_mine(seat, p, follow, alloc)
        # the count of tokens handed out by step 3, for RevealTokens
        if reveal is not None:
            due = 0
            root_data: list[FeatureData] = board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
            for g, segs in enumerate(p.group_segments):
                if p.group_open[g] or design.segments[segs[0]].kind != MOUNTAIN:
                    continue
                miners = any(root_data[r].followers for r in p.group_roots[g]) or (cowboy_ls >= 0 and p.group[cowboy_ls] == g)
                if miners:
                    due += self._post_stack(p, g, alloc) - (1 if mine_g == g else 0)
            if len(reveal.values) != due:
                raise IllegalAction(f"{due} mining token{'s were' if due != 1 else ' was'} handed out this turn, "
                                    f"but {len(reveal.values)} {'are' if len(reveal.values) != 1 else 'is'} revealed",
                                    rule="The player who has the most gold miners on a completed mountain first "
                                         "takes all Mining tokens that remain on the mountain",
                                    section=SEC_MOUNTAIN, span=reveal.span,
                                    hint=f"list {due} values (? for an unknown face)")
            extra: dict[int, int] = {}
            if type(follow) is Mine and follow.value is not None:
                extra[follow.value] = 1
            for v in reveal.values:
                self._check_value(v, extra, reveal.span, "a revealed token", SEC_MOUNTAIN)

        # ---- apply --------------------------------------------------------
        events = []
        if discards:
            for d in discards:
                bag[d.tile] -= 1
                events.append(TileDiscarded(player, d.tile))
            self.bag_left -= len(discards)
        bag[design.id] -= 1
        self.bag_left -= 1
        targets = board.place(p)
        self._last_pos = (p.x, p.y)
        if alloc or p.merges:
            events += self._put_tokens(p, targets, alloc)
        if cowboy_ls >= 0:
            sid = p.base + cowboy_ls
            board.add_follower(sid, seat)
            self.cowboy_at[sid] = seat
            self.supply[seat] -= 1
        elif tent_sid >= 0:
            old = self.tent[seat]
            if old >= 0:
                del self.tent_at[old]
            self.tent[seat] = tent_sid
            self.tent_at[tent_sid] = seat
        elif mine_g >= 0 or mine_root >= 0:
            r = board.find(self.tent[seat])
            tid = self.stacks[r].pop()
            self.hands[seat].append(tid)
            value = follow.value
            if value is not None:
                self.token_value[tid] = value
                self.known[value] = self.known.get(value, 0) + 1
            events.append(TokenMined(player, value, tid))
        if 0 in p.group_open:
            self._score_completed(p, targets, events, reveal.values if reveal is not None else None)
        self.turn += 1
        self.seat = (seat + 1) % len(self.players)
        return events

    def _bag_error(self, design: TileDesign, span: Span | None) -> IllegalAction:
        return IllegalAction(f"no copy of tile {design.id} is left (the box has {design.count})",
                             rule=f"the box holds {design.count} of tile {design.id}", section=SEC_DIST, span=span,
                             hint="tiles left: " + " ".join(f"{t}x{c}" for t, c in self._bag.items() if c))

    # ------------------------------------------------------------------
    # step 3
    # ------------------------------------------------------------------
    def _majority(self, followers: Iterable[tuple[Any, int]]) -> list[int]:
        counts = [0] * len(self.players)
        for s, _ in followers:
            counts[s] += 1
        best = max(counts)
        if best == 0:
            return []
        return [s for s in self._clockwise(self.seat) if counts[s] == best]

    def _return_followers(self, root: int, feature: str, events: list[Event]) -> None:
        followers: list[tuple[int, int]] = self.board.remove_followers(root)  # type: ignore[assignment]  # owners are seats
        for s, sid in followers:
            self.supply[s] += 1
            self.cowboy_at.pop(sid, None)
            events.append(FollowerReturned(self.players[s], feature))

    def _score_completed(self, p: Placement, targets: list[int], events: list[Event],
                         reveal: tuple[int | None, ...] | None) -> None:
        board = self.board
        o = p.orientation
        segments = p.design.segments
        rails: list[tuple[int, int]] = []
        mountains: list[tuple[int, int]] = []
        for g, segs in enumerate(p.group_segments):
            if p.group_open[g]:
                continue
            kind = segments[segs[0]].kind
            if kind == RAIL or kind == MOUNTAIN:
                key = min(o.segment_places[ls][0] for ls in segs)
                (rails if kind == RAIL else mountains).append((key, targets[g]))
        cities: dict[int, int] = {}
        rails.sort()
        root_data: list[FeatureData] = board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
        for key, r in rails:
            for c in root_data[r].links or ():
                cr = board.find(c)
                if board.kind[cr] == CITY and cr not in cities:
                    cities[cr] = key
        for ls, seg in enumerate(segments):
            if seg.kind == CITY:
                cr = board.find(p.base + ls)
                if cr not in cities:
                    cities[cr] = 12
        done_cities = []
        for cr, key in cities.items():
            links = root_data[cr].links or []
            if links and all(root_data[board.find(rs)].open == 0 for rs in links):
                done_cities.append((key, cr))
        done_cities.sort()
        values = iter(reveal) if reveal is not None else None
        for _, r in rails:
            self._score_rail(r, events)
        for _, r in sorted(mountains):
            self._score_mountain(r, events, values)
        for _, r in done_cities:
            self._score_city(r, events, final=False)

    def _score_rail(self, r: int, events: list[Event], final: bool = False) -> None:
        board = self.board
        data: FeatureData = board.root_data[r]  # type: ignore[assignment]  # roots hold a FeatureData
        followers = data.followers
        if followers:
            tiles = len(data.tiles)
            loco = (data.symbols or {}).get("locomotives", 0)
            if final:
                pts = tiles
                detail = f"an incomplete railroad of {_n(tiles, 'tile')}"
            else:
                pts = tiles * (2 if loco == 1 else 1)
                detail = f"a completed railroad of {_n(tiles, 'tile')}"
                if loco:
                    detail += f" with {_n(loco, 'locomotive', words=True)}"
                    if loco > 1:
                        detail += " (no doubling)"
            for s in self._majority(followers):
                self._scores[s] += pts
                events.append(ScoreEvent(self.players[s], pts, "railroad", detail, final))
        if not final:
            self._return_followers(r, "railroad", events)

    def _score_mountain(self, r: int, events: list[Event], values: Any, final: bool = False) -> None:
        board = self.board
        data: FeatureData = board.root_data[r]  # type: ignore[assignment]  # roots hold a FeatureData
        followers = data.followers or []
        nug = (data.symbols or {}).get("nuggets", 0)
        tiles = len(data.tiles)
        winners = self._majority(followers)
        if not final:
            stack = self.stacks.pop(r, [])
            if stack:
                if winners:
                    taken: dict[int, tuple[list[int], list[int | None]]] = {}
                    i = 0
                    while stack:
                        s = winners[i % len(winners)]
                        tid = stack.pop()
                        v = next(values) if values is not None else None
                        if v is not None:
                            self.token_value[tid] = v
                            self.known[v] = self.known.get(v, 0) + 1
                        got = taken.get(s)
                        if got is None:
                            got = taken[s] = ([], [])
                        got[0].append(tid)
                        got[1].append(v)
                        i += 1
                    for s, (ids, vals) in taken.items():
                        self.hands[s].extend(ids)
                        events.append(TokensTaken(self.players[s], len(ids), tuple(vals), tuple(ids)))
                else:
                    self.token_supply[0:0] = stack[::-1]
                    events.append(TokensReturned(len(stack)))
            detail = f"a completed mountain of {_n(tiles, 'tile')} with {_n(nug, 'gold nugget')}"
        else:
            detail = f"an incomplete mountain of {_n(tiles, 'tile')} with {_n(nug, 'gold nugget')}"
        for s in winners:
            self._scores[s] += nug
            events.append(ScoreEvent(self.players[s], nug, "mountain", detail, final))
        if not final:
            for s in range(len(self.players)):
                t = self.tent[s]
                if t >= 0 and board.find(t) == r:
                    self.tent[s] = -1
                    del self.tent_at[t]
                    events.append(TentReturned(self.players[s]))
            self._return_followers(r, "mountain", events)

    def _score_city(self, r: int, events: list[Event], final: bool) -> None:
        board = self.board
        root_data: list[FeatureData] = board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
        data = root_data[r]
        followers = data.followers
        if followers:
            done = {board.find(rs) for rs in data.links or ()}
            k = sum(1 for rr in done if root_data[rr].open == 0)
            pts = 3 * k
            detail = (f"an incomplete city with {_n(k, 'completed railroad')}" if final
                      else f"a completed city with {_n(k, 'completed railroad')}")
            for s in self._majority(followers):
                self._scores[s] += pts
                events.append(ScoreEvent(self.players[s], pts, "city", detail, final))
        if not final:
            self._return_followers(r, "city", events)

    # ------------------------------------------------------------------
    # final scoring
    # ------------------------------------------------------------------
    def final_scoring(self) -> list[Event]:
        """Score the end of the game (may be called once; normally when :attr:`is_over`).

        Tents and tokens still on mountains leave the game; then incomplete
        railroads (1 per tile), mountains (1 per nugget, majority), cities (3
        per completed railroad), farmers (2 per tipi camp + 4 per herd of
        horses, majority; with ``Options.farmers``), then gold: each player's
        known token faces (see :meth:`gold` and :meth:`score_ranges` for the
        unknown ones).
        """
        if self.final_done:
            raise IllegalAction("the final scoring is already done", rule="Final Scoring", section=SEC_FINAL)
        events: list[Event] = []
        board = self.board
        for s in range(len(self.players)):
            t = self.tent[s]
            if t >= 0:
                self.tent[s] = -1
                events.append(TentReturned(self.players[s]))
        self.tent_at.clear()
        left = sum(len(st) for st in self.stacks.values())
        self.stacks.clear()
        if left:
            events.append(TokensReturned(left, final=True))
        roots = list(board.roots())
        kinds = board.kind
        root_data = cast("list[FeatureData]", board.root_data)  # roots hold a FeatureData
        for r in roots:
            if kinds[r] == RAIL and root_data[r].followers:
                self._score_rail(r, events, final=True)
        for r in roots:
            if kinds[r] == MOUNTAIN and root_data[r].followers:
                self._score_mountain(r, events, None, final=True)
        for r in roots:
            if kinds[r] == CITY and root_data[r].followers:
                self._score_city(r, events, final=True)
        if self.options.farmers:
            for r in roots:
                if kinds[r] == PRAIRIE and (followers := root_data[r].followers):
                    symbols = root_data[r].symbols or {}
                    tipis, horses = symbols.get("tipis", 0), symbols.get("horses", 0)
                    pts = 2 * tipis + 4 * horses
                    detail = (f"a prairie with {_n(tipis, 'tipi camp') if tipis else 'no tipi camp'} and "
                              + (f"{_n(horses, 'herd')} of wild horses" if horses else "no wild horses"))
                    for s in self._majority(followers):
                        self._scores[s] += pts
                        events.append(ScoreEvent(self.players[s], pts, "prairie", detail, True))
        for s, (p, g) in enumerate(self.gold().items()):
            if not g.count:
                continue
            faces: dict[int, int] = {}
            for t in self.hands[s]:
                v = self.token_value.get(t)
                if v is not None:
                    faces[v] = faces.get(v, 0) + 1
            parts = [f"{c}x{v}" for v, c in sorted(faces.items(), key=lambda kv: (kv[0] == 0, kv[0]))]
            if g.unknown:
                parts.append(f"{g.unknown} unknown")
            detail = f"{_n(g.count, 'mining token')} ({' + '.join(parts)})"
            self._scores[s] += g.known
            events.append(ScoreEvent(p, g.known, "gold", detail, True))
        self.final_done = True
        return events

    # ------------------------------------------------------------------
    # set-up (turn 0) and conveniences
    # ------------------------------------------------------------------
    def setup(self, player: str, actions: Sequence[Command]) -> None:
        """Set up a position directly (a rules diagram, turn 0): nothing scores, turn order is not checked.

        PlaceTile: must touch and fit (it takes a copy from the bag and puts its
        mining tokens).  PlaceCowboy: on the tile placed last (in this or an
        earlier set-up or turn), from ``player``'s supply, on any feature (occupied or not).  PlaceTent:
        ``player``'s tent to any mountain segment.  Mine: ``player`` takes the
        top token of their tent's mountain.  DiscardTile: a copy leaves the
        bag.  All or nothing: on an error the state is unchanged.
        """
        work = self.copy()
        work._setup(player, actions)
        self._adopt(work)

    def _setup(self, player: str, actions: Sequence[Command]) -> None:
        seat = self._player_seat(player, getattr(actions[0], "span", None) if actions else None)
        board = self.board
        last: PlacedTile | Placement | None = board.tiles.get(self._last_pos)
        for a in actions:
            ta = type(a)
            if ta is PlaceTile:
                assert isinstance(a, PlaceTile)
                design = self._design(a.tile, a.span)
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                if a.rotation not in (0, 90, 180, 270):
                    raise IllegalAction(f"rotation {a.rotation} is not 0, 90, 180 or 270",
                                        rule="tiles are turned in quarter turns", section=SEC_PLACING, span=a.span)
                p = board.preview(design, a.x, a.y, a.rotation)
                if p is None:
                    raise self._placement_error(a, design)
                self._bag[design.id] -= 1
                self.bag_left -= 1
                targets = board.place(p)
                self._put_tokens(p, targets)
                self._last_pos = (p.x, p.y)
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
                board.add_follower(sid, seat)
                self.cowboy_at[sid] = seat
                self.supply[seat] -= 1
            elif ta is PlaceTent:
                assert isinstance(a, PlaceTent)
                sid = self._mountain_segment(a.x, a.y, a.location, None, a.span)
                owner = self.tent_at.get(sid)
                if owner is not None and owner != seat:
                    raise IllegalAction(f"{self.players[owner]}'s tent already stands there",
                                        rule="The mountain segment of the tile must be vacant", section=SEC_TENT,
                                        span=a.span)
                old = self.tent[seat]
                if old >= 0:
                    del self.tent_at[old]
                self.tent[seat] = sid
                self.tent_at[sid] = seat
            elif ta is Mine:
                assert isinstance(a, Mine)
                t = self.tent[seat]
                st = self.stacks.get(board.find(t)) if t >= 0 else None
                if not st:
                    raise IllegalAction("no token to mine under the tent", rule="take the topmost Mining token from "
                                        "the mountain where their tent is located", section=SEC_MINE, span=a.span)
                self._check_value(a.value, {}, a.span, "the mined token", SEC_MINE)
                tid = st.pop()
                self.hands[seat].append(tid)
                if a.value is not None:
                    self.token_value[tid] = a.value
                    self.known[a.value] = self.known.get(a.value, 0) + 1
            elif ta is DiscardTile:
                assert isinstance(a, DiscardTile)
                design = self._design(a.tile, a.span)
                if self._bag[design.id] <= 0:
                    raise self._bag_error(design, a.span)
                self._bag[design.id] -= 1
                self.bag_left -= 1
            else:
                raise IllegalAction(f"{a!r} cannot be part of a set-up", rule="a set-up writes a position directly",
                                    section=SEC_PLAYING, span=getattr(a, "span", None))

    def after(self, player: str, actions: Sequence[Command]) -> tuple[GoldRushState, list[Event]]:
        """Play a turn on a copy: ``(new_state, events)``; this state is unchanged."""
        c = self.copy()
        events = c.play_turn(player, actions)
        return c, events

    def legal_placements(self, tile_id: str) -> list[PlaceTile]:
        """Every legal placement of ``tile_id`` (one of identical rotations, the lowest)."""
        design = self._design(tile_id, None)
        return [PlaceTile(tile_id, x, y, r) for x, y, r in self.board.legal_positions(design)]

    def legal_followups(self, placement: PlaceTile) -> list[Command | None]:
        """After ``placement`` by the current player: None (do nothing) and every legal step-2 action."""
        design = self._design(placement.tile, placement.span)
        if placement.rotation not in (0, 90, 180, 270):
            raise IllegalAction(f"rotation {placement.rotation} is not 0, 90, 180 or 270",
                                rule="tiles are turned in quarter turns", section=SEC_PLACING, span=placement.span)
        p = self.board.preview(design, placement.x, placement.y, placement.rotation)
        if p is None:
            raise self._placement_error(placement, design)
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


__all__ = [
    "Options", "GoldRushState", "Event", "ScoreEvent", "TokensTaken", "TokenMined", "TokensPlaced", "TokensReturned",
    "FollowerReturned", "TentReturned", "TileDiscarded", "GoldCount",
]


def _restore_state(values: tuple[Any, ...]) -> GoldRushState:
    """A GoldRushState from the field values :meth:`GoldRushState.__reduce__` gave."""
    state = GoldRushState.__new__(GoldRushState)
    for name, value in zip(_STATE_FIELDS, values):
        setattr(state, name, value)
    return state
