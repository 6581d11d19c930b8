"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012): a solver and a puzzle each hold one.

Each attempt at a puzzle is one game between the solver and the puzzle (solved: the solver wins), rated as a
rating period of one game for each, as lichess rates its puzzles.  :func:`rate` is the paper's steps 2 to 8 for
one player and any number of games; the paper's own example is ``tests/test_glicko.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

#: The paper's scale factor between the Glicko and the Glicko-2 scales.
SCALE = 173.7178
#: The system constant: how much the volatility may change (the paper suggests 0.3 to 1.2).
TAU = 0.5
#: Convergence tolerance of the volatility's iteration (the paper's epsilon).
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` ± ``deviation`` (RD), and the ``volatility``."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent`` (a solver solves a puzzle) by their ratings."""
    return _e((player.rating - 1500.0) / SCALE, (opponent.rating - 1500.0) / SCALE, opponent.deviation / SCALE)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period of ``games`` (opponent, score: 1 won, 0.5 drawn, 0 lost); no
    game: only the deviation grows (step 6 alone)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inv = 0.0
    total = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.deviation / SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    # step 5: the new volatility by the Illinois algorithm
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(SCALE * mu_new + 1500.0, SCALE * phi_new, sigma_new)


def attempt(solver: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The solver's and the puzzle's ratings after one attempt (a game each: solved, the solver wins)."""
    score = 1.0 if solved else 0.0
    return rate(solver, [(puzzle, score)]), rate(puzzle, [(solver, 1.0 - score)])


__all__ = ["Rating", "rate", "attempt", "expected", "TAU"]
