"""A game state draws itself in Jupyter, as python-chess's Board does."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from grn import games
from grn.bots import GreedyBot
from grn.bots.arena import new_game


@pytest.mark.parametrize("game", ["goldrush", "carcassonne", "gold"])
def test_a_game_state_draws_itself(game):
    ruleset = games.find_ruleset(game)
    header, engine = new_game(ruleset, 2, 1)
    table = ruleset.determinise(engine, random.Random(1))
    for _ in range(4):
        table.play_commands(table.recorded(GreedyBot(ruleset).choose(table.engine.copy(), random.Random(2),
                                                                     table.hand())))
    svg = table.engine._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and len(svg) > 500
