"""R515: a claiming playout can weigh the fields a placement joins (``CarcassonneWorld.join_gain``), the way the
field fight of the master's game (tests/data/bga-924153644.grn, R512) was won: by joining a field where the
player has farmers to the contested one.  Off by default (``FIELD_JOINS``): a benchmark's knob."""

from __future__ import annotations

import random
from pathlib import Path

import grn
from grn.analysis.judge import replay
from grn.games.carcassonne import bot as carcassonne_bot
from grn.games.carcassonne.bot import CarcassonneWorld
from grn.games.tiling.commands import PlaceTile

MASTER = Path(__file__).parent / "data" / "bga-924153644.grn"


def _before(number: int):
    (record,) = list(grn.read(MASTER))
    ruleset, _, line = replay(record)
    turn, before = next((t, b) for t, b in line if t.number == number)
    return ruleset, turn, before


def _gain(number: int, move: str) -> float:
    ruleset, turn, before = _before(number)
    (place,) = [c for c in grn.parse(f'[Game "carcassonne"]\n\n1. red {move}\n')[0].turns[0].actions
                if isinstance(c, PlaceTile)]
    preview = before.board.preview(before._design(place.tile, None), place.x, place.y, place.rotation)
    assert preview is not None
    world = CarcassonneWorld(ruleset, before.copy(), [])
    return world.join_gain(preview, before.seat)


def test_the_join_that_won_the_masters_field_fight_is_worth_the_field():
    # turn 64: blue's I at 1,4 joins his field of two farmers to the big field he shared with red (18 points a
    # holder then): blue holds it alone, 3 a closed city and 1.5 an open one beside it
    assert _gain(64, "I@1,4:180") > 15
    # turn 58: the review's best move (V at 1,6) is such a join too; the move played (V at 2,5) joins fields with
    # no change of who holds them
    assert _gain(58, "V@1,6 +S") > 15
    assert _gain(58, "V@2,5") == 0.0
    # a placement that joins nothing is worth nothing here
    assert _gain(57, "O@0,-4:180") == 0.0


def test_joins_are_off_by_default_so_the_bot_plays_as_measured():
    assert carcassonne_bot.FIELD_JOINS is False
    ruleset, turn, before = _before(64)
    world = CarcassonneWorld(ruleset, before.copy(), [])
    world.claims = True
    (place,) = [c for c in turn.actions if isinstance(c, PlaceTile)]
    preview = before.board.preview(before._design(place.tile, None), place.x, place.y, place.rotation)
    off, _ = world.quick_worth(place, preview, random.Random(1))
    carcassonne_bot.FIELD_JOINS = True
    try:
        on, _ = world.quick_worth(place, preview, random.Random(1))
    finally:
        carcassonne_bot.FIELD_JOINS = False
    assert on - off == carcassonne_bot.FARM_WEIGHT * _gain(64, "I@1,4:180")
