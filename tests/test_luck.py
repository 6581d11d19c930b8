"""Luck and skill that add up (issue 41 item 4, R410): one judge, whose turns telescope to the final margin.

Each case analyses the first turns of the Board Game Arena game of tests/data with a small budget: the balance
is then over those turns, from the expectation before the first draw to the expectation at the record's end.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import grn
from grn.analysis.judge import analyse, luck_seed, replay, settings_for
from grn.analysis.luck import before_draw, rounds_for
from grn.rules.world import margin

ROOT = Path(__file__).resolve().parent.parent
BGA = ROOT / "tests" / "data" / "bga-361578832.grn"

#: How many standard errors of the rest a case may stray (R410): the rest is the review's points lost less the
#: same losses measured again, a sum of independent estimation errors, so it is about normal; four standard
#: errors leave a case out once in 16,000 by chance.
Z = 4.0


def _cut(turns: int):
    record = next(iter(grn.read(BGA)))
    return record.replace(tags=tuple((k, v) for k, v in record.tags if k != "Result"),
                          turns=tuple(t for t in record.turns if t.number <= turns))


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), turns=st.integers(3, 6))
def test_luck_skill_and_edge_add_up_to_the_margin_less_the_expectation(seed, turns):
    analysis = analyse(_cut(turns), playouts=8, seed=seed)
    assert len(analysis.balances) == 2
    red, blue = analysis.balances
    for b in analysis.balances:
        # by construction: the parts are the margin, to rounding
        assert b.expected + b.luck + b.skill + b.edge + b.rest == pytest.approx(b.margin, abs=1e-6)
        # and what is left is noise: within the tolerance its own standard error gives
        assert abs(b.rest) <= Z * b.se + 1e-9, b
    # two players: what one gains the other gives
    assert red.margin == pytest.approx(-blue.margin) and red.luck == pytest.approx(-blue.luck)
    assert red.skill == pytest.approx(-blue.skill) and red.edge == pytest.approx(-blue.edge)
    # the skill is the review's points lost, as the turns show them
    own = sum(t.points_lost for t in analysis.turns if t.player == red.player)
    other = sum(t.points_lost for t in analysis.turns if t.player != red.player)
    assert red.skill == pytest.approx(other - own)
    # the per-turn luck is the balance's: the player's own draws, less what the opponent's gave the opponent
    assert red.luck == pytest.approx(sum(t.luck.luck if t.player == red.player else -t.luck.luck
                                         for t in analysis.turns if t.luck is not None))


def test_the_move_played_is_valued_as_the_next_turn_values_its_position():
    record = _cut(5)
    analysis = analyse(record, playouts=8, seed=3)
    ruleset, _, line = replay(record)
    s = settings_for(playouts=8, seed=3)
    for (turn, before), t, after in zip(line, analysis.turns, analysis.turns[1:]):
        played = ruleset.decision_of(before, turn.actions)
        rows = before_draw(ruleset, before, luck_seed(s, turn.number + 1), rounds_for(8), True,
                           ruleset.hand_of(turn.actions), played, review=s.review)
        assert after.luck is not None
        for player, value in after.luck.before:
            assert sum(margin(r, player) for r in rows) / len(rows) == value  # the same rounds, not a second sample


def test_the_balance_is_in_the_json_and_the_text_review():
    analysis = analyse(_cut(4), playouts=8, seed=1)
    schema = json.loads(resources.files("grn.schemas").joinpath("analysis.schema.json").read_text(encoding="utf-8"))
    doc = {"grn_analysis": 1, "games": [dict(analysis.to_json(), file="x.grn", index=1)]}
    jsonschema.validate(doc, schema)
    rows = doc["games"][0]["balance"]
    assert {r["player"] for r in rows} == {"red", "blue"}
    for r in rows:
        assert r["luck_se"] > 0 and r["se"] >= 0
        assert math.isclose(r["expected"] + r["luck"] + r["skill"] + r["edge"] + r["rest"], r["margin"], abs_tol=0.06)
    assert all("luck_se" in t for t in doc["games"][0]["turns"])
