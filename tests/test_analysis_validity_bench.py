"""Validity and horizon, round eight (issue 21; docs/dev/journal/analysis.md "Validity and horizon, round eight"; R260-R262).

The yardstick is asked to order players of known strength on the real games' own positions: at each
position the bench lets a bot choose and judges its move exactly as the player's move there is judged
(``bench_bots.py validity --bots real --stand-in BOT``).  These tests run that code on a few turns of the
Board Game Arena game with a small budget, and pin the bench's settings of class attributes (the
analysis's horizon) in the ladder and the stability bench.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import grn
from grn.games.tiling.world import TileWorld

from tests.benchmods import load_bench

ROOT = Path(__file__).resolve().parent.parent
BGA = ROOT / "tests" / "data" / "bga-361578832.grn"


def _opening(turns: int) -> grn.Record:
    record = next(iter(grn.read(BGA)))
    return record.replace(turns=record.turns[:turns])


def test_at_the_real_positions_the_search_bot_loses_less_than_random_play():
    # R260: the yardstick orders bots of known strength on the real game's own positions: the search bot's
    # moves, judged at the positions where the players moved, lose less than random moves judged there
    bench = load_bench("bench_bots")
    source = ("bga-361578832.grn", _opening(8))
    mcts = bench._stand_in_unit("mcts at real positions", source, "quick", (), "mcts:quick")
    greedy = bench._stand_in_unit("greedy at real positions", source, "quick", (), "greedy")
    rand = bench._stand_in_unit("random at real positions", source, "quick", (), "random")
    assert mcts["turns"] == greedy["turns"] == rand["turns"] == 8
    # the order of known strengths: search < greedy < random (over the two real games at the default level:
    # 0.17, 1.31 and about 3 points a move)
    assert sum(mcts["losses"]) < sum(greedy["losses"]) < sum(rand["losses"])
    assert sum(rand["losses"]) > sum(mcts["losses"]) + 8.0
    assert max(mcts["losses"]) < 6.0  # the bot never makes what the analysis calls a mistake here


def test_a_stand_in_is_judged_on_the_players_position_with_its_own_move():
    # the stand-in's move replaces the player's at that turn, and only there: the turn, the player and the
    # position are the record's, so greedy's move at turn 1 is judged where red played turn 1
    bench = load_bench("bench_bots")
    record = _opening(3)
    greedy = bench._stand_in_unit("greedy at real positions", ("bga", record), "quick", (), "greedy")
    played = grn.analyse(record, level="quick", seed=1)
    assert [m[0].split("@")[0] for m in greedy["moves"]] == [t.played.split("@")[0] for t in played.turns]


def test_the_ladder_and_the_stability_bench_set_a_class_attribute_for_a_variant(monkeypatch):
    # ladder.py --set grn.games.tiling.world.TileWorld.horizon=24 (the bot at the analysis's candidate horizon)
    ladder = load_bench("ladder")
    monkeypatch.setattr(TileWorld, "horizon", TileWorld.horizon)  # undone after the test
    ladder.apply_settings(["grn.games.tiling.world.TileWorld.horizon=24"])
    assert TileWorld.horizon == 24
    with pytest.raises(SystemExit, match="has no attribute horizn"):
        ladder.apply_settings(["grn.games.tiling.world.TileWorld.horizn=24"])
    with pytest.raises(SystemExit, match="no module"):
        ladder.apply_settings(["nosuchmodule.x=1"])
