"""Self-played games of the card game Gold, reproducible from a seed.

The deal is a shuffle of the card list with ``random.Random(seed)``; the same
generator then makes the players' choices.  Players remember every card they
have seen (:meth:`grn.games.gold.rules.GoldState.known_faces`) and use it simply: carry a
known gold out with a miner of their own (or of nobody), after turning a first
card look for a known partner that helps them, otherwise turn an unknown card.

Ruling (see :mod:`grn.games.gold.rules`): a deal whose table becomes blocked (more than 10
face-down cards, none able to leave) can never end; ``play`` then deals again
with ``seed + 1``, ``seed + 2``, ... and records the seed it used in
``options["deal_seed"]``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from grn.games.gold.commands import Card, FlipCard
from grn.games.gold.rules import CardSet, GoldState, GRID_8X8, expected_first_player, load_cards, seats_for
from grn.selfplay import PlayedTurn, SelfPlayGame

__all__ = ["play", "play_match", "deal"]

#: No game of 64 cards comes near this; a safety net so that ``play`` always ends.
MAX_TURNS = 5000
#: Deals tried before giving up (a blocked table is rare).
MAX_DEALS = 1000


def deal(seed: int, positions: Sequence[str] = GRID_8X8, cards: CardSet | None = None) -> dict[str, Card]:
    """The deal of ``seed``: position -> face ("Shuffle the remaining cards thoroughly")."""
    deck = (cards or load_cards()).all_cards()
    random.Random(seed).shuffle(deck)
    return dict(zip(positions, deck))


def _layout(layout: str | Sequence[str]) -> tuple[str, ...]:
    if isinstance(layout, str):
        if layout == "8x8":
            return GRID_8X8
        raise ValueError(f"unknown layout {layout!r} (use '8x8' or a list of position names)")
    return tuple(layout)


def _helps(state: GoldState, player: str, a: Card, b: Card) -> int:
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
    best, second = 0, None
    for p, c in known.items():
        if p != first:
            v = _helps(state, player, face, c)
            if v > best:
                best, second = v, p
    return second


def _choose(state: GoldState, truth: dict[str, Card], rng: random.Random) -> list[str]:
    player = state.current_player
    down = state.face_down()
    known = state.known_faces()
    unknown = [p for p in down if p not in known]
    if state.flips_due == 1:
        golds = [p for p, c in known.items() if c.kind == "gold"]
        if golds:
            return [max(golds, key=lambda p: known[p].value)]
        return [rng.choice(unknown or down)]
    # A known pair that brings gold home.
    best, pair = 0, None
    mine = [p for p, c in known.items() if c.kind == "miner" and state.owners.get(c.colour) in (None, player)]  # type: ignore[arg-type]
    golds = [p for p, c in known.items() if c.kind == "gold"]
    for m in mine:
        for g in golds:
            v = _helps(state, player, known[m], known[g])
            if v > best:
                best, pair = v, [m, g]
    if pair is not None:
        return pair
    first = rng.choice(unknown or down)
    second = best_partner(state, player, first, truth[first], known)
    if second is None:
        rest = [p for p in unknown if p != first] or [p for p in down if p != first]
        second = rng.choice(rest)
    return [first, second]


def _play_deal(seats: list[tuple[str, tuple[str, ...]]], seed: int, positions: tuple[str, ...],
               first: str | None, cards: CardSet) -> tuple[GoldState, list[PlayedTurn]] | None:
    rng = random.Random(seed)
    deck = cards.all_cards()
    rng.shuffle(deck)
    truth = dict(zip(positions, deck))
    state = GoldState.new(seats, first=first, positions=positions, deck=cards)
    turns: list[PlayedTurn] = []
    while not state.is_over:
        if state.is_blocked or len(turns) >= MAX_TURNS:
            return None
        player = state.current_player
        flips = tuple(FlipCard(p, truth[p]) for p in _choose(state, truth, rng))
        state.play_turn(player, flips)
        turns.append(PlayedTurn(player, flips, state.scores))
    return state, turns


def play(players: int | Sequence[str], seed: int, layout: str | Sequence[str] = "8x8",
         first: str | None = None) -> SelfPlayGame:
    """Play one game of Gold for ``players`` (a count, or colours in seat order).

    With 2 players each owns two colours (red+yellow against green+blue by
    default; see :func:`grn.games.gold.rules.seats_for`) and black's miners belong to nobody.
    ``first`` starts (default: the first seat).  Reproducible from ``seed``.
    """
    seats = seats_for(players)
    positions = _layout(layout)
    cards = load_cards()
    for attempt in range(MAX_DEALS):
        result = _play_deal(seats, seed + attempt, positions, first, cards)
        if result is None:
            continue
        state, turns = result
        keys = tuple(k for k, _ in seats)
        options = {
            "seed": str(seed),
            "deal_seed": str(seed + attempt),
            "layout": layout if isinstance(layout, str) else "free",
            "first": first or keys[0],
            "colours": " ".join(f"{k}={'+'.join(cols)}" for k, cols in seats),
            "winners": " ".join(state.winners()),
        }
        return SelfPlayGame("gold", keys, tuple(turns), state.scores, options,
                            colours=tuple(cols for _, cols in seats))
    raise RuntimeError(f"no playable deal in {MAX_DEALS} seeds from {seed}")  # pragma: no cover


def play_match(players: int | Sequence[str], seed: int, layout: str | Sequence[str] = "8x8") -> list[SelfPlayGame]:
    """A match: "Play as many times as there are players, with a different player
    starting each time" -- the starter moves one seat clockwise each game.

    Game ``i`` is dealt from a seed drawn from ``random.Random(seed)``.
    """
    seats = seats_for(players)
    rng = random.Random(seed)
    seeds = [rng.randrange(2 ** 31) for _ in seats]
    return [play(players, s, layout, first=expected_first_player(seats, i)) for i, s in enumerate(seeds)]
