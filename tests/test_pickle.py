"""Records, reports and game states survive pickle and copy.deepcopy.

A researcher farms searches out to processes (multiprocessing pickles the
states) and a bot deep-copies a state to try a move; both must work on the
compiled build as on pure Python.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

import grn
from grn.games.carcassonne.commands import PlaceFollower
from grn.games.gold.commands import Card, FlipCard
from grn.games.goldrush.commands import Mine, PlaceCowboy, PlaceTent, RevealTokens
from grn.games.tiling.commands import PlaceTile
from grn.core.errors import Diagnostic, Span
from grn.games.goldrush.rules import GoldRushState, Options
from grn.games.goldrush import selfplay as goldrush
from grn.check.validate import validate_record

ROOT = Path(__file__).resolve().parent.parent


def _round_trips(obj):
    return pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj)


def _mid_game(turns: int) -> tuple[GoldRushState, list]:
    game = goldrush.play(4, seed=11)
    state = GoldRushState.new(None, game.players)
    for t in game.turns[:turns]:
        state.play_turn(t.player, t.actions)
    return state, list(game.turns[turns:])


@pytest.mark.parametrize("value", [
    PlaceTile("17", 2, -1, 90, Span(4, 8)), PlaceCowboy("WNW"), PlaceFollower("C"), PlaceTent(3, 0, "N"), Mine(2), Mine(),
    RevealTokens((2, None, 0)), FlipCard("a3", Card("miner", 4, "red")), Span(3, 7),
    Diagnostic("boom", Span(1, 2), "f.grn", turn=3, rule="a rule"), Options(farmers=False, cowboys=5),
])
def test_values_come_back_equal(value):
    for again in _round_trips(value):
        assert again == value and type(again) is type(value)


def test_a_span_comes_back_with_its_command():
    # spans take no part in equality, so check them on their own
    again, _ = _round_trips(PlaceTile("17", 2, -1, 90, Span(4, 8)))
    assert again.span == Span(4, 8)


def test_a_record_and_its_report_come_back_equal():
    record = next(grn.read(ROOT / "examples" / "goldrush-4p-farmers.grn"))
    report = validate_record(record, file="goldrush-4p-farmers.grn")
    for again in _round_trips(record):
        assert again == record and again.tag_spans == record.tag_spans
    for again in _round_trips(report):
        assert again.to_json() == report.to_json()


def test_a_game_state_comes_back_and_plays_on_the_same():
    state, rest = _mid_game(30)
    for again in _round_trips(state):
        assert again.fingerprint() == state.fingerprint()
        assert again.scores == state.scores and again.bag() == state.bag()
        a, b = state.copy(), again
        for t in rest[:20]:
            assert a.play_turn(t.player, t.actions) == b.play_turn(t.player, t.actions)
        assert a.fingerprint() == b.fingerprint()


def test_a_deep_copy_is_independent():
    state, rest = _mid_game(10)
    before = state.fingerprint()
    twin = copy.deepcopy(state)
    for t in rest[:5]:
        twin.play_turn(t.player, t.actions)
    assert state.fingerprint() == before and twin.fingerprint() != before


def test_a_cowboy_is_not_a_follower():
    """The games share the ``+N`` command (grn.games.tiling), but each names its own figure."""
    cowboy, follower = PlaceCowboy("N"), PlaceFollower("N")
    assert cowboy != follower and hash(cowboy) != hash(follower)
    assert (repr(cowboy), repr(follower)) == ("<PlaceCowboy N>", "<PlaceFollower N>")
