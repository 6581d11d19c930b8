"""The playout player of Gold's search (R175) and self-play's player, compiled with mypyc: their turns are most of
an analysis's time.

:func:`smart_move` carries out the best remembered gold with a miner of the player's own (or nobody's), else
turns an unseen card and pairs it with what is worth most (:func:`second`, reading only that card's face).
:mod:`grn.games.gold.bot` serves these under its own names, with the table of what two faces are worth
(``bot._worth_table``, which reads ``bot.MINER_WORTH``): this module holds no setting of its own.
"""

from __future__ import annotations

import random
from typing import Any

from grn.games.gold.commands import Card, FlipCard
from grn.games.gold.rules import RUSH_THRESHOLD, GoldState

#: A face -> (a face -> what turning the two together is worth to the player at once).
WorthTable = dict[Card, dict[Card, float]]

__all__ = ["carry", "second", "smart_move", "flips", "play_out", "choose", "best_partner", "helps", "first_in", "pick",
           "ordered_move", "shuffle", "deal", "WorthTable"]


def second(state: GoldState, first: str, face: Card, known: dict[str, Card], unknown: list[str],
           rng: random.Random | None, row: dict[Card, float], order: dict[str, int] | None = None) -> str:
    """The place to turn beside ``first``, which showed ``face``: the remembered card, or an unseen one, whose
    pairing with ``face`` is worth most by ``row`` (``face``'s row of the worth table); ties go to an unseen card
    (the first one left, or one at random with ``rng``, or the first in ``order`` when given: a world's order of
    the places, R227).  ``unknown``: the places never seen, ``first`` among them unless it was remembered."""
    others = [p for p in unknown if p != first]
    best = -1e9
    chosen: str | None = None
    if others:
        # the faces of the places never seen, ``first``'s among them (read, not copied: the state's own counts)
        total = 0.0
        drop = first not in known
        for c, k in state._unseen.items():
            if drop and c == face:
                k -= 1
            total += k * row[c]
        best = total / len(others)
        if order is not None:
            chosen = first_in(others, order)
        else:
            chosen = rng.choice(others) if rng is not None else others[0]
    for p, c in known.items():
        if p != first:
            w = row[c]
            if w > best:
                best, chosen = w, p
    if chosen is None:  # nothing else face down but ``first``: cannot happen on a turn of two cards
        chosen = next(p for p in state.face_down() if p != first)
    return chosen


def first_in(places: list[str], order: dict[str, int]) -> str:
    """The first of ``places`` (not empty) in ``order`` (a world's order of the places, R227): what
    :meth:`grn.games.gold.bot.PlaceOrder.choice` gives, without a call back into the interpreter."""
    chosen = places[0]
    least = order[chosen]
    for p in places:
        i = order[p]
        if i < least:
            least, chosen = i, p
    return chosen


def carry(state: GoldState, known: dict[str, Card]) -> list[str] | None:
    """The remembered miner of the player's own (or nobody's) and the best remembered gold it carries out."""
    player = state.current_player
    owners = state.owners
    golds = [p for p, c in known.items() if c.kind == "gold"]
    best = 0
    pair: list[str] | None = None
    if golds:
        for m, c in known.items():
            if c.kind == "miner":
                owner = owners.get(c.colour) if c.colour is not None else None
                if owner is None or owner == player:
                    for g in golds:
                        v = known[g].value
                        if c.value >= v > best:
                            best, pair = v, [m, g]
    return pair


def smart_move(state: GoldState, truth: dict[str, Card], rng: random.Random, table: WorthTable,
               order: dict[str, int] | None = None) -> list[str]:
    """Self-play's player, with :func:`second` choosing the card after an unseen first one (``table``: the worth
    table of the player to move; ``order``: a world's order of the places, whose first unseen place is turned
    instead of one drawn with ``rng``, R227)."""
    if state.flips_due == 1:
        return choose(state, truth, rng, order)
    known = state._known  # read, not copied: nothing here changes it
    pair = carry(state, known)
    if pair is not None:
        return pair
    unknown = [p for p in state.face_down() if p not in known]
    if not unknown:
        return choose(state, truth, rng, order)
    first = pick(unknown, rng, order)
    face = truth[first]
    return [first, second(state, first, face, known, unknown, rng, table[face], order)]


def pick(places: list[str], rng: random.Random, order: dict[str, int] | None) -> str:
    """One of ``places`` (not empty): the first in ``order`` when given, else one drawn with ``rng``."""
    return first_in(places, order) if order is not None else rng.choice(places)


def flips(truth: dict[str, Card], places: tuple[str, ...]) -> tuple[FlipCard, ...]:
    """The cards ``places`` turn over in the deal ``truth``."""
    return tuple([FlipCard(p, truth[p]) for p in places])


def ordered_move(state: GoldState, truth: dict[str, Card], rng: random.Random, table: WorthTable,
                 places: list[str], rank: dict[str, int]) -> list[str]:
    """:func:`smart_move`'s turn when a world's order of the places picks the unseen cards (R227: ``places`` in
    that order, ``rank`` each place's index in it): the first unseen place in that order, and beside it the
    next one or a remembered card.  The same turn as ``smart_move(..., order=rank)``, found by walking the
    order from its start instead of listing the face-down places (a playout's turns are most of an analysis)."""
    known = state._known
    if state._rush_turn is not None or state._down <= RUSH_THRESHOLD:
        # the rush (:func:`choose`): the best remembered gold, else the first unseen place, else the first left
        best = -1
        chosen: str | None = None
        for p, c in known.items():
            if c.kind == "gold" and c.value > best:
                best, chosen = c.value, p
        if chosen is not None:
            return [chosen]
        i = _next(state, places, 0, True)
        return [places[i if i >= 0 else _next(state, places, 0, False)]]
    pair = carry(state, known)
    if pair is not None:
        return pair
    n = state._down - len(known)  # the places never seen: every one of them is face down
    if n == 0:
        return choose(state, truth, rng, rank)
    i = _next(state, places, 0, True)
    first = places[i]
    face = state._canon.get(truth[first], truth[first])  # the card list's own object, as the counts' keys are
    row = table[face]
    best_worth = -1e9
    second_place: str | None = None
    if n > 1:  # :func:`second`, its unseen places the ``n - 1`` never seen but ``first``
        total = 0.0
        for c, k in state._unseen.items():
            if c is face:
                k -= 1
            total += k * row[c]
        best_worth = total / (n - 1)
        second_place = places[_next(state, places, i + 1, True)]
    for p, c in known.items():
        w = row[c]
        if w > best_worth:
            best_worth, second_place = w, p
    if second_place is None:  # nothing else face down but ``first``: cannot happen on a turn of two cards
        second_place = next(p for p in state.face_down() if p != first)
    return [first, second_place]


def _next(state: GoldState, places: list[str], start: int, unseen: bool) -> int:
    """The index in ``places`` of the first place from ``start`` on never seen (``unseen``) or face down; -1:
    none."""
    faces = state._faces
    status = state._status
    index = state._index
    for i in range(start, len(places)):
        p = places[i]
        if unseen:
            if p not in faces:
                return i
        elif status[index[p]] == 0:
            return i
    return -1


def play_out(state: GoldState, truth: dict[str, Card], rng: random.Random, tables: dict[str, WorthTable],
             horizon: int, order: "tuple[list[str], dict[str, int]] | None" = None) -> None:
    """Play up to ``horizon`` turns of :func:`smart_move` for every player on ``state`` (fewer when the game ends
    or the table is blocked), the faces read from ``truth``; ``tables``: each player's worth table; ``order``: a
    world's order of the places, as a list and each place's index in it (R227: :func:`ordered_move`), else
    ``rng`` draws them.  The turns are legal by construction: played without the engine's checks or events."""
    for _ in range(horizon):
        if state.is_over or state.is_blocked:
            return
        player = state.current_player
        if order is None:
            turned = smart_move(state, truth, rng, tables[player])
        else:
            turned = ordered_move(state, truth, rng, tables[player], order[0], order[1])
        state.play_unchecked(player, turned[0], turned[1] if len(turned) > 1 else None, truth)


# -- self-play's player (grn/games/gold/selfplay.py), which the playout player follows in the Gold Rush ----

def helps(state: GoldState, player: str, a: Card, b: Card) -> int:
    """How much turning ``a`` with ``b`` is worth to ``player`` (0: nothing useful)."""
    if a.kind == "gold" and b.kind == "miner":
        a, b = b, a
    if a.kind == "miner" and b.kind == "gold":
        if a.value < b.value:
            return 0
        owner = state.owners.get(a.colour)  # type: ignore[arg-type]
        return 10 + b.value if owner in (None, player) else 0
    if "dynamite" in (a.kind, b.kind):
        other = b if a.kind == "dynamite" else a
        if other.kind == "miner" and state.owners.get(other.colour) not in (None, player):  # type: ignore[arg-type]
            return 2
        return 1 if other.kind == "dynamite" else 0
    return 0


def best_partner(state: GoldState, player: str, first: str, face: Card, known: dict[str, Card]) -> str | None:
    """The remembered place other than ``first`` whose card, turned beside ``face``, helps ``player`` most; ``None``
    when none helps (a player who turned ``first`` and saw ``face`` looks for its partner)."""
    best = 0
    second: str | None = None
    for p, c in known.items():
        if p != first:
            v = helps(state, player, face, c)
            if v > best:
                best, second = v, p
    return second


def best_known_gold(known: dict[str, Card]) -> str | None:
    """The place of the remembered gold worth most (the first of equal ones), or None: the rush's carry."""
    best: str | None = None
    value = 0
    for p, c in known.items():
        if c.kind == "gold" and (best is None or c.value > value):
            best, value = p, c.value
    return best


def choose(state: GoldState, truth: dict[str, Card], rng: random.Random,
           order: dict[str, int] | None = None) -> list[str]:
    """Self-play's player: carry a remembered gold out with a miner of one's own (or nobody's), in the Gold Rush
    the best remembered gold; else turn an unseen card (at random, or the first in ``order``) and look for a
    remembered partner that helps."""
    player = state.current_player
    down = state.face_down()
    known = state.known_faces()
    unknown = [p for p in down if p not in known]
    if state.flips_due == 1:
        gold = best_known_gold(known)
        if gold is not None:
            return [gold]
        return [pick(unknown or down, rng, order)]
    # A known pair that brings gold home.
    best = 0
    pair: list[str] | None = None
    mine = [p for p, c in known.items() if c.kind == "miner" and state.owners.get(c.colour) in (None, player)]  # type: ignore[arg-type]
    golds = [p for p, c in known.items() if c.kind == "gold"]
    for m in mine:
        for g in golds:
            v = helps(state, player, known[m], known[g])
            if v > best:
                best, pair = v, [m, g]
    if pair is not None:
        return pair
    first = pick(unknown or down, rng, order)
    second = best_partner(state, player, first, truth[first], known)
    if second is None:
        rest = [p for p in unknown if p != first] or [p for p in down if p != first]
        second = pick(rest, rng, order)
    return [first, second]


# -- a world's deal (grn/games/gold/bot.py's GoldWorld.sample): one per round of the search --------------------

def shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``, the same draws from the same generator (CPython's algorithm, random.py: from the last
    place down, swap it with a place drawn below it by ``getrandbits``, a draw past it drawn again), without an
    interpreted call a draw.  A generator of another class, which may draw otherwise, shuffles by its own method."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r: int = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        items[i], items[r] = items[r], items[i]


def deal(state: GoldState, rng: random.Random, faces_by_text: list[Card],
         ordered: bool) -> tuple[dict[str, Card], list[str] | None, dict[str, int] | None]:
    """A deal of the faces nobody has seen among the places nobody has seen: the faces left (``faces_by_text``:
    the card list's faces in the order they are dealt before the shuffle) shuffled onto those places in layout
    order; with ``ordered``, then the face-down places shuffled into the world's order of picks (R227), with each
    place's index in it.  Returns (every face-down place -> its face, the order, the indices)."""
    known = state._known
    unseen = [p for p in state.face_down() if p not in known]
    pool = dict(state._left)
    for card in known.values():
        pool[card] -= 1
    faces = [c for c in faces_by_text for _ in range(pool.get(c, 0))]
    shuffle(faces, rng)
    truth = dict(known)
    for p, c in zip(unseen, faces):
        truth[p] = c
    if not ordered:
        return truth, None, None
    places = state.face_down()
    shuffle(places, rng)  # drawn after the deal, so the deal is the one drawn before R227
    return truth, places, {p: i for i, p in enumerate(places)}
