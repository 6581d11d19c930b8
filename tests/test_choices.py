"""Ruleset.turn_step: whatever words a page sends, the answer is a step or a one-line refusal, and a whole
turn put together from the words offered is always legal (Hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grn import games
from grn.rules.choices import ChoiceError
from grn.rules.position import position_at
from grn.rules.selfplay import to_record

POSITIONS = {}


def position(game: str, turn: int):
    key = (game, turn)
    if key not in POSITIONS:
        POSITIONS[key] = position_at(to_record(games.find_ruleset(game).selfplay(2, 11)), str(turn)).state
    return POSITIONS[key]


@pytest.mark.parametrize("game", ["goldrush", "carcassonne", "gold"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(turn=st.integers(0, 20), picks=st.lists(st.one_of(st.integers(0, 40), st.text(max_size=8)), max_size=7))
def test_any_words_give_a_step_or_a_refusal(game, turn, picks):
    ruleset = games.find_ruleset(game)
    state = position(game, turn)
    words: list[str] = []
    for p in picks:
        try:
            step = ruleset.turn_step(state, words)
        except ChoiceError as exc:
            assert str(exc) and "\n" not in str(exc)
            return
        if step.done:
            # the engine plays what the words made
            state.copy().play_turn(state.current_player, list(step.actions))
            return
        if isinstance(p, int) and step.options:
            words.append(step.options[p % len(step.options)].word)
        else:
            words.append(p)  # a word the page was not offered: refused, never a crash
