"""A loss that straddles the mistake threshold (issue 21, stability round nine: R275-R279).

R275: with :attr:`grn.rules.world.World.judge_clear_z` set, a mistake or a blunder needs the loss's lower bound
``lost - z × se`` past its threshold; a loss whose interval still holds the threshold when its measuring ends
is judged below it and named *near* it, in every output (text, JSON, the GRN comment).  R276: the
confirmation's edge stage stops a loss that can no longer be judged past the edge by its cap.  The default
(``None``) leaves every game as it was: the toy game, the tile games.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from grn import games
from grn.analysis.judge import Thresholds, analyse, analyse_turn, settings_for
from grn.bots import GreedyBot, RandomBot
from grn.bots.arena import new_game, play_game
from grn.bots.confirm import confirm_loss
from grn.analysis.evalnote import EvalNote, parse_eval, write_eval
from grn.games.gold.bot import GoldWorld
from grn.core.record import Turn
from grn.rules.world import World
from tests.benchmods import load_bench
from tests.toygame import RULESET as NIM, Take

ROOT = Path(__file__).resolve().parent.parent
GOLD = games.find_ruleset("gold")
T = Thresholds(1.0, 2.5, 5.0)


@pytest.mark.parametrize("lost, se, judgement, near", [
    (2.60, 0.08, "inaccuracy", "mistake"),   # 2.60 - 3 × 0.08 = 2.36: the interval holds 2.5
    (2.45, 0.08, "inaccuracy", "mistake"),   # below 2.5, but its interval reaches past it
    (2.90, 0.08, "mistake", None),           # 2.66 past 2.5: clearly a mistake
    (2.20, 0.08, "inaccuracy", None),        # 2.44: the threshold is out of reach
    (5.10, 0.10, "mistake", "blunder"),      # near the blunder threshold, clearly a mistake
    (6.00, 0.20, "blunder", None),
    (0.50, 0.30, None, None),                # not clear of zero: no judgement, nothing near
])
def test_the_rule_judges_on_the_lower_bound_and_names_what_the_interval_holds(lost, se, judgement, near):
    assert T.judge(lost, se, bound_z=3.0) == judgement
    assert T.near(lost, se, 3.0) == near
    # without the rule the loss alone is judged, as before
    assert T.judge(lost, se) == ("mistake" if 2.5 <= lost < 5 else "blunder" if lost >= 5 else
                                 "inaccuracy" if lost >= 1 and lost > 2 * se else None)


def test_the_hook_defaults_to_the_old_rule_and_the_toy_game_is_analysed_through_it():
    assert World.judge_clear_z is None
    games.register(NIM)
    try:
        header, engine = new_game(NIM, 2, 1)
        engine.heap = 9
        t = analyse_turn(NIM, engine, Turn(1, engine.current_player, (Take(1),)), engine.current_player,
                         settings_for(playouts=40, seed=1), Thresholds(0.25, 0.5, 0.75))
        assert t.near is None and "near" not in t.to_json() and " near=" not in write_eval(t.note)
    finally:
        games.unregister("nim")


def test_the_edge_stage_stops_a_loss_that_cannot_reach_the_rule_by_its_cap():
    games.register(NIM)
    try:
        header, engine = new_game(NIM, 2, 1)
        engine.heap = 12
        played, rivals = (Take(2),), [(Take(1),), (Take(3),)]
        kw = dict(seed=5, rounds=10, max_rounds=80, z=2.0, edge_rounds=640, edge_z=3.0)
        first = confirm_loss(NIM, engine, (), rivals, played, boundaries=(100.0,), **kw)
        # an edge just above the loss: the old edge stage doubles to the edge's cap
        edge = first.lost + 0.5 * first.se
        old = confirm_loss(NIM, engine, (), rivals, played, boundaries=(edge,), edges=(edge,), **kw)
        new = confirm_loss(NIM, engine, (), rivals, played, boundaries=(edge,), edges=(edge,),
                           edge_bound_z=3.0, **kw)
        assert new.rounds <= old.rounds
        # R276 stops once the loss's upper bound is under what the cap's lower bound would need
        if new.rounds < 640:
            reach = 3.0 * new.se / (640 / new.rounds) ** 0.5
            assert new.lost + 3.0 * new.se < edge + reach or new.lost - 3.0 * new.se >= edge
    finally:
        games.unregister("nim")


def test_the_near_mark_round_trips_in_the_eval_comment_and_validates_in_json():
    note = EvalNote(-1.2, 0.3, 1.4, 0.3, 2.6, "inaccuracy", "mistake")
    text = write_eval(note)
    assert text.endswith("judgement=inaccuracy near=mistake]")
    assert parse_eval("{" + text + "}") == note
    assert parse_eval(write_eval(EvalNote(0.0, 0.1, 0.0, 0.1, 0.0))).near is None
    with pytest.raises(ValueError):
        parse_eval("[%eval played=+0.0±0.1 best=+0.0±0.1 lost=2.6 judgement=inaccuracy near=oops]")
    schema = json.loads((ROOT / "schemas" / "analysis.schema.json").read_text(encoding="utf-8"))
    turn = {"turn": 3, "player": "red", "played": "x", "played_words": "x", "best": None, "best_words": "y",
            "expected_played": -1.2, "played_se": 0.3, "expected_best": 1.4, "best_se": 0.3, "points_lost": 2.6,
            "lost_se": 0.08, "judgement": "inaccuracy", "candidates": 4, "playouts": 400, "near": "mistake"}
    doc = {"grn_analysis": 1, "games": [{"file": "a.grn", "index": 1, "game": "gold", "level": "normal",
                                          "playouts": 160, "seconds": None, "seed": 1,
                                          "thresholds": {"inaccuracy": 1, "mistake": 2.5, "blunder": 5, "z": 2},
                                          "stopped_at_turn": None, "turns": [turn], "players": []}]}
    jsonschema.validate(doc, schema)
    turn["near"] = "inaccuracy"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


def _mixed_record(index: int):
    """Record ``index`` of the stability bench's Gold records (R206: a greedy bot against a random one)."""
    kinds = (GreedyBot, RandomBot) if index % 2 == 0 else (RandomBot, GreedyBot)
    return play_game(GOLD, [cls(GOLD) for cls in kinds], 100 + index, 100 + index).record()


def test_a_straddling_loss_is_judged_by_the_rule(monkeypatch):
    # Record 1 (deal 101), turn 28: a remembered gold carried out against two unseen cards, a loss within
    # hundredths of 2.5.  Round eight's seeds measured it 2.43 ± 0.10 (an inaccuracy) and 2.61 ± 0.10 (a
    # mistake): a coin toss.  With the rule (R275) a loss whose interval holds 2.5 is an inaccuracy near the
    # mistake threshold whatever side its mean fell on.
    record = _mixed_record(1)
    monkeypatch.setattr(GoldWorld, "judge_clear_z", 3.0)
    monkeypatch.setattr(type(GOLD), "analysis_thresholds", (1.0, 2.5, 5.0))  # as R275 was measured
    t = analyse(record, seed=2, only=[28]).turns[0]
    assert t.judgement == "inaccuracy" and t.near == "mistake", t
    assert t.points_lost - 3 * t.lost_se < 2.5 <= t.points_lost + 3 * t.lost_se
    assert t.to_json()["near"] == "mistake" and " near=mistake]" in write_eval(t.note)


def test_the_threshold_goes_to_the_first_valley_above_it():
    # R278's rule on losses with a peak on the threshold (2.4-2.6), a valley at 2.8 and a deeper, wider one
    # at 3.3-3.4: the first valley, not the deepest, moves the threshold least
    def density(v: float) -> int:
        if v < 2.55:
            return 6
        if v < 2.8:
            return round(6 * (2.8 - v) / 0.25)
        if v < 2.95:
            return round(3 * (v - 2.8) / 0.15)
        if v < 3.1:
            return 3
        if v < 3.3:
            return round(3 * (3.3 - v) / 0.2)
        return 0 if v < 3.45 else 4
    losses = [v / 100 for v in range(240, 380) for _ in range(density(v / 100))]
    lines = [{"game": "gold", "runs": [[[i + 1, v, 0.08, None, 100] for i, v in enumerate(losses)], []]}]
    bench = load_bench("bench_stability")
    placed, windows = bench.valley(lines, "gold", 2.5)
    assert placed == 2.8, windows
    assert bench.valley(lines, "gold", 3.0)[0] == 3.35


def test_gold_keeps_the_mistake_threshold_it_was_calibrated_with():
    # R290: R278's 2.8 was placed in a valley of the losses seeds 1 and 2 had measured; on seeds 3-4 and 5-6 it
    # agreed on 83% and 92% of the mistakes against 2.5's 92% and 93%: a threshold fitted to one pair of runs.
    assert GOLD.analysis_thresholds == (1.0, 2.5, 5.0)
    t = analyse(_mixed_record(1), seed=2, only=[28]).turns[0]
    assert 2.3 < t.points_lost < 2.8 and t.judgement == "mistake", t
    assert Thresholds(1.0, 2.8, 5.0).judge(t.points_lost, t.lost_se) == "inaccuracy"  # what R278 had said
