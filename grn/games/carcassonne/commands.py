"""Carcassonne's own commands, each with its codec: a follower, the second gold ingot, an ingot taken.

``+N`` a follower on the new tile's feature at that place (``+C`` the
cloister), ``ingot@1,1`` the second ingot of a Gold Mines tile, and
``take@1,0`` which tile an ingot is taken from when gold is distributed.
Placing and discarding tiles are the shared commands of :mod:`grn.games.tiling.commands`.
"""

from __future__ import annotations

from typing import Final

from grn.rules.codec import CommandCodec, Json, Problems, object_schema, read_int
from grn.core.errors import Span
from grn.games.tiling.commands import FigureCodec, PlaceFigure
from grn.core.value import Value

class PlaceFollower(PlaceFigure):
    """Put a follower on the feature of the new tile at ``location`` (a place on the board, ``C`` the cloister)."""

    __slots__ = ()


class PlaceIngot(Value):
    """Set the second gold ingot on the tile at ``(x, y)`` (the first goes on the new tile by itself)."""

    __slots__ = ("x", "y", "span")
    _fields = ("x", "y", "span")

    def __init__(self, x: int, y: int, span: Span | None = None) -> None:
        self.x: Final = x
        self.y: Final = y
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.x, self.y)

    def __repr__(self) -> str:
        return f"<PlaceIngot {self.x},{self.y}>"


class TakeIngot(Value):
    """When gold is distributed, the next ingot handed out comes from the tile at ``(x, y)``."""

    __slots__ = ("x", "y", "span")
    _fields = ("x", "y", "span")

    def __init__(self, x: int, y: int, span: Span | None = None) -> None:
        self.x: Final = x
        self.y: Final = y
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.x, self.y)

    def __repr__(self) -> str:
        return f"<TakeIngot {self.x},{self.y}>"


def _xy(text: str, span: Span, problems: Problems) -> tuple[int, int]:
    x, _, y = text.partition("@")[2].partition(",")
    return read_int(x, span, problems, "x"), read_int(y, span, problems, "y")


class FollowerCodec(FigureCodec):
    """``+N``: a follower on the new tile's feature at that place; ``+C`` on its cloister."""

    command = PlaceFollower
    terminal = "FOLLOWER"
    json_type = "follower"
    expected = "a follower such as +N"


class IngotCodec(CommandCodec):
    """``ingot@1,1``: the second gold ingot on the tile at 1,1."""

    command = PlaceIngot
    terminal = "INGOT"
    json_type = "ingot"
    expected = "a gold ingot such as ingot@1,1"

    def read(self, text: str, span: Span, problems: Problems) -> PlaceIngot:
        x, y = _xy(text, span, problems)
        return PlaceIngot(x, y, span)

    def write(self, command: PlaceIngot) -> str:
        return f"ingot@{command.x},{command.y}"

    def to_json(self, command: PlaceIngot) -> Json:
        return {"type": "ingot", "x": command.x, "y": command.y}

    def from_json(self, obj: Json) -> PlaceIngot:
        return PlaceIngot(obj["x"], obj["y"])

    def schema(self) -> Json:
        return object_schema("ingot", {"x": {"type": "integer"}, "y": {"type": "integer"}}, ("x", "y"))


class TakeCodec(CommandCodec):
    """``take@1,0``: the next ingot handed out this turn comes from the tile at 1,0."""

    command = TakeIngot
    terminal = "TAKE"
    # "take" alone is another game's word (the plug-in test's Nim): JSON types are shared by every game
    json_type = "take_ingot"
    expected = "an ingot taken such as take@1,0"

    def read(self, text: str, span: Span, problems: Problems) -> TakeIngot:
        x, y = _xy(text, span, problems)
        return TakeIngot(x, y, span)

    def write(self, command: TakeIngot) -> str:
        return f"take@{command.x},{command.y}"

    def to_json(self, command: TakeIngot) -> Json:
        return {"type": "take_ingot", "x": command.x, "y": command.y}

    def from_json(self, obj: Json) -> TakeIngot:
        return TakeIngot(obj["x"], obj["y"])

    def schema(self) -> Json:
        return object_schema("take_ingot", {"x": {"type": "integer"}, "y": {"type": "integer"}}, ("x", "y"))


#: Carcassonne's own codecs (after the shared tile-laying ones).
CODECS: tuple[CommandCodec, ...] = (FollowerCodec(), IngotCodec(), TakeCodec())
