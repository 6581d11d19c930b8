"""Stable judgements (issue 21): the confirmation samples until a loss is clear of the thresholds (R180), the race's
leaders contend again (R181), and two analyses are compared on their mistakes or worse (R182)."""

from __future__ import annotations

import time

from grn import games
from grn.analysis import Thresholds, agreement, analyse_turn, contenders_of, settings_for
from grn.bots.arena import new_game
from grn.bots.confirm import confirm_loss, settled
from grn.bots.search import Estimate
from grn.record import Turn
from tests.toygame import RULESET as NIM, Take


def _heap(stones: int):
    header, engine = new_game(NIM, 2, 1)
    engine.heap = stones
    return engine


def test_a_loss_clear_of_every_threshold_stops_after_the_first_batch_and_one_on_a_threshold_doubles():
    games.register(NIM)
    try:
        engine = _heap(12)
        played, rivals = (Take(2),), [(Take(1),), (Take(3),)]
        far = confirm_loss(NIM, engine, (), rivals, played, seed=5, rounds=10, max_rounds=80,
                           boundaries=(100.0, 200.0), z=2.0)
        assert far.settled and far.rounds == 10
        # the same seed gives the same first batch, so a threshold right on its loss cannot be cleared by it:
        # the rounds double (20, 40, 80) until the loss is clear or the cap is reached
        near = confirm_loss(NIM, engine, (), rivals, played, seed=5, rounds=10, max_rounds=80,
                            boundaries=(far.lost,), z=2.0)
        assert near.rounds > 10 and near.rounds in (20, 40, 80)
        assert near.settled == settled(near.lost, near.se, (far.lost,), 2.0)
        assert near.rounds == 80 or near.settled
        assert near.se < far.se  # more worlds, a narrower interval
        # only the leader of the first batch went on: three moves then two a round
        assert near.playouts == 3 * 10 + 2 * (near.rounds - 10)
        assert near.best.decision in rivals and near.played.decision == played
    finally:
        games.unregister("nim")


def test_the_races_leaders_contend_again_even_when_the_race_crowned_the_move_played():
    def est(take: int, mean: float, playouts: int) -> Estimate:
        return Estimate((Take(take),), mean, 1.0, playouts)

    race = [est(1, 5.0, 40), est(2, 7.0, 40), est(3, 6.0, 40), est(4, 9.0, 8)]  # Take(4) left the race early
    assert contenders_of(race, (Take(2),)) == [(Take(3),)]  # the played move led: the runner-up challenges it
    assert contenders_of(race, (Take(1),)) == [(Take(2),), (Take(3),)]


def test_a_move_as_good_as_its_contenders_loses_nothing_and_a_clearly_worse_one_is_judged():
    games.register(NIM)
    try:
        engine = _heap(3)  # taking all three stones wins at once; taking one or two hands the win over
        s = settings_for(playouts=40, seed=1)
        thresholds = Thresholds(0.25, 0.5, 0.75)
        best = analyse_turn(NIM, engine, Turn(1, engine.current_player, (Take(3),)), engine.current_player, s,
                            thresholds)
        assert best.points_lost == 0 and best.judgement is None and best.best == best.played
        worse = analyse_turn(NIM, engine, Turn(1, engine.current_player, (Take(1),)), engine.current_player, s,
                             thresholds)
        assert worse.judgement == "blunder" and worse.best_words == NIM.decision_words(engine, (Take(3),))
    finally:
        games.unregister("nim")


def test_two_analyses_agree_on_the_moves_either_judged_a_mistake_or_worse():
    first = [(1, "mistake"), (2, "blunder"), (3, "inaccuracy"), (4, None), (5, "mistake")]
    second = [(1, "blunder"), (2, "blunder"), (3, None), (4, "inaccuracy"), (5, "inaccuracy"), (6, "mistake")]
    # turns 1 and 2 agree (a mistake and a blunder are both "mistake or worse"); 5 and 6 are judged so by one run
    # only; 3 and 4 by neither, and they do not count
    assert agreement(first, second) == (2, 4, 6)
    assert agreement([], []) == (0, 0, 0)


def test_a_time_budget_doubles_its_seconds_up_to_the_cap_and_stops():
    games.register(NIM)
    try:
        engine = _heap(12)
        played, rivals = (Take(2),), [(Take(1),), (Take(3),)]
        far = confirm_loss(NIM, engine, (), rivals, played, seed=5, rounds=10, max_rounds=40,
                           boundaries=(100.0,), z=2.0, seconds=0.02)
        assert far.settled and far.rounds >= 1
        # a threshold every hundredth of a point cannot be cleared: the seconds double up to 4 × 0.02 s, then stop
        grid = [x / 100 for x in range(-300, 301)]
        start = time.process_time()
        near = confirm_loss(NIM, engine, (), rivals, played, seed=5, rounds=10, max_rounds=40,
                            boundaries=grid, z=2.0, seconds=0.02)
        assert not near.settled and near.rounds >= 1
        assert time.process_time() - start < 5
    finally:
        games.unregister("nim")
