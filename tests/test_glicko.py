"""Glicko-2: the published example of Glickman's paper, and what an attempt at a puzzle does to both ratings."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from grn.core.glicko import SCALE, Rating, attempt, expected, rate


def test_glickmans_example() -> None:
    """"Example of the Glicko-2 system" (2012): 1500/200/0.06 against 1400/30 (won), 1550/100 (lost),
    1700/300 (lost), tau 0.5 -> 1464.06, 151.52, 0.05999."""
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                          (Rating(1700, 300), 0.0)], tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_game_only_widens() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.deviation > 200


@settings(max_examples=50, deadline=None)
@given(st.floats(800, 2500), st.floats(30, 350), st.floats(800, 2500), st.floats(30, 350), st.booleans())
def test_an_attempt_moves_solver_and_puzzle_apart(sr: float, sd: float, pr: float, pd: float, solved: bool) -> None:
    """Solving raises the solver and lowers the puzzle, missing the reverse; neither becomes less sure than the
    period's volatility alone makes it (step 6)."""
    solver, puzzle = Rating(sr, sd), Rating(pr, pd)
    s2, p2 = attempt(solver, puzzle, solved)
    assert (s2.rating > sr) == solved and (p2.rating < pr) == solved
    # (a surprising result may raise the volatility a little: 0.1% room)
    assert s2.deviation <= 1.001 * math.hypot(sd, 0.06 * SCALE) and p2.deviation <= 1.001 * math.hypot(pd, 0.06 * SCALE)
    assert 0 < expected(solver, puzzle) < 1
