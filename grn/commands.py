"""Engine commands: the typed, immutable actions a GRN record describes.

The parser turns text into these; the rules engines consume them and know no
text.  Every command carries the :class:`~grn.errors.Span` it was read from
(``None`` when it was built in code) so that the validator can point at the
exact line and column.  Spans take no part in equality: two commands that say
the same thing are equal wherever they were written.  Commands are
:class:`~grn.value.Value` types: immutable, cheap to make, with ``replace()``.
"""

from __future__ import annotations

from typing import Final, Literal, Union

from grn.errors import Span
from grn.value import Value

#: The twelve places on a tile's border, clockwise from the west half of the
#: north edge.  ``N``, ``E``, ``S``, ``W`` are the middles of the edges (where
#: a railroad or road meets the edge); ``NNW``/``NNE`` are the west and east
#: halves of the north edge, and so on.  ``C`` (not in this tuple) is the centre.
POSITIONS: tuple[str, ...] = (
    "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW",
)
CENTRE = "C"
#: Every spelling a feature location may take.
LOCATIONS: tuple[str, ...] = POSITIONS + (CENTRE,)
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)
#: Player colours shared by both games, in the order the boxes list them.
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")


# --------------------------------------------------------------------------
# Carcassonne family (Gold Rush, and later base Carcassonne + The Gold Mines)
# --------------------------------------------------------------------------

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


class PlaceCowboy(Value):
    """Put a follower (cowboy) on the feature of the new tile at ``location``.

    ``location`` is one of :data:`LOCATIONS`, read on the board (after the
    tile's rotation): an edge middle for a railroad or mountain, a half edge
    for a prairie, ``C`` for a city.
    """

    __slots__ = ("location", "span")
    _fields = ("location", "span")

    def __init__(self, location: str, span: Span | None = None) -> None:
        self.location: Final = location
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.location,)

    def __repr__(self) -> str:
        return f"<PlaceCowboy {self.location}>"


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


# --------------------------------------------------------------------------
# The card game Gold
# --------------------------------------------------------------------------

CardKind = Literal["gold", "miner", "dynamite"]


class Card(Value):
    """A card face of the game Gold: gold (value), miner (colour, value) or dynamite."""

    __slots__ = ("kind", "value", "colour")
    _fields = ("kind", "value", "colour")

    def __init__(self, kind: CardKind, value: int = 0, colour: str | None = None) -> None:
        self.kind: Final = kind
        self.value: Final = value
        self.colour: Final = colour

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.value, self.colour)

    def __repr__(self) -> str:
        return f"<Card {card_text(self)}>"


def card_text(card: Card) -> str:
    """The GRN spelling of a card face: ``G3``, ``red4``, ``D``."""
    if card.kind == "gold":
        return f"G{card.value}"
    if card.kind == "dynamite":
        return "D"
    return f"{card.colour}{card.value}"


class FlipCard(Value):
    """Turn over the face-down card at layout position ``pos``; ``face`` is what it showed."""

    __slots__ = ("pos", "face", "span")
    _fields = ("pos", "face", "span")

    def __init__(self, pos: str, face: Card, span: Span | None = None) -> None:
        self.pos: Final = pos
        self.face: Final = face
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.pos, self.face)

    def __repr__(self) -> str:
        return f"<FlipCard {self.pos}={card_text(self.face)}>"


Command = Union[PlaceTile, DiscardTile, PlaceCowboy, PlaceTent, Mine, RevealTokens, FlipCard]
