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
# the players' choices are compiled with the playout player of the search (grn/games/gold/playout.py)
from grn.games.gold.playout import best_partner, choose as _choose
from grn.games.gold.rules import CardSet, GoldState, GRID_8X8, expected_first_player, load_cards, seats_for
from grn.rules.selfplay import PlayedTurn, SelfPlayGame

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
