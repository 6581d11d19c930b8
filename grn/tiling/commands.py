"""The commands every tile-laying game shares: place a tile, discard one that fits nowhere.

Each command is a :class:`~grn.value.Value` (immutable, spans left out of
equality) and has its :class:`~grn.codec.CommandCodec` beside it.
"""

from __future__ import annotations

from typing import Final

from grn.codec import CommandCodec, Json, Problems, object_schema, read_int
from grn.errors import Span
from grn.tiling.places import ROTATIONS
from grn.value import Value



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
        # The terminal guarantees the shape TILE@X,Y[:ROT]; partition() is quicker than a regex.
        tile, _, rest = text.partition("@")
        xy, _, rot_text = rest.partition(":")
        x, _, y = xy.partition(",")
        rot = read_int(rot_text, span, problems, "a rotation") if rot_text else 0
        if rot not in ROTATIONS:
            problems.append((span, f"rotation {rot} is not one of 0, 90, 180, 270 (degrees clockwise)"))
        return PlaceTile(tile, read_int(x, span, problems, "x"), read_int(y, span, problems, "y"), rot, span)

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
