"""Validity, round seven (issue 21; docs/dev/journal/analysis.md "Validity, round seven"; rulings R230-R232).

The real Board Game Arena players lose about twice what greedy self-play loses a move.  The suspicion was
that the analysis's short horizon (6 tile turns) under-rates long-term moves such as a farmer.  These tests
pin what the experiment found: the tile games keep the 6-turn horizon (R230), the horizon is one attribute
a variant may change, and the real game's costliest late moves are farmers *not* placed, which an analysis
to the end of the game confirms (R231).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import grn
from grn import games
from grn.analysis.judge import replay
from grn.games.tiling.world import TileWorld
from grn.check.validate import validate_record
from grn.rules.world import rollout

BGA = Path(__file__).parent / "data" / "bga-361578832.grn"


def _bga() -> grn.Record:
    return next(iter(grn.read(BGA)))


def test_the_tile_games_playouts_stop_six_turns_after_the_move_and_a_variant_plays_to_the_end(monkeypatch):
    # R230: the default yardstick looks 6 turns ahead; the horizon is the World's attribute, so the bench
    # (bench_bots.py validity --set grn.games.tiling.world.TileWorld.horizon=N) measures a longer one unchanged
    ruleset = games.find_ruleset("carcassonne")
    _, _, line = replay(_bga())
    _, before = line[40]  # turn 41: 31 tiles are left in the bag
    world = ruleset.determinise(before, random.Random(1))
    assert isinstance(world, TileWorld) and world.horizon == 6
    played = len(world.tiles.board.tiles)
    rollout(world, random.Random(2), world.horizon)
    assert len(world.tiles.board.tiles) == played + 6 and not world.is_over

    monkeypatch.setattr(TileWorld, "horizon", 1000)
    world = ruleset.determinise(before, random.Random(1))
    rollout(world, random.Random(2), world.horizon)
    assert world.is_over and world.tiles.bag_left == 0


@pytest.mark.parametrize("horizon", [6, 1000])
def test_a_real_players_late_loss_is_a_farmer_kept_back_and_an_analysis_to_the_end_confirms_it(monkeypatch, horizon):
    # R231: turn 61 of the BGA game, 11 tiles left: red lays V at -3,-4 and keeps its last follower (it ends
    # the game unused); a farmer on that tile's field is worth several points whether the playouts stop 6
    # turns later or run to the end of the game: the long-term move the analysis was suspected of
    # under-rating is the one it recommends, and the player did not make it
    monkeypatch.setattr(TileWorld, "horizon", horizon)
    record = _bga()
    a = grn.analyse(record, only=[61], seed=1)
    (turn,) = a.turns
    assert turn.player == "red" and turn.played == "V@-3,-4"
    # the same tile with a farmer: at -3,-4 (six turns), or beside it at -4,-3 (to the end, R516)
    assert turn.best in ("V@-3,-4 +N", "V@-4,-3 +N")
    assert turn.points_lost >= 3 and turn.points_lost > 2 * turn.lost_se
    # R335: red, far ahead, had won whatever it played: the points are measured, the move is not judged
    assert turn.decided and turn.judgement is None and turn.win_played is not None and turn.win_played >= 0.95
    _, _, line = replay(record)
    _, before = line[60]
    after = before.copy()
    after.play_turn(after.current_player, turn.best_actions)
    x, y = (int(v) for v in turn.best[2:].split()[0].split(","))
    assert ("red", x, y, 1, "field") in after.placed_followers()  # the best move's follower is a farmer
    # and red's last follower was never placed: the game ends with it in red's supply
    final = line[-1][1].copy()
    final.play_turn(final.current_player, line[-1][0].actions)
    assert final.supply[final.players.index("red")] == 1


def test_the_japanese_championship_final_is_a_legal_whole_game_of_the_base_rules():
    # the second real game (tests/data/README.md): converted from a score sheet, so its conventions are
    # checked by the rules: every turn legal, the bag emptied, every follower used, a one-point final
    record = next(iter(grn.read(Path(__file__).parent / "data" / "japan-2015-final.grn")))
    report = validate_record(record)
    assert report.valid and report.complete and report.turns_played == 71
    assert report.final_scores == {"red": 96, "green": 95}
    _, _, line = replay(record)
    last, before = line[-1]
    after = before.copy()
    after.play_turn(after.current_player, last.actions)
    assert after.bag_left == 0 and list(after.supply) == [0, 0]


def test_a_follower_kept_is_credited_once_when_the_yardstick_variant_values_it(monkeypatch):
    # R233: by default a position is worth its projected final scores and only the greedy ranking adds a
    # point a follower kept (reserve); the variant credits every player's kept followers in the value itself
    # and the reserve then adds nothing, so the greedy ranking still counts each follower once
    ruleset = games.find_ruleset("carcassonne")
    _, _, line = replay(_bga())
    _, before = line[20]  # turn 21: 51 tiles in the bag, the credit at its full weight
    world = ruleset.determinise(before, random.Random(1))
    projected = {p: float(s) for p, s in before.projected_scores().items()}
    assert world.value() == projected
    supply = dict(zip(before.players, before.supply))
    assert world.reserve("red") == supply["red"] > 0
    monkeypatch.setattr(TileWorld, "follower_value", 1.5)
    assert world.value() == {p: projected[p] + 1.5 * supply[p] for p in projected}
    assert world.reserve("red") == 0.0
