"""The commands every tile-laying game shares: place a tile, discard one that fits nowhere, and the
``+N`` of a figure put on the new tile (each game names its figure by a subclass).

Each command is a :class:`~grn.core.value.Value` (immutable, spans left out of
equality) and has its :class:`~grn.rules.codec.CommandCodec` beside it.
"""

from __future__ import annotations

from typing import Final

from grn.rules.codec import CommandCodec, Json, Problems, object_schema, read_int
from grn.core.errors import Span
from grn.games.tiling.places import LOCATIONS, ROTATIONS
from grn.core.value import Value

_LOCATIONS: Final = frozenset(LOCATIONS)
#: The JSON Schema of a place on a tile (:data:`~grn.games.tiling.places.LOCATIONS`).
LOCATION_SCHEMA: Json = {"enum": list(LOCATIONS)}


#: The numbers of short words met so far ("-3" -> -3): a dict look-up costs about half of int() of a new slice.
_SMALL_INTS: Final[dict[str, int]] = {}
#: Longest word kept in :data:`_SMALL_INTS` (far below :data:`~grn.rules.codec.MAX_DIGITS`: never a problem to note),
#: and the most entries it keeps (every such word fits: "-999" to "9999").
_SMALL_LEN: Final = 4
_SMALL_MAX: Final = 12_000


#: A placement's spot ("-3,12:90", the text after the "@") -> its (x, y, rotation), for spots read without a
#: problem; at most :data:`_SPOTS_MAX` of them (a file of far-flung boards must not grow memory without end).
_SPOTS: Final[dict[str, tuple[int, int, int]]] = {}
_SPOTS_MAX: Final = 20_000


def small_int(text: str, span: Span, problems: Problems, what: str) -> int:
    """:func:`~grn.rules.codec.read_int` of a word the terminal guarantees to be digits (a sign allowed), remembering
    short ones: records repeat their coordinates and rotations."""
    value = _SMALL_INTS.get(text)
    if value is None:
        value = read_int(text, span, problems, what)
        if len(text) <= _SMALL_LEN and len(_SMALL_INTS) < _SMALL_MAX:
            _SMALL_INTS[text] = value
    return value


def bad_place(location: str) -> str:
    """The problem with a ``location`` that is not a place on a tile."""
    return f"'{location}' is not a place on a tile: use one of {' '.join(LOCATIONS)}"


def tile_id_schema(reserved: tuple[str, ...] = ()) -> Json:
    """A tile id: letters, digits and underscores (the PLACEMENT terminal), none of the game's ``reserved`` words."""
    schema: Json = {"type": "string", "pattern": "^[A-Za-z0-9_]+$", "description": "A tile id of the tile set."}
    if reserved:
        schema["not"] = {"enum": list(reserved)}
        schema["description"] += " Never " + " or ".join(repr(w) for w in reserved) + " (words of the game's notation)."
    return schema


class PlaceTile(Value):
    """Place tile design ``tile`` at ``(x, y)``, turned ``rotation`` degrees clockwise.

    ``x`` grows east and ``y`` grows north; the start tile lies at ``(0, 0)``.
    """

    __slots__ = ("tile", "x", "y", "rotation", "span")
    _fields = ("tile", "x", "y", "rotation", "span")

    def __init__(self, tile: str, x: int, y: int, rotation: int = 0, span: Span | None = None) -> None:
        self.tile: Final = tile
        self.x: Final = x
        self.y: Final = y
        self.rotation: Final = rotation
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.tile, self.x, self.y, self.rotation)

    def __repr__(self) -> str:
        rot = f":{self.rotation}" if self.rotation else ""
        return f"<PlaceTile {self.tile}@{self.x},{self.y}{rot}>"


class DiscardTile(Value):
    """Discard a drawn tile that fits nowhere (the player then draws again)."""

    __slots__ = ("tile", "span")
    _fields = ("tile", "span")

    def __init__(self, tile: str, span: Span | None = None) -> None:
        self.tile: Final = tile
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.tile,)

    def __repr__(self) -> str:
        return f"<DiscardTile {self.tile}>"


class PlaceFigure(Value):
    """Put one of the player's figures on the feature of the new tile at ``location``.

    ``location`` is one of :data:`~grn.games.tiling.places.LOCATIONS`, read on the board (after the tile's
    rotation).  Each game names its figure with a subclass (a Gold Rush cowboy, a Carcassonne
    follower), so commands of two games never compare equal.
    """

    __slots__ = ("location", "span")
    _fields = ("location", "span")

    def __init__(self, location: str, span: Span | None = None) -> None:
        self.location: Final = location
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.location,)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.location}>"


class FigureCodec(CommandCodec):
    """``+N``: a figure on the new tile's feature at that place.

    A game's subclass sets :attr:`command` (its :class:`PlaceFigure`), the terminal, the JSON type
    and the words of ``expected``.
    """

    def read(self, text: str, span: Span, problems: Problems) -> Value:
        location = text[1:]
        if location not in _LOCATIONS:
            problems.append((span, bad_place(location)))
        return self.command(location, span)  # type: ignore[no-any-return]

    def write(self, command: PlaceFigure) -> str:
        return f"+{command.location}"

    def to_json(self, command: PlaceFigure) -> Json:
        return {"type": self.json_type, "location": command.location}

    def from_json(self, obj: Json) -> Value:
        return self.command(obj["location"])  # type: ignore[no-any-return]

    def schema(self) -> Json:
        return object_schema(self.json_type, {"location": LOCATION_SCHEMA}, ("location",))


class PlacementCodec(CommandCodec):
    """``17@1,0:90``: tile 17 at x=1, y=0 turned 90 degrees clockwise (``:0`` is left out)."""

    command = PlaceTile
    terminal = "PLACEMENT"
    json_type = "place"
    expected = "a tile placement such as 17@1,0:90"

    def __init__(self, reserved: tuple[str, ...] = ()) -> None:
        #: Words the game's grammar reads otherwise, so no tile id may be one.
        self.reserved = reserved

    def read(self, text: str, span: Span, problems: Problems) -> PlaceTile:
        # The terminal guarantees the shape TILE@X,Y[:ROT] (no "@", "," or ":" in a tile id): found by
        # position and sliced, which makes fewer objects than partition() (a tuple and two strings each)
        at = text.find("@")
        # records place tiles on the same few hundred squares: the spot's numbers remembered by its text
        where = text[at + 1:]
        spot = _SPOTS.get(where)
        if spot is not None:
            return PlaceTile(text[:at], spot[0], spot[1], spot[2], span)
        mark = len(problems)
        comma = text.find(",", at)
        colon = text.find(":", comma)
        if colon < 0:
            rot = 0
            y = small_int(text[comma + 1:], span, problems, "y")
        else:
            rot = small_int(text[colon + 1:], span, problems, "a rotation")
            y = small_int(text[comma + 1:colon], span, problems, "y")
        if rot % 90 or not 0 <= rot < 360:  # not in ROTATIONS (int arithmetic: no boxing, no search)
            problems.append((span, f"rotation {rot} is not one of 0, 90, 180, 270 (degrees clockwise)"))
        x = small_int(text[at + 1:comma], span, problems, "x")
        if len(problems) == mark and len(_SPOTS) < _SPOTS_MAX:  # only a spot read without a problem
            _SPOTS[where] = (x, y, rot)
        return PlaceTile(text[:at], x, y, rot, span)

    def write(self, command: PlaceTile) -> str:
        rot = f":{command.rotation}" if command.rotation else ""
        return f"{command.tile}@{command.x},{command.y}{rot}"

    def to_json(self, command: PlaceTile) -> Json:
        return {"type": "place", "tile": command.tile, "x": command.x, "y": command.y,
                "rotation": command.rotation}

    def from_json(self, obj: Json) -> PlaceTile:
        return PlaceTile(obj["tile"], obj["x"], obj["y"], obj.get("rotation", 0))

    def schema(self) -> Json:
        return object_schema("place", {"tile": tile_id_schema(self.reserved), "x": {"type": "integer"},
                                       "y": {"type": "integer"},
                                       "rotation": {"enum": list(ROTATIONS)}}, ("tile", "x", "y"))


class DiscardCodec(CommandCodec):
    """``discard 52``: the drawn tile 52 fits nowhere and leaves the game."""

    command = DiscardTile
    terminal = "DISCARD"
    json_type = "discard"
    expected = "a discard such as \"discard 52\""

    def __init__(self, reserved: tuple[str, ...] = ()) -> None:
        self.reserved = reserved

    def read(self, text: str, span: Span, problems: Problems) -> DiscardTile:
        return DiscardTile(text.split()[-1], span)

    def write(self, command: DiscardTile) -> str:
        return f"discard {command.tile}"

    def to_json(self, command: DiscardTile) -> Json:
        return {"type": "discard", "tile": command.tile}

    def from_json(self, obj: Json) -> DiscardTile:
        return DiscardTile(obj["tile"])

    def schema(self) -> Json:
        return object_schema("discard", {"tile": tile_id_schema(self.reserved)}, ("tile",))


def tile_codecs(reserved: tuple[str, ...] = ()) -> tuple[CommandCodec, ...]:
    """The codecs of the shared tile-laying commands, for a game whose notation reserves ``reserved`` words."""
    return (PlacementCodec(reserved), DiscardCodec(reserved))
