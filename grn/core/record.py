"""The game record tree: what a GRN game says, independent of any text.

A :class:`Record` holds the header tags, the notes written before the first
turn and the main line of :class:`Turn` values.  Each turn holds the engine
commands of its actions and, in the order they were written, its extras:
annotation glyphs (:class:`Nag`), comments, score checkpoints, diagram markup
and variations (alternative lines that branch before the turn they follow).

Like ``chess.pgn.Game`` this module does no I/O: :mod:`grn.notation.read` reads it
from text, :mod:`grn.notation.writer` writes it back, :mod:`grn.notation.jsonform` converts it.
"""

from __future__ import annotations

import re
from typing import Final, Iterator, Union

from grn.core import registry
from grn.core.errors import Diagnostic, Span
from grn.core.value import Value

#: An engine command: the value a game's codec reads from an action word (:mod:`grn.rules.codec`).
Command = Value

#: Variations nest at most this deep (a variation inside a variation ... ); deeper is an error at the
#: variation that passes it, so that every tree walk stays within Python's recursion limit.
MAX_VARIATION_DEPTH = 100
#: A line holds at most this many characters, and a game at most :data:`MAX_GAME_CHARS`: past them the
#: game is an error at that line and is not kept, so that no input can take memory without bound
#: (the reader's limits, :mod:`grn.notation.read`; the writer keeps its lines within them).
MAX_LINE_CHARS = 1_000_000
MAX_GAME_CHARS = 16_000_000


class Comment(Value):
    """A comment: ``{text}``, or ``; text`` to the end of the line (``line=True``)."""

    __slots__ = ("text", "line", "span")
    _fields = ("text", "line", "span")

    def __init__(self, text: str, line: bool = False, span: Span | None = None) -> None:
        self.text: Final = text
        self.line: Final = line
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.text, self.line)

    def __repr__(self) -> str:
        return f"<Comment {self.text!r}{' line' if self.line else ''}>"


class Nag(Value):
    """An annotation glyph: ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!`` or ``$n``."""

    __slots__ = ("glyph", "span")
    _fields = ("glyph", "span")

    def __init__(self, glyph: str, span: Span | None = None) -> None:
        self.glyph: Final = glyph
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.glyph,)

    def __repr__(self) -> str:
        return f"<Nag {self.glyph}>"


class Checkpoint(Value):
    """The scores as the players had them after the turn (a score sheet line)."""

    __slots__ = ("scores", "span")
    _fields = ("scores", "span")

    def __init__(self, scores: tuple[tuple[str, int], ...], span: Span | None = None) -> None:
        self.scores: Final = scores
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.scores,)

    def as_dict(self) -> dict[str, int]:
        """The scores by player."""
        return dict(self.scores)

    def __repr__(self) -> str:
        return "<Checkpoint " + " ".join(f"{who}={pts}" for who, pts in self.scores) + ">"


class Markup(Value):
    """Diagram markup: ``<kind arg ...>``.

    Kinds: ``highlight`` (a tile ``x,y``, a feature ``x,y:PLACE`` or a card
    position, optionally a colour), ``arrow`` (from, to, optional colour),
    ``label`` (where, ``"text"``), ``ghost`` (a placement under discussion,
    ``17@2,0:90``).  ``args`` keep the written words; string arguments are
    unescaped and marked by :class:`MarkupText`.
    """

    __slots__ = ("kind", "args", "span")
    _fields = ("kind", "args", "span")

    def __init__(self, kind: str, args: tuple[Union[str, MarkupText], ...], span: Span | None = None) -> None:
        self.kind: Final = kind
        self.args: Final = args
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.args)

    def __repr__(self) -> str:
        return f"<Markup {self.kind} {' '.join(map(str, self.args))}>"


class MarkupText(Value):
    """A quoted text argument of diagram markup (a label's text)."""

    __slots__ = ("text",)
    _fields = ("text",)

    def __init__(self, text: str) -> None:
        self.text: Final = text

    def _key(self) -> tuple[object, ...]:
        return (self.text,)

    def __repr__(self) -> str:
        return f"<MarkupText {self.text!r}>"


#: Colour words diagram markup may use besides ``#rgb``/``#rrggbb``: the player colours and a few more.
MARKUP_COLOURS: frozenset[str] = frozenset(
    {"red", "yellow", "green", "blue", "black",
     "orange", "white", "purple", "grey", "gray", "brown", "pink", "cyan"})
_HEX_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def is_markup_colour(word: str) -> bool:
    """Whether ``word`` is a colour diagram markup may use."""
    return word.lower() in MARKUP_COLOURS or bool(_HEX_COLOUR.match(word))


MARKUP_KINDS: dict[str, tuple[int, int]] = {
    # kind: (fewest, most) arguments
    "highlight": (1, 2),
    "arrow": (2, 3),
    "label": (2, 2),
    "ghost": (1, 1),
}


def markup_problem(kind: str, count: int) -> str | None:
    """What is wrong with a markup ``<kind ...>`` of ``count`` arguments, in the reader's words, or ``None``
    (both readers, :mod:`grn.notation.fastread` and Lark's, note it as a problem of meaning)."""
    if kind not in MARKUP_KINDS:
        return f"unknown markup <{kind}>: use highlight, arrow, label or ghost"
    low, high = MARKUP_KINDS[kind]
    if not low <= count <= high:
        want = str(low) if low == high else f"{low} to {high}"
        return f"<{kind}> takes {want} arguments, not {count}"
    return None


class Variation(Value):
    """An alternative line: notes before its first turn, then its turns."""

    __slots__ = ("turns", "intro", "span")
    _fields = ("turns", "intro", "span")

    def __init__(self, turns: tuple[Turn, ...], intro: tuple[Union[Comment, Markup], ...] = (),
                 span: Span | None = None) -> None:
        self.turns: Final = turns
        self.intro: Final = intro
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.turns, self.intro)

    def __repr__(self) -> str:
        first = self.turns[0].number if self.turns else "?"
        return f"<Variation from turn {first}, {len(self.turns)} turns>"


Extra = Union[Nag, Comment, Checkpoint, Markup, Variation]
Note = Union[Comment, Markup]


class Turn(Value):
    """One numbered turn: who acted, the commands, and the extras in written order.

    Turn ``0`` is the set-up: a position written directly (for a rules
    diagram), applied without scoring.
    """

    __slots__ = ("number", "player", "actions", "extras", "span")
    _fields = ("number", "player", "actions", "extras", "span")

    def __init__(self, number: int, player: str, actions: tuple[Command, ...], extras: tuple[Extra, ...] = (),
                 span: Span | None = None) -> None:
        self.number: Final = number
        self.player: Final = player
        self.actions: Final = actions
        self.extras: Final = extras
        self.span: Final = span

    def _key(self) -> tuple[object, ...]:
        return (self.number, self.player, self.actions, self.extras)

    @property
    def nags(self) -> tuple[Nag, ...]:
        return tuple(e for e in self.extras if isinstance(e, Nag))

    @property
    def comments(self) -> tuple[Comment, ...]:
        return tuple(e for e in self.extras if isinstance(e, Comment))

    @property
    def markup(self) -> tuple[Markup, ...]:
        return tuple(e for e in self.extras if isinstance(e, Markup))

    @property
    def variations(self) -> tuple[Variation, ...]:
        return tuple(e for e in self.extras if isinstance(e, Variation))

    @property
    def checkpoint(self) -> Checkpoint | None:
        for e in reversed(self.extras):
            if isinstance(e, Checkpoint):
                return e
        return None

    def __repr__(self) -> str:
        acts = " ".join(repr(a) for a in self.actions)
        return f"<Turn {self.number}. {self.player} {acts}>"


#: Tags written first, in this order, by the canonical formatter.
TAG_ORDER: tuple[str, ...] = (
    "Game", "Event", "Site", "Date", "Round", "Match", "Players", "Options", "Tileset", "Layout",
    "Result",
)


class Seat(Value):
    """A player at the table: name and the colours they own (seat order clockwise)."""

    __slots__ = ("name", "colours")
    _fields = ("name", "colours")

    def __init__(self, name: str, colours: tuple[str, ...]) -> None:
        self.name: Final = name
        self.colours: Final = colours

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.colours)

    @property
    def key(self) -> str:
        """The colour that names the player in turns (the first they own)."""
        return self.colours[0]


_SEAT_RE = re.compile(r"^\s*(?:(?P<name>[^()]*?)\s*\((?P<colours>[a-z+ ]+)\)|(?P<bare>[a-z]+))\s*$")


#: Players tags read before -> their seats (immutable values, handed out in a new list each time): the games
#: of a file, a tournament's, repeat their Players tag, and each validation reads it.
_SEATS_READ: Final[dict[str, tuple[Seat, ...]]] = {}
#: The most tags :data:`_SEATS_READ` keeps (then it starts again).
_SEATS_KEPT: Final = 1_000


def parse_players(value: str) -> list[Seat]:
    """Read a ``Players`` tag: ``"Anna (red), Ben (blue+green)"``; a bare colour is allowed.

    Raises ``ValueError`` with a message in plain words when it is malformed.
    """
    known = _SEATS_READ.get(value)
    if known is not None:
        return list(known)
    seats = _parse_players(value)
    if len(_SEATS_READ) >= _SEATS_KEPT:
        _SEATS_READ.clear()
    _SEATS_READ[value] = tuple(seats)
    return seats


def _parse_players(value: str) -> list[Seat]:
    seats: list[Seat] = []
    if not value.strip():
        return seats
    for part in value.split(","):
        m = _SEAT_RE.match(part)
        if not m:
            lowered = _SEAT_RE.match(part.lower())
            if lowered is not None and lowered.group("colours"):
                # "Anna (Red)": colours are lower-case words
                name, _, rest = part.strip().partition("(")
                raise ValueError(f"cannot read player {part.strip()!r}: write it as Name (colour), the colours "
                                 f"in lower case: {name.strip()} ({rest.rstrip(')').strip().lower()})")
            raise ValueError(f"cannot read player {part.strip()!r}: write it as Name (colour)")
        if m.group("bare"):
            seats.append(Seat(m.group("bare"), (m.group("bare"),)))
        else:
            colours = tuple(c.strip() for c in m.group("colours").split("+") if c.strip())
            seats.append(Seat(m.group("name") or colours[0], colours))
    return seats


def parse_options(value: str) -> dict[str, str]:
    """Read an ``Options`` tag: ``"farmers=off, cowboys=5"`` (a bare word means ``on``)."""
    out: dict[str, str] = {}
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        key, _, val = part.partition("=")
        out[key.strip()] = val.strip() if val else "on"
    return out


class Record(Value):
    """One game of a GRN file: tags, notes before the first turn, and the main line.

    ``diagnostics`` holds the problems found while reading it (a record with a
    syntax error keeps the tags it had and no turns).  ``tag_spans``: where each
    tag was written (the tag name), in the order of ``tags``; empty when built in
    code.  Two records are equal when their tags, turns and intro are: where
    they were written and what reading them found do not count.
    """

    __slots__ = ("tags", "turns", "intro", "span", "diagnostics", "tag_spans")
    _fields = ("tags", "turns", "intro", "span", "diagnostics", "tag_spans")

    def __init__(self, tags: tuple[tuple[str, str], ...], turns: tuple[Turn, ...] = (),
                 intro: tuple[Note, ...] = (), span: Span | None = None,
                 diagnostics: tuple[Diagnostic, ...] = (), tag_spans: tuple[Span | None, ...] = ()) -> None:
        self.tags: Final = tags
        self.turns: Final = turns
        self.intro: Final = intro
        self.span: Final = span
        self.diagnostics: Final = diagnostics
        self.tag_spans: Final = tag_spans

    def _key(self) -> tuple[object, ...]:
        return (self.tags, self.turns, self.intro)

    def tag_span(self, name: str) -> Span | None:
        """Where tag ``name`` was written (falling back to the start of the game)."""
        for (key, _), span in zip(self.tags, self.tag_spans):
            if key == name and span is not None:
                return span
        return self.span

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of tag ``name`` (first occurrence), or ``default``."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    @property
    def game(self) -> str:
        """The ruleset the ``Game`` tag names (:data:`grn.games.DEFAULT` when absent)."""
        value = self.tag("Game")
        if value is None:
            return registry.DEFAULT
        return value.strip().lower()

    def seats(self) -> list[Seat]:
        """The players in seat order, from the ``Players`` tag."""
        return parse_players(self.tag("Players") or "")

    def options(self) -> dict[str, str]:
        """Rule options and house rules, from the ``Options`` tag."""
        return parse_options(self.tag("Options") or "")

    @property
    def ok(self) -> bool:
        """True when reading found no error."""
        return not any(d.severity == "error" for d in self.diagnostics)

    def mainline(self) -> Iterator[Turn]:
        """The turns of the main line, set-up (turn 0) included."""
        return iter(self.turns)

    def _repr_html_(self) -> str:
        """A small viewer of the game, for a Jupyter notebook (the page of ``grn html``, framed)."""
        # the viewer is a layer above the records: the registry names it, loaded on first use
        return str(registry.view("record html")(self))

    def with_tags(self, **tags: str) -> "Record":
        """A copy with some tags set (appended when new)."""
        items = list(self.tags)
        for name, value in tags.items():
            for i, (k, _) in enumerate(items):
                if k == name:
                    items[i] = (k, value)
                    break
            else:
                items.append((name, value))
        return self.replace(tags=tuple(items))

    def __repr__(self) -> str:
        return f"<Record {self.game} {self.tag('Event') or ''!s} turns={len(self.turns)}>"