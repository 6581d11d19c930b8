"""The one command of the card game Gold: turn a card over (``c4=G3``), with its codec."""

from __future__ import annotations

import re
from typing import Final, Literal

from grn.rules.codec import CommandCodec, Json, Problems, object_schema, read_int
from grn.core.errors import Span
from grn.core.value import Value

#: Miner colours, in the order the box lists them.
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")
_COLOURS = frozenset(COLOURS)
_FLIP_RE = re.compile(r"([a-z][a-z0-9]*)=(?:G(\d+)|(D)|([a-z]+)(\d+))$")

CardKind = Literal["gold", "miner", "dynamite"]


class Card(Value):
    """A card face of the game Gold: gold (value), miner (colour, value) or dynamite."""

    __slots__ = ("kind", "value", "colour", "_hash")
    _fields = ("kind", "value", "colour")

    def __init__(self, kind: CardKind, value: int = 0, colour: str | None = None) -> None:
        self.kind: Final = kind
        self.value: Final = value
        self.colour: Final = colour
        # the engine counts cards in dicts every turn: hash once, not a tuple per look-up
        self._hash: Final = hash(("Card", kind, value, colour))

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.value, self.colour)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        return (isinstance(other, Card) and type(other) is type(self) and self.kind == other.kind
                and self.value == other.value and self.colour == other.colour)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"<Card {card_text(self)}>"


def card_text(card: Card) -> str:
    """The GRN spelling of a card face: ``G3``, ``red4``, ``D``."""
    if card.kind == "gold":
        return f"G{card.value}"
    if card.kind == "dynamite":
        return "D"
    return f"{card.colour}{card.value}"


def card_words(card: Card) -> str:
    """A card face in words, for sentences a player reads: ``the gold card 3``, ``the black miner 3``,
    ``the dynamite``."""
    if card.kind == "gold":
        return f"the gold card {card.value}"
    if card.kind == "dynamite":
        return "the dynamite"
    return f"the {card.colour} miner {card.value}"


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


#: The JSON Schema of a card face.
CARD_SCHEMA: Json = {'type': 'object',
     'required': ['kind'],
     'properties': {'kind': {'enum': ['gold', 'miner', 'dynamite']}},
     'allOf': [{'if': {'properties': {'kind': {'const': 'gold'}}, 'required': ['kind']},
                'then': {'properties': {'kind': {'const': 'gold'}, 'value': {'type': 'integer', 'minimum': 0}},
                         'required': ['kind', 'value'],
                         'additionalProperties': False}},
               {'if': {'properties': {'kind': {'const': 'miner'}}, 'required': ['kind']},
                'then': {'properties': {'kind': {'const': 'miner'},
                                        'value': {'type': 'integer', 'minimum': 0},
                                        'colour': {'enum': ['red', 'yellow', 'green', 'blue', 'black']}},
                         'required': ['kind', 'value', 'colour'],
                         'additionalProperties': False}},
               {'if': {'properties': {'kind': {'const': 'dynamite'}}, 'required': ['kind']},
                'then': {'properties': {'kind': {'const': 'dynamite'}},
                         'required': ['kind'],
                         'additionalProperties': False}}]}


#: Face text -> its card, for faces read without a problem: records turn the same few faces
#: over and over, and one card per face makes the engine's dict look-ups identity hits.
_FACES: dict[str, Card] = {}


class FlipCodec(CommandCodec):
    """``c4=G3`` gold worth 3, ``f2=red4`` a red miner of 4, ``h8=D`` dynamite."""

    command = FlipCard
    terminal = "FLIP"
    json_type = "flip"
    expected = "a card turned such as c4=G3"

    def read(self, text: str, span: Span, problems: Problems) -> FlipCard:
        m = _FLIP_RE.match(text)
        assert m is not None
        pos = m.group(1)
        key = text[m.end(1) + 1:]
        known = _FACES.get(key)
        if known is not None:
            return FlipCard(pos, known, span)
        had = len(problems)
        if m.group(2) is not None:
            face = Card("gold", read_int(m.group(2), span, problems, "a card's value"))
        elif m.group(3):
            face = Card("dynamite")
        else:
            colour = m.group(4)
            if colour not in _COLOURS:
                problems.append((span, f"'{colour}' is not a miner colour: use one of {', '.join(COLOURS)}"))
            face = Card("miner", read_int(m.group(5), span, problems, "a card's value"), colour)
        if len(problems) == had and len(_FACES) < 1000:
            _FACES[key] = face
        return FlipCard(pos, face, span)

    def write(self, command: FlipCard) -> str:
        return f"{command.pos}={card_text(command.face)}"

    def to_json(self, command: FlipCard) -> Json:
        face: Json = {"kind": command.face.kind}
        if command.face.kind != "dynamite":
            face["value"] = command.face.value
        if command.face.colour is not None:
            face["colour"] = command.face.colour
        return {"type": "flip", "pos": command.pos, "face": face}

    def from_json(self, obj: Json) -> FlipCard:
        face = obj["face"]
        return FlipCard(obj["pos"], Card(face["kind"], face.get("value", 0), face.get("colour")))

    def schema(self) -> Json:
        return object_schema("flip", {"pos": {"type": "string", "pattern": "^[a-z][a-z0-9]*$"},
                                      "face": CARD_SCHEMA}, ("pos", "face"))


CODECS: tuple[CommandCodec, ...] = (FlipCodec(),)
