"""Rules engine of the card game "Gold" (cited as "Gold rules").

Players turn over face-down cards of a layout.  A miner carries gold out,
miners fight duels, dynamite blows cards away; when 10 or fewer cards are face
down the "Gold Rush!" begins and each turn turns one card.  The richest player
wins.

The engine works at the command level (:class:`~grn.games.gold.commands.FlipCard`) and
does **not** know the deal: it learns a card's face when a record turns it and
checks every later turn against what it has seen (a card that goes back face
down keeps its face) and against the card list (:func:`load_cards`).  Outcomes
are computed by the rules, never read from the record.

Quotes are from the rules of Gold, which have no headings: ``section`` names the passage.

Rulings (where the rules are silent):

* **Blocked table.**  The rules end the game only "when the last card has been
  removed from the table".  With more than 10 cards face down and none of them
  able to leave (e.g. only gold left, or only miners of one value with gold
  worth more), no turn can change the table and the Gold Rush never comes: the
  game cannot end.  The engine says so (:attr:`GoldState.is_blocked`), keeps
  accepting legal turns (they change nothing), and never reports it over; a
  record that stops there is incomplete.  Self-play deals again with the next
  seed.  Because every card lies at its own position and cards never move, the
  multiset of face-down cards is the card list minus the cards that left, so
  blocking is known exactly even while faces are hidden.
* **Match tie after the last game.**  The rules: "In the event of a tie, the tied
  player with more points in the last game wins."  If those are tied too,
  all of them win (as in a single game's "there are several winners").
* **First player of each match game.**  "with a different player starting each
  time": the starter moves one seat clockwise each game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal, SupportsInt, Union, cast

from grn.core import shipped
from grn.rules.engine import Engine, Event, not_playing
from grn.core.errors import GrnError, IllegalAction
from grn.games.gold.commands import COLOURS, Card, FlipCard, card_text, card_words
from grn.core.value import Value

__all__ = [
    "CardSet", "CardDataError", "SetupError", "load_cards", "grid_positions", "GRID_8X8",
    "GoldState", "GoldEvent", "GoldTaken", "CardRemoved", "CardsReturned",
    "RushBegins", "GameEnds", "match_result", "expected_first_player",
    "seats_for", "RUSH_THRESHOLD", "SECTION",
]

Phase = Literal["normal", "rush"]

#: "If there are 10 or fewer cards still face down when it is the beginning of
#: your turn, then you should all shout: 'Gold Rush!'"
RUSH_THRESHOLD = 10

#: Section names used in :class:`IllegalAction` (the rules have no headings: the passage).
SECTION = {
    "setup": "Gold rules: setup",
    "turn": "Gold rules: your turn",
    "rush": "Gold rules: Gold Rush!",
    "end": "Gold rules: end of the game",
    "cards": "Gold rules: the card list (a published description of the game)",
    "match": "Gold rules: several games",
}


# --------------------------------------------------------------------------
# The card list
# --------------------------------------------------------------------------

class CardDataError(GrnError, ValueError):
    """A card list file that does not describe a usable set of Gold cards."""


class SetupError(IllegalAction, ValueError):
    """Seats, first player or layout that the rules' set-up does not allow (raised by :meth:`GoldState.new`)."""

    def __init__(self, message: str, rule: str = "Every player chooses a color and places the "
                 "corresponding entrance in front of them on the table.") -> None:
        super().__init__(message, rule=rule, section=SECTION["setup"], code="setup")


class CardSet(Value):
    """The cards of one box of Gold: mine entrances and layout cards with their counts."""

    __slots__ = ("name", "entrances", "cards", "description")
    _fields = ("name", "entrances", "cards", "description")

    def __init__(self, name: str, entrances: tuple[str, ...], cards: tuple[tuple[Card, int], ...],
                 description: str = "") -> None:
        self.name: Final = name
        self.entrances: Final = entrances
        self.cards: Final = cards
        self.description: Final = description

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.entrances, self.cards, self.description)

    @property
    def total(self) -> int:
        """Number of layout cards (64 for the shipped list)."""
        return sum(n for _, n in self.cards)

    def counts(self) -> dict[Card, int]:
        """Face -> number of copies."""
        return dict(self.cards)

    def count(self, card: Card) -> int:
        """Copies of ``card`` in the box (0 when there is no such card)."""
        for face, n in self.cards:
            if face == card:
                return n
        return 0

    def all_cards(self) -> list[Card]:
        """Every physical layout card, in file order (shuffle it to deal)."""
        return [face for face, n in self.cards for _ in range(n)]


def _card_from_json(entry: Mapping[str, object]) -> Card:
    kind = entry["kind"]
    if kind == "gold":
        return Card("gold", int(cast(SupportsInt, entry["value"])))
    if kind == "miner":
        return Card("miner", int(cast(SupportsInt, entry["value"])), str(entry["colour"]))
    return Card("dynamite")


def schema_errors(doc: Any) -> list[str]:
    """What ``cards.schema.json`` finds wrong in the card list ``doc``, each as "path: message"."""
    import jsonschema  # optional on the fast path: only a card list given by path needs it

    schema = json.loads(shipped.read_text("grn.games.gold", "cards.schema.json"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
    return [f"{'/'.join(str(p) for p in err.path) or '(top)'}: {err.message}" for err in errors]


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and check a card list (default: the shipped ``grn/games/gold/cards.json``).

    The file is validated against ``grn/games/gold/cards.schema.json`` (JSON Schema
    2020-12); a card listed twice or a miner colour without an entrance is also
    refused.  Raises :class:`CardDataError`.
    """
    if path is None:
        text = shipped.read_text("grn.games.gold", "cards.json")
        where = "grn/games/gold/cards.json"
    else:
        text = Path(path).read_text(encoding="utf-8")
        where = str(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(f"{where}: not JSON: {exc}") from exc
    # the shipped list is checked against the schema by the tests, not on every run: importing
    # jsonschema is more than a third of a small Gold file's validation, for data that cannot change
    errors = schema_errors(doc) if path is not None else []
    if errors:
        raise CardDataError(f"{where}: {errors[0]}")
    entrances = tuple(doc["entrances"])
    seen: dict[Card, int] = {}
    for entry in doc["cards"]:
        card = _card_from_json(entry)
        if card in seen:
            raise CardDataError(f"{where}: card {card_text(card)} is listed twice")
        if card.kind == "miner" and card.colour not in entrances:
            raise CardDataError(f"{where}: miner colour {card.colour} has no mine entrance")
        seen[card] = int(entry["count"])
    return CardSet(name=doc["name"], entrances=entrances, cards=tuple(seen.items()),
                   description=doc.get("description", ""))


_DEFAULT_CARDS: CardSet | None = None


def _default_cards() -> CardSet:
    global _DEFAULT_CARDS
    if _DEFAULT_CARDS is None:
        _DEFAULT_CARDS = load_cards()
    return _DEFAULT_CARDS


def grid_positions(files: int = 8, ranks: int = 8) -> tuple[str, ...]:
    """Position names of a ``files`` x ``ranks`` grid, rank by rank: ``a1 b1 ... h1 a2 ... h8``."""
    return tuple(f"{chr(ord('a') + f)}{r}" for r in range(1, ranks + 1) for f in range(files))


#: "For a simplified game, arrange the cards in an 8x8 grid": files a-h, ranks 1-8.
GRID_8X8: tuple[str, ...] = grid_positions()


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

class GoldTaken(Event):
    """``player`` put the gold ``card`` from ``from_pos`` under their mine entrance.

    ``by_miner_pos`` is the miner that carried it out (``None`` in the Gold Rush).
    """

    __slots__ = ("player", "card", "from_pos", "by_miner_pos")
    _fields = ("player", "card", "from_pos", "by_miner_pos")

    def __init__(self, player: str, card: Card, from_pos: str, by_miner_pos: str | None = None) -> None:
        self.player: Final = player
        self.card: Final = card
        self.from_pos: Final = from_pos
        self.by_miner_pos: Final = by_miner_pos

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.card, self.from_pos, self.by_miner_pos)

    def describe(self) -> str:
        """A short sentence."""
        how = f" carried out by the miner at {self.by_miner_pos}" if self.by_miner_pos else ""
        return f"{self.player} takes {card_words(self.card)} from {self.from_pos}{how}."

    def __repr__(self) -> str:
        by = f" by {self.by_miner_pos}" if self.by_miner_pos else ""
        return f"<GoldTaken {self.player} {card_text(self.card)}@{self.from_pos}{by}>"


def _capital(text: str) -> str:
    """``text`` with its first letter a capital: the start of a sentence."""
    return text[:1].upper() + text[1:]


class CardRemoved(Event):
    """The card at ``pos`` left the game (``reason`` in a few words)."""

    __slots__ = ("pos", "card", "reason")
    _fields = ("pos", "card", "reason")

    def __init__(self, pos: str, card: Card, reason: str) -> None:
        self.pos: Final = pos
        self.card: Final = card
        self.reason: Final = reason

    def _key(self) -> tuple[object, ...]:
        return (self.pos, self.card, self.reason)

    def describe(self) -> str:
        """A short sentence."""
        return f"{_capital(card_words(self.card))} at {self.pos} leaves the game ({self.reason})."

    def __repr__(self) -> str:
        return f"<CardRemoved {card_text(self.card)}@{self.pos}: {self.reason}>"


class CardsReturned(Event):
    """The cards at ``positions`` were turned back face down where they lay."""

    __slots__ = ("positions", "cards", "reason")
    _fields = ("positions", "cards", "reason")

    def __init__(self, positions: tuple[str, ...], cards: tuple[Card, ...], reason: str) -> None:
        self.positions: Final = positions
        self.cards: Final = cards
        self.reason: Final = reason

    def _key(self) -> tuple[object, ...]:
        return (self.positions, self.cards, self.reason)

    def describe(self) -> str:
        """A short sentence."""
        what = _capital(" and ".join(f"{card_words(c)} at {p}" for p, c in zip(self.positions, self.cards)))
        return f"{what} {'go' if len(self.positions) > 1 else 'goes'} back face down ({self.reason})."

    def __repr__(self) -> str:
        what = ",".join(f"{card_text(c)}@{p}" for p, c in zip(self.positions, self.cards))
        return f"<CardsReturned {what}: {self.reason}>"


class RushBegins(Event):
    """"Gold Rush!": ``face_down`` (10 or fewer) cards were face down when ``player``'s turn began."""

    __slots__ = ("player", "face_down")
    _fields = ("player", "face_down")

    def __init__(self, player: str, face_down: int) -> None:
        self.player: Final = player
        self.face_down: Final = face_down

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.face_down)

    def describe(self) -> str:
        """A short sentence."""
        return f"Gold Rush! {self.face_down} cards are face down; from {self.player} on, one card a turn."

    def __repr__(self) -> str:
        return f"<RushBegins {self.player} ({self.face_down} face down)>"


class GameEnds(Event):
    """The last card left the table; final ``scores`` (player, points) and ``winners``."""

    __slots__ = ("scores", "winners")
    _fields = ("scores", "winners")

    def __init__(self, scores: tuple[tuple[str, int], ...], winners: tuple[str, ...]) -> None:
        self.scores: Final = scores
        self.winners: Final = winners

    def _key(self) -> tuple[object, ...]:
        return (self.scores, self.winners)

    def describe(self) -> str:
        """A short sentence."""
        pts = ", ".join(f"{p} {s}" for p, s in self.scores)
        return f"The last card has left the table ({pts}); winner{'s' if len(self.winners) > 1 else ''}: {', '.join(self.winners)}."

    def __repr__(self) -> str:
        return f"<GameEnds winners={'+'.join(self.winners)}>"


GoldEvent = Union[GoldTaken, CardRemoved, CardsReturned, RushBegins, GameEnds]


# --------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------

def seats_for(players: int | Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Seats (player key, owned colours) for ``players`` (a count or colours in seat order).

    "If there are only two players, each of them should pick two colors": a
    two-player seat also takes the next colour of :data:`COLOURS` nobody has
    chosen (the default is red+yellow against green+blue; black leaves).
    """
    chosen = list(COLOURS[:players]) if isinstance(players, int) else list(players)
    if isinstance(players, int) and players == 2:
        chosen = ["red", "green"]
    if not 2 <= len(chosen) <= 5:
        raise ValueError("Gold is played by 2 to 5 players")
    if len(set(chosen)) != len(chosen) or any(c not in COLOURS for c in chosen):
        raise ValueError(f"players must be distinct colours of {', '.join(COLOURS)}")
    if len(chosen) > 2:
        return [(c, (c,)) for c in chosen]
    spare = [c for c in COLOURS if c not in chosen]
    return [(chosen[0], (chosen[0], spare[0])), (chosen[1], (chosen[1], spare[1]))]


# --------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------

_DOWN, _GONE = 0, 1



class GoldState(Engine):
    """A game of Gold in progress, seen by someone who remembers every card turned.

    Build it with :meth:`new`; play with :meth:`play_turn`.
    """

    __slots__ = (
        "players", "owners", "colours", "positions", "cards", "_index", "_status", "_faces",
        "_unseen", "_deck_counts", "_left", "_down", "_turn", "_current",
        "_rush_turn", "_scores", "_gold", "_taken", "_known", "_down_list", "_canon",
        "_blocked_at", "_blocked",
    )

    players: tuple[str, ...]
    owners: dict[str, str]
    colours: dict[str, tuple[str, ...]]
    positions: tuple[str, ...]
    cards: CardSet
    _index: dict[str, int]
    _status: list[int]
    _faces: dict[str, Card]
    # kept up to date turn by turn, not recomputed: a playout asks for them every turn (round eight)
    _unseen: dict[Card, int]  # faces not yet seen anywhere -> copies, in card-list order, none at 0
    _known: dict[str, Card]  # face-down place -> the face seen there, in the order first seen
    _down_list: list[str] | None  # the face-down places, in layout order (None: a card has left since)
    _canon: dict[Card, Card]  # a face -> the card list's own object of it: dict look-ups hit by identity
    _blocked_at: int  # the count of face-down cards when ``_blocked`` was worked out (-1: never)
    _blocked: bool
    _deck_counts: dict[Card, int]
    _left: dict[Card, int]  # the face-down cards: face -> copies, in card-list order, none at 0
    _down: int
    _turn: int
    _current: int
    _rush_turn: int | None
    _scores: dict[str, int]
    _gold: dict[str, int]
    _taken: dict[str, list[Card]]

    @classmethod
    def new(cls, seats: Sequence[tuple[str, tuple[str, ...]]], first: str | None = None,
            positions: Sequence[str] | None = None, deck: CardSet | None = None) -> GoldState:
        """Start a game.

        ``seats`` are (player key, owned colours) in clockwise order; the key is
        the player's first colour.  "If there are only two players, each of them
        should pick two colors. The remaining mine mouth goes back into the box."
        -- its miners stay in the layout and belong to nobody.  With 3-5 players
        each owns one colour.  ``first`` starts (default: the first seat).
        ``positions`` names the layout places (default the 8x8 grid a1..h8; any
        list of distinct names, as many as the deck's cards, for a free layout).
        ``deck`` is a :class:`CardSet` (default :func:`load_cards`).
        Raises :class:`SetupError` (an :class:`IllegalAction` and a ``ValueError``).
        """
        deck = deck if deck is not None else _default_cards()
        seats = [(key, tuple(cols)) for key, cols in seats]
        if not 2 <= len(seats) <= 5:
            raise SetupError(f"Gold is played by 2 to 5 players, not {len(seats)}",
                             rule="Every player chooses a color and places the corresponding entrance in front of "
                                  "them on the table. (five colours: 2 to 5 players)")
        want = 2 if len(seats) == 2 else 1
        owners: dict[str, str] = {}
        for key, cols in seats:
            if len(cols) != want:
                raise SetupError(f"with {len(seats)} players each player owns {want} colour(s); "
                                 f"{key} owns {len(cols)}",
                                 rule="If there are only two players, each of them should pick two colors.")
            if key != cols[0]:
                raise SetupError(f"player key {key!r} must be the player's first colour {cols[0]!r}")
            for col in cols:
                if col not in deck.entrances:
                    raise SetupError(f"{col} is not a colour of the card set ({', '.join(deck.entrances)})")
                if col in owners:
                    raise SetupError(f"colour {col} is owned twice")
                owners[col] = key
        keys = tuple(key for key, _ in seats)
        if first is not None and first not in keys:
            raise SetupError(f"first player {first!r} is not seated ({', '.join(keys)})")
        names = tuple(positions) if positions is not None else GRID_8X8
        if len(set(names)) != len(names):
            raise SetupError("layout positions must be distinct")
        if len(names) != deck.total:
            raise SetupError(f"the layout has {len(names)} places for {deck.total} cards",
                             rule="place them face down on the table in any order. Every card must "
                                  "be visible and may not be covered by another card.")
        self = GoldState.__new__(GoldState)
        self.players = keys
        self.owners = owners
        self.colours = dict(seats)
        self.positions = names
        self.cards = deck
        self._index = {p: i for i, p in enumerate(names)}
        self._status = [_DOWN] * len(names)
        self._faces = {}
        self._deck_counts = deck.counts()
        self._unseen = {c: n for c, n in self._deck_counts.items() if n > 0}
        self._left = {c: n for c, n in self._deck_counts.items() if n > 0}
        self._down = len(names)
        self._known = {}
        self._down_list = list(names)
        self._canon = {c: c for c in self._deck_counts}
        self._blocked_at = -1
        self._blocked = False
        self._turn = 0
        self._current = keys.index(first) if first is not None else 0
        self._rush_turn = None
        self._scores = {k: 0 for k in keys}
        self._gold = {k: 0 for k in keys}
        self._taken = {k: [] for k in keys}
        return self

    # -- queries ----------------------------------------------------------

    @property
    def current_player(self) -> str:
        """The player whose turn it is."""
        return self.players[self._current]

    @property
    def turn(self) -> int:
        """Number of turns played so far (the next turn is ``turn + 1``)."""
        return self._turn

    @property
    def phase(self) -> Phase:
        """``"rush"`` when the next turn is a Gold Rush turn (one card), else ``"normal"``.

        "If there are 10 or fewer cards still face down when it is the beginning
        of your turn ... each player only picks one card when it is their turn."
        The count of face-down cards never grows, so once in the rush it stays.
        """
        return "rush" if self._rush_turn is not None or self._down <= RUSH_THRESHOLD else "normal"

    @property
    def rush_turn(self) -> int | None:
        """The (1-based) turn at which the Gold Rush began, ``None`` before."""
        return self._rush_turn

    @property
    def flips_due(self) -> int:
        """Cards the next turn must turn over: 2, or 1 in the Gold Rush."""
        return 1 if self.phase == "rush" else 2

    @property
    def is_over(self) -> bool:
        """"The game ends when the last card has been removed from the table.\""""
        return self._down == 0

    @property
    def is_blocked(self) -> bool:
        """True when the game can never end (ruling; the rules are silent).

        More than 10 cards are face down and no two of them can change the
        table: no dynamite, no two miners of different values, no miner as strong
        as a gold.  Known exactly although faces are hidden: the face-down cards
        are the card list minus the cards that left.
        """
        if self._down <= RUSH_THRESHOLD:
            return False
        # asked before every playout turn: worked out again only when a card has left since
        if self._blocked_at != self._down:
            self._blocked = self._work_out_blocked()
            self._blocked_at = self._down
        return self._blocked

    def _work_out_blocked(self) -> bool:
        # stops at the first dynamite or the second miner value (the table can change): a few faces, not all
        miner_value: int | None = None
        min_gold: int | None = None
        for card in self._left:
            if card.kind == "dynamite":
                return False
            if card.kind == "miner":
                if miner_value is None:
                    miner_value = card.value
                elif card.value != miner_value:
                    return False
            elif min_gold is None or card.value < min_gold:
                min_gold = card.value
        return not (miner_value is not None and min_gold is not None and miner_value >= min_gold)

    def blocked_note(self) -> str | None:
        """The report's note for a record that stops on a blocked table."""
        if not self.is_blocked:
            return None
        return ("the table can no longer change: no pair of face-down cards can leave, so the "
                "game cannot end (see docs/rulings.md)")

    @property
    def scores(self) -> dict[str, int]:
        """Player -> sum of the values of their gold cards."""
        return dict(self._scores)

    @property
    def gold_cards(self) -> dict[str, int]:
        """Player -> number of gold cards under their mine entrance."""
        return dict(self._gold)

    def gold_of(self, player: str) -> list[Card]:
        """The gold cards ``player`` has taken, in the order taken."""
        return list(self._taken[player])

    def owner(self, colour: str | None) -> str | None:
        """The player who owns miners of ``colour`` (``None``: nobody)."""
        return self.owners.get(colour) if colour is not None else None

    def winners(self) -> list[str]:
        """"The richest player wins! In the event of a tie, the player who has
        collected more gold cards wins. If there's still a tie, then there are
        several winners."  (Of the scores as they stand; final when :attr:`is_over`.)
        """
        best = max((self._scores[p], self._gold[p]) for p in self.players)
        return [p for p in self.players if (self._scores[p], self._gold[p]) == best]

    def face_down(self) -> list[str]:
        """Positions of the cards still face down on the table, in layout order."""
        down = self._down_list
        if down is None:  # listed again once a card has left (validating never asks: it pays nothing)
            st = self._status
            down = self._down_list = [p for i, p in enumerate(self.positions) if st[i] == _DOWN]
        return list(down)

    def legal_flips(self) -> list[str]:
        """The positions one may turn over this turn (every face-down card)."""
        return [] if self.is_over else self.face_down()

    def removed(self) -> list[str]:
        """Positions whose card has left the table, in layout order."""
        st = self._status
        return [p for i, p in enumerate(self.positions) if st[i] == _GONE]

    def known_faces(self) -> dict[str, Card]:
        """Face-down position -> the face seen there last (what a player remembers)."""
        return dict(self._known)

    def seen_faces(self) -> dict[str, Card]:
        """Every position whose card has been seen -> its face (removed cards too)."""
        return dict(self._faces)

    def face_down_cards(self) -> dict[Card, int]:
        """The multiset of face-down cards (card list minus the cards that left)."""
        return dict(self._left)

    def unseen_cards(self) -> dict[Card, int]:
        """The multiset of faces not yet seen anywhere: what a face-down card never turned may show."""
        return dict(self._unseen)

    def projected_scores(self) -> dict[str, int]:
        """The scores as they stand: Gold has no final scoring (a playout asks this of every world it ends)."""
        return dict(self._scores)

    def copy(self) -> GoldState:
        """An independent copy (for search and what-ifs)."""
        other = GoldState.__new__(GoldState)
        other.players = self.players
        other.owners = self.owners
        other.colours = self.colours
        other.positions = self.positions
        other.cards = self.cards
        other._index = self._index
        other._deck_counts = self._deck_counts
        other._status = list(self._status)
        other._faces = dict(self._faces)
        other._unseen = dict(self._unseen)
        other._left = dict(self._left)
        other._down = self._down
        other._known = dict(self._known)
        other._down_list = self._down_list  # never changed in place: shared until a card leaves
        other._canon = self._canon
        other._blocked_at = self._blocked_at
        other._blocked = self._blocked
        other._turn = self._turn
        other._current = self._current
        other._rush_turn = self._rush_turn
        other._scores = dict(self._scores)
        other._gold = dict(self._gold)
        other._taken = {k: list(v) for k, v in self._taken.items()}
        return other

    def __repr__(self) -> str:
        return (f"<GoldState turn {self._turn} {self.phase} next={self.current_player} "
                f"down={self._down} scores={self._scores}>")

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, so that a Jupyter notebook shows the board (as python-chess's Board does)."""
        # imported here: drawing (svgwrite, the renderer) loads only when a notebook asks
        from grn.rules.position import state_svg

        return state_svg(self, "gold")

    # -- playing ----------------------------------------------------------

    def check_turn(self, player: str, flips: Sequence[FlipCard]) -> None:
        """Raise :class:`IllegalAction` if ``player`` may not turn ``flips`` now.

        Kept whole: the rules' cases in the order the rulebook gives them, each with the rule
        it cites, read top to bottom."""
        turn_no = self._turn + 1
        if self._down == 0:
            raise IllegalAction(
                "the game is over: no card is left on the table",
                rule="The game ends when the last card has been removed from the table.",
                section=SECTION["end"], span=flips[0].span if flips else None)
        if player not in self.players:
            raise not_playing(player, self.players, section=SECTION["setup"], span=flips[0].span if flips else None,
                              rule="Every player chooses a color and places the corresponding entrance in front "
                                   "of them.")
        if player != self.current_player:
            raise IllegalAction(
                f"it is {self.current_player}'s turn, not {player}'s",
                rule="The youngest player starts. The game then continues clockwise.",
                section=SECTION["turn"], hint=f"{self.current_player} plays turn {turn_no}",
                span=flips[0].span if flips else None)
        index, status = self._index, self._status
        turned: set[str] = set()
        for flip in flips:
            i = index.get(flip.pos)
            if i is None:
                raise IllegalAction(
                    f"{flip.pos} is not a place of the layout",
                    rule="Every card must be visible and may not be covered by another card.",
                    section=SECTION["setup"],
                    hint=f"places are {self.positions[0]}..{self.positions[-1]}", span=flip.span)
            if status[i] == _GONE:
                raise IllegalAction(
                    f"the card at {flip.pos} has already left the game",
                    rule="flip two cards of your choice over (cards still on the table)",
                    section=SECTION["turn"], hint="turn a face-down card", span=flip.span)
            if flip.pos in turned:
                raise IllegalAction(
                    f"{flip.pos} is turned twice in one turn",
                    rule="When it's your turn, flip two cards of your choice over.",
                    section=SECTION["turn"], hint="turn two different face-down cards",
                    span=flip.span)
            turned.add(flip.pos)
        rush = self._rush_turn is not None or self._down <= RUSH_THRESHOLD
        due = 1 if rush else 2
        if len(flips) != due:
            extra = flips[due] if len(flips) > due else None
            span = extra.span if extra is not None else (flips[-1].span if flips else None)
            if rush:
                when = ("Gold Rush! began at this turn" if self._rush_turn is None
                        else f"Gold Rush! began at turn {self._rush_turn}")
                raise IllegalAction(
                    f"{when}: turn one card ({len(flips)} turned)",
                    rule="If there are 10 or fewer cards still face down when it is the beginning "
                         "of your turn ... each player only picks one card when it is their turn.",
                    section=SECTION["rush"],
                    hint=f"{self._down} cards are face down; turn exactly one", span=span)
            raise IllegalAction(
                f"turn two cards ({len(flips)} turned); the Gold Rush has not begun",
                rule="When it's your turn, flip two cards of your choice over.",
                section=SECTION["turn"],
                hint=f"{self._down} cards are face down; the Gold Rush begins at 10 or fewer",
                span=span)
        faces = self._faces
        new: dict[Card, int] = {}
        for flip in flips:
            seen = faces.get(flip.pos)
            if seen is not None:
                if seen != flip.face:
                    raise IllegalAction(
                        f"{flip.pos} shows {card_text(flip.face)} but was seen as {card_text(seen)}",
                        rule="Flip the stronger gold miner back and leave the card in the same place. "
                             "Be sure to remember where the gold miner is.",
                        section=SECTION["turn"], hint=f"{flip.pos} is {card_text(seen)}",
                        span=flip.span)
                continue
            new[flip.face] = new.get(flip.face, 0) + 1
        for flip in flips:
            if flip.pos in faces:
                continue
            face = flip.face
            have = self._deck_counts.get(face, 0)
            if have == 0:
                raise IllegalAction(
                    f"there is no card {card_text(face)} in the game",
                    rule="the card list: 24 gold (1-4), 35 miners (2-5 in five colours), 5 dynamite",
                    section=SECTION["cards"], span=flip.span)
            seen_before = have - self._unseen.get(face, 0)
            if seen_before + new[face] > have:
                raise IllegalAction(
                    f"{card_text(face)} at {flip.pos} would be card {seen_before + new[face]} "
                    f"of that kind; the game has {have}",
                    rule="the card list: every card is dealt once to its own place",
                    section=SECTION["cards"],
                    hint=f"{card_text(face)} already seen at "
                         + ", ".join(p for p, c in faces.items() if c == face),
                    span=flip.span)

    def play_turn(self, player: str, flips: Sequence[FlipCard]) -> list[GoldEvent]:
        """Play ``player``'s turn: turn ``flips`` over and apply the rules.

        Raises :class:`IllegalAction` (rule, section, hint, span of the offending
        flip) and leaves the state unchanged when the turn is not legal.
        Returns the events of the turn.
        """
        self.check_turn(player, flips)
        events: list[GoldEvent] = []
        fa = flips[0]
        fb = flips[1] if len(flips) > 1 else None
        self._apply(player, fa.pos, fa.face, fb.pos if fb is not None else None, fb.face if fb is not None else None,
                    events)
        if self._down == 0:
            w = self.winners()
            events.append(GameEnds(tuple(self._scores.items()), tuple(w)))
        return events

    def play_unchecked(self, player: str, first: str, second: str | None, truth: Mapping[str, Card]) -> None:
        """Play a turn known to be legal, ``first`` and (out of the rush) ``second`` turned over with their faces
        in the deal ``truth``: the state after it is the one :meth:`play_turn` leaves, without checking the turn
        or reporting its events (a playout's turns, chosen among the face-down places of a deal that agrees with
        the card list and with every face seen, are legal by construction)."""
        self._apply(player, first, truth[first], second, truth[second] if second is not None else None, None)

    def _apply(self, player: str, pa: str, a: Card, pb: str | None, b: Card | None,
               events: list[GoldEvent] | None) -> None:
        """The rules' outcome of a legal turn (the events reported to ``events`` unless ``None``)."""
        self._turn += 1
        if self._rush_turn is None and self._down <= RUSH_THRESHOLD:
            self._rush_turn = self._turn
            if events is not None:
                events.append(RushBegins(player, self._down))
        faces = self._faces
        if pa not in faces:
            self._learn(pa, a)
        if pb is not None and pb not in faces:
            assert b is not None
            self._learn(pb, b)
        if self._rush_turn is not None:
            if a.kind == "gold":
                self._give(player, a)
                if events is not None:
                    events.append(GoldTaken(player, a, pa, None))
                self._remove(pa)
            else:
                self._remove(pa)
                if events is not None:
                    events.append(CardRemoved(pa, a, "Gold Rush"))
        else:
            assert pb is not None and b is not None
            self._resolve(player, pa, a, pb, b, events)
        self._current = (self._current + 1) % len(self.players)

    def _learn(self, pos: str, card: Card) -> None:
        """The face at ``pos`` is seen for the first time: remembered, and one fewer of it unseen."""
        face = self._canon.get(card, card)
        self._faces[pos] = face
        self._known[pos] = face
        unseen = self._unseen
        left = unseen[face] - 1
        if left:
            unseen[face] = left
        else:
            del unseen[face]

    def _give(self, player: str, gold: Card) -> None:
        self._scores[player] += gold.value
        self._gold[player] += 1
        self._taken[player].append(gold)

    def _remove(self, pos: str) -> None:
        self._status[self._index[pos]] = _GONE
        self._down -= 1
        self._known.pop(pos, None)
        self._down_list = None
        left = self._left
        card = self._faces[pos]  # the card list's own object: the look-ups below hit by identity
        n = left[card] - 1
        if n:
            left[card] = n
        else:
            del left[card]

    def _resolve(self, player: str, pa: str, a: Card, pb: str, b: Card, events: list[GoldEvent] | None) -> None:
        if a.kind == "dynamite" or b.kind == "dynamite":
            # "If you uncover at least one dynamite card, both cards are removed from the game."
            self._remove(pa)
            self._remove(pb)
            if events is not None:
                events.append(CardRemoved(pa, a, "dynamite"))
                events.append(CardRemoved(pb, b, "dynamite"))
            return
        if a.kind == "miner" and b.kind == "miner":
            if a.value == b.value:
                if events is not None:
                    events.append(CardsReturned((pa, pb), (a, b), "two miners of the same value"))
                return
            strong, strong_face, weak, weak_face = (pa, a, pb, b) if a.value > b.value else (pb, b, pa, a)
            # "the 'stronger' gold miner (higher number) defeats the 'weaker' gold miner
            # (lower number), who is then out of the game. Flip the stronger gold miner back"
            self._remove(weak)
            if events is not None:
                events.append(CardRemoved(weak, weak_face, f"defeated by {card_words(strong_face)} at {strong}"))
                events.append(CardsReturned((strong,), (strong_face,), "won the duel"))
            return
        if a.kind == "gold" and b.kind == "gold":
            if events is not None:
                events.append(CardsReturned((pa, pb), (a, b), "two gold cards"))
            return
        miner, miner_face, gold, gold_face = (pa, a, pb, b) if a.kind == "miner" else (pb, b, pa, a)
        if miner_face.value >= gold_face.value:
            # "The gold miner's owner receives the gold ... If the gold miner does not
            # belong to any of the other players, you win the gold."
            owner = self.owners.get(miner_face.colour)  # type: ignore[arg-type]
            receiver = owner if owner is not None else player
            self._give(receiver, gold_face)
            self._remove(gold)
            self._remove(miner)
            if events is not None:
                events.append(GoldTaken(receiver, gold_face, gold, miner))
                events.append(CardRemoved(miner, miner_face, "carried the gold out"))
            return
        if events is not None:
            events.append(CardsReturned((pa, pb), (a, b), "the miner is weaker than the gold"))


# --------------------------------------------------------------------------
# Several games
# --------------------------------------------------------------------------

def _seat_keys(seats: Sequence[str] | Sequence[tuple[str, tuple[str, ...]]]) -> list[str]:
    return [s if isinstance(s, str) else s[0] for s in seats]


def expected_first_player(seats: Sequence[str] | Sequence[tuple[str, tuple[str, ...]]],
                          game_index: int) -> str:
    """Who starts game ``game_index`` (0-based) of a match.

    "Play as many times as there are players, with a different player starting
    each time."  Ruling: game 0 starts with the first seat, and the start moves
    one seat clockwise each game.  ``seats`` are player keys or (key, colours).
    """
    keys = _seat_keys(seats)
    return keys[game_index % len(keys)]


def match_result(games: Sequence[Mapping[str, int]],
                 last_game_points: Mapping[str, int] | None = None,
                 *, strict: bool = True) -> list[str]:
    """The winners of a match from each game's points (player -> points).

    "The player with the most points at the end wins. In the event of a tie, the
    tied player with more points in the last game wins."  Ruling: if the last game
    is tied too, all of those players win.  ``last_game_points`` defaults to
    ``games[-1]``.  With ``strict`` the match must have as many games as players
    ("Play as many times as there are players"), else :class:`ValueError`.
    """
    if not games:
        raise ValueError("a match needs at least one game")
    players = list(games[0])
    if strict and len(games) != len(players):
        raise ValueError(f"a match of {len(players)} players has {len(players)} games, not {len(games)}")
    last = last_game_points if last_game_points is not None else games[-1]
    totals = {p: sum(g.get(p, 0) for g in games) for p in players}
    best = max(totals.values())
    tied = [p for p in players if totals[p] == best]
    if len(tied) == 1:
        return tied
    top = max(last.get(p, 0) for p in tied)
    return [p for p in tied if last.get(p, 0) == top]
