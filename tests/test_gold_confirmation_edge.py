"""Gold's judgements near the mistake threshold (issue 21, stability round eight: R255-R256).

R255: a loss still within z standard errors of the mistake threshold at the confirmation's cap goes on
doubling its rounds up to ``World.confirm_edge_scale`` times the cap (Gold: 4, which halves its error); the
default 1 leaves every other game (and the toy game) as it was.  R256: a confirmation that keeps its
contenders (R228) settles a loss only when the loss against every contender still in the race is settled on
the same side of every threshold.
"""

from __future__ import annotations

from grn import games
from grn.analysis.judge import Thresholds, analyse, analyse_turn, settings_for
from grn.bots import GreedyBot, RandomBot
from grn.bots.arena import new_game, play_game
from grn.bots.confirm import confirm_loss, settled
from grn.games.gold.bot import GoldWorld
from grn.core.record import Turn
from grn.rules.world import World
from tests.toygame import RULESET as NIM, Take

GOLD = games.find_ruleset("gold")


def _heap(stones: int):
    header, engine = new_game(NIM, 2, 1)
    engine.heap = stones
    return engine


def test_a_loss_near_the_edge_goes_on_past_the_cap_and_the_default_stops_there():
    games.register(NIM)
    try:
        engine = _heap(12)
        played, rivals = (Take(2),), [(Take(1),), (Take(3),)]
        kw = dict(seed=5, rounds=10, max_rounds=80, z=2.0)
        first = confirm_loss(NIM, engine, (), rivals, played, boundaries=(100.0,), **kw)
        # a threshold right on the first batch's loss cannot be cleared by it: the rounds double to the cap
        plain = confirm_loss(NIM, engine, (), rivals, played, boundaries=(first.lost,), **kw)
        assert plain.rounds == 80 and not plain.settled  # capped, still within 2 standard errors of it
        # the default edge (none, or an edge cap no larger than the cap) changes nothing, sample for sample
        same = confirm_loss(NIM, engine, (), rivals, played, boundaries=(first.lost,), edges=(first.lost,),
                            edge_rounds=80, **kw)
        assert same == plain
        # R255: a loss still near the edge at the cap doubles on, up to the edge's cap (4 × 80)
        edge = confirm_loss(NIM, engine, (), rivals, played, boundaries=(first.lost,), edges=(first.lost,),
                            edge_rounds=320, **kw)
        assert edge.rounds in (160, 320) and edge.se < plain.se
        assert edge.rounds == 320 or edge.settled
        assert edge.settled == settled(edge.lost, edge.se, (first.lost,), 2.0)
        # a loss near a boundary that is not an edge stops at the cap as before
        other = confirm_loss(NIM, engine, (), rivals, played, boundaries=(first.lost,), edges=(first.lost + 50,),
                             edge_rounds=320, **kw)
        assert other == plain
    finally:
        games.unregister("nim")


def test_the_edge_hooks_default_leaves_the_toy_game_as_it_was():
    assert World.confirm_edge_scale == 1 and GoldWorld.confirm_edge_scale == 4
    games.register(NIM)
    try:
        engine = _heap(9)
        s = settings_for(playouts=40, seed=1)
        t = analyse_turn(NIM, engine, Turn(1, engine.current_player, (Take(1),)), engine.current_player, s,
                         Thresholds(0.25, 0.5, 0.75))
        assert t.candidates >= 2 and t.best is not None
    finally:
        games.unregister("nim")


def _mixed_record(index: int):
    """Record ``index`` of the stability bench's Gold records (R206: a greedy bot against a random one)."""
    kinds = (GreedyBot, RandomBot) if index % 2 == 0 else (RandomBot, GreedyBot)
    return play_game(GOLD, [cls(GOLD) for cls in kinds], 100 + index, 100 + index).record()


def test_a_turn_near_the_mistake_threshold_that_two_seeds_judged_apart_is_judged_alike(monkeypatch):
    # Record 10 (deal 110), turn 29: green turns its remembered gold 4 with an unseen card instead of its two
    # miners 4 and 5 (one of them would carry the gold 4 out).  Round seven: seed 1 stopped after 320 worlds at
    # 1.80 ± 0.29, "clear" of 2.5 by two standard errors (an inaccuracy); seed 2 measured 3.21 ± 0.21 (a
    # mistake).  Both runs name the same best move.
    record = _mixed_record(10)
    # as R255 and R256 were measured: the mistake threshold 2.5 (R278 had moved Gold's to 2.8, where seed 1's
    # 1.80 ± 0.29 after 320 worlds is three standard errors clear and stops; R290 put it back)
    monkeypatch.setattr(type(GOLD), "analysis_thresholds", (1.0, 2.5, 5.0))
    with monkeypatch.context() as m:  # round seven's confirmation: seed 1 stops early, below the threshold
        m.setattr(GoldWorld, "confirm_edge_scale", 1)
        m.setattr(GoldWorld, "confirm_edge_z", None)
        before = analyse(record, seed=1, only=[29]).turns[0]
    assert before.judgement == "inaccuracy" and before.points_lost < 2.0, before
    runs = [analyse(record, seed=seed, only=[29]).turns[0] for seed in (1, 2)]
    for t in runs:
        assert t.played_words == "turn over d4 (gold 4) and a card not seen yet"
        assert t.best_words == "turn over e6 (green miner 4) and h8 (green miner 5)"
        assert t.judgement == "mistake", t
    # R256 kept seed 1 going past its early stop; R255 took it past the cap, to about half the cap's error
    assert runs[0].playouts > 4 * before.playouts and runs[0].lost_se < 0.12, runs[0]
