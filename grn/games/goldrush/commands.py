"""The commands of Carcassonne: Gold Rush's step 2 and scoring, each with its codec.

``+N`` a cowboy, ``tent@2,-1[:N]`` the tent, ``mine[=3]`` mining, and
``tokens=2,?,0`` the faces of the mining tokens a turn's scoring hands out.
Placing and discarding tiles are the shared commands of :mod:`grn.games.tiling.commands`.
"""

from __future__ import annotations

from typing import Final

from grn.rules.codec import CommandCodec, Json, Problems, object_schema, read_int
from grn.core.errors import Span
from grn.games.tiling.commands import LOCATION_SCHEMA, FigureCodec, PlaceFigure, bad_place, small_int
from grn.games.tiling.places import LOCATIONS
from grn.core.value import Value

_LOCATIONS: Final = frozenset(LOCATIONS)
_TOKEN_SCHEMA: Json = {"type": ["integer", "null"], "minimum": 0}


class PlaceCowboy(PlaceFigure):
    """Put a follower (cowboy) on the feature of the new tile at ``location``.

    ``location`` is one of :data:`~grn.games.tiling.places.LOCATIONS`, read on the board (after the
    tile's rotation): an edge middle for a railroad or mountain, a half edge for a prairie, ``C``
    for a city.
    """

    __slots__ = ()


class PlaceTent(Value):
    """Pitch (or move) the player's tent on the mountain segment of the tile at ``(x, y)``.

    ``location`` names the mountain segment when the tile has more than one.
    """

    __slots__ = ("x", "y", "location", "span")
    _fields = ("x", "y", "location", "span")

    def __init__(self, x: int, y: int, location: str | None = None, span: Span | None = None) -> None:
        self.x: Final = x
        self.y: Final = y
        self.location: Final = location
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.x, self.y, self.location)

    def __repr__(self) -> str:
        loc = f" {self.location}" if self.location else ""
        return f"<PlaceTent {self.x},{self.y}{loc}>"


class Mine(Value):
    """Take the top mining token of the mountain where the player's tent stands.

    ``value`` is the token's face (0 for gravel) when the record states it.
    """

    __slots__ = ("value", "span")
    _fields = ("value", "span")

    def __init__(self, value: int | None = None, span: Span | None = None) -> None:
        self.value: Final = value
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.value,)

    def __repr__(self) -> str:
        return f"<Mine {'?' if self.value is None else self.value}>"


class RevealTokens(Value):
    """The faces of the mining tokens handed out by this turn's scoring, in hand-out order.

    ``None`` marks a token whose face the record does not state.
    """

    __slots__ = ("values", "span")
    _fields = ("values", "span")

    def __init__(self, values: tuple[int | None, ...], span: Span | None = None) -> None:
        self.values: Final = values
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.values,)

    def __repr__(self) -> str:
        return "<RevealTokens " + ",".join("?" if v is None else str(v) for v in self.values) + ">"


class CowboyCodec(FigureCodec):
    """``+N``: a cowboy on the new tile's feature at that place."""

    command = PlaceCowboy
    terminal = "COWBOY"
    json_type = "cowboy"
    expected = "a cowboy such as +N"


class TentCodec(CommandCodec):
    """``tent@2,-1``, or ``tent@2,-1:N`` naming the mountain segment."""

    command = PlaceTent
    terminal = "TENT"
    json_type = "tent"
    expected = "a tent such as tent@2,-1"

    def read(self, text: str, span: Span, problems: Problems) -> PlaceTent:
        # The terminal guarantees the shape tent@X,Y[:PLACE]: found by position, no regex match object
        comma = text.find(",", 5)
        colon = text.find(":", comma)
        where: str | None = None
        if colon < 0:
            y = small_int(text[comma + 1:], span, problems, "y")
        else:
            where = text[colon + 1:]
            if where not in _LOCATIONS:
                problems.append((span, bad_place(where)))
            y = small_int(text[comma + 1:colon], span, problems, "y")
        return PlaceTent(small_int(text[5:comma], span, problems, "x"), y, where, span)

    def write(self, command: PlaceTent) -> str:
        loc = f":{command.location}" if command.location else ""
        return f"tent@{command.x},{command.y}{loc}"

    def to_json(self, command: PlaceTent) -> Json:
        out: Json = {"type": "tent", "x": command.x, "y": command.y}
        if command.location is not None:
            out["location"] = command.location
        return out

    def from_json(self, obj: Json) -> PlaceTent:
        return PlaceTent(obj["x"], obj["y"], obj.get("location"))

    def schema(self) -> Json:
        return object_schema("tent", {"x": {"type": "integer"}, "y": {"type": "integer"},
                                      "location": LOCATION_SCHEMA}, ("x", "y"))


class MineCodec(CommandCodec):
    """``mine``, or ``mine=3`` with the token's face."""

    command = Mine
    terminal = "MINE"
    json_type = "mine"
    expected = "\"mine\" or \"mine=3\""

    def read(self, text: str, span: Span, problems: Problems) -> Mine:
        _, _, val = text.partition("=")
        return Mine(None if val in ("", "?") else read_int(val, span, problems, "a token's value"), span)

    def write(self, command: Mine) -> str:
        return "mine" if command.value is None else f"mine={command.value}"

    def to_json(self, command: Mine) -> Json:
        return {"type": "mine", "value": command.value}

    def from_json(self, obj: Json) -> Mine:
        return Mine(obj.get("value"))

    def schema(self) -> Json:
        return object_schema("mine", {"value": _TOKEN_SCHEMA})


class TokensCodec(CommandCodec):
    """``tokens=2,?,0``: the faces of the tokens this turn's scoring handed out."""

    command = RevealTokens
    terminal = "TOKENS"
    json_type = "tokens"
    expected = "token faces such as tokens=2,?,0"

    def read(self, text: str, span: Span, problems: Problems) -> RevealTokens:
        vals = text.partition("=")[2].split(",")
        return RevealTokens(tuple(None if v == "?" else read_int(v, span, problems, "a token's value") for v in vals),
                            span)

    def write(self, command: RevealTokens) -> str:
        return "tokens=" + ",".join("?" if v is None else str(v) for v in command.values)

    def to_json(self, command: RevealTokens) -> Json:
        return {"type": "tokens", "values": list(command.values)}

    def from_json(self, obj: Json) -> RevealTokens:
        return RevealTokens(tuple(obj["values"]))

    def schema(self) -> Json:
        return object_schema("tokens", {"values": {"type": "array", "minItems": 1, "items": _TOKEN_SCHEMA}},
                             ("values",))


#: Gold Rush's own codecs (after the shared tile-laying ones).
CODECS: tuple[CommandCodec, ...] = (CowboyCodec(), TentCodec(), MineCodec(), TokensCodec())
