"""Every turn of every shipped example draws, and the drawing matches the engine.

The structural checks are those of ``test_render.py`` (tiles, cowboys per
player, tents, token stacks, card backs), run here on ``examples/*.grn``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import grn
from test_render import test_every_gold_position_matches_the_engine as check_gold
from test_render import test_every_goldrush_position_matches_the_engine as check_goldrush

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.grn"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_position_of_the_example_draws(path):
    records = list(grn.read(path))
    assert records and all(r.ok for r in records)
    goldrush = [r for r in records if r.game == "goldrush"]
    gold = [r for r in records if r.game == "gold"]
    if goldrush:
        check_goldrush(goldrush)
    if gold:
        check_gold(gold)
