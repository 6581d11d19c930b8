"""One tree of a turn's choices per game (grn.rules.choices), and its walkers held equal on self-played positions.

For every registered game and the toy game (Nim, tests/toygame), at positions of self-played games
(Hypothesis over the seed and the turn): the bots' decisions (``World.moves``, their fast path) are the
tree's leaves walked with the world's outcomes (``World.tree_moves``); every leaf plays through
``play_turn``; the recorder's taps along a leaf's words put that leaf together; and the editor offers each
command a leaf's options add, at its place in the turn, and nothing the tree refuses (R420, R421).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from grn import games
from grn.analysis.judge import replay
from grn.rules.choices import leaves
from grn.core.errors import Span
from grn.rules.selfplay import to_record
from tests.toygame import RULESET as NIM

#: Every registered game with its default options, Carcassonne with The Gold Mines too (its second ingot), and Nim.
GAMES = [r.name for r in games.rulesets()] + ["carcassonne:goldmines=on", "nim"]


@pytest.fixture(scope="module", autouse=True)
def nim():
    games.register(NIM)
    yield NIM
    games.unregister("nim")


@lru_cache(maxsize=None)
def _line(game: str, seed: int) -> tuple[Any, list[tuple[Any, Any]]]:
    name, _, option = game.partition(":")
    ruleset = games.find_ruleset(name)
    options = ruleset.parse_options(dict([option.split("=")])) if option else None
    _, _, line = replay(to_record(ruleset.selfplay(2, seed, options)))
    return ruleset, [(turn, before) for turn, before in line if before is not None and not before.is_over]


def _lead(ruleset: Any, command: Any) -> str:
    """What an editor's user has typed of ``command`` when the editor is to list it: the first of its words
    in the tree and the separator after it (``17@``, ``c4=``), or nothing for a command of one word."""
    if len(ruleset.choice_words(command)) < 2:
        return ""
    text = ruleset.command_word(command)
    first = ruleset.choice_words(command)[0]
    return text[:len(first) + 1] if text.startswith(first) else ""


def _command(ruleset: Any, text: str) -> Any:
    """The command the word ``text`` writes (the codec whose spelling of what it reads is ``text``; a game's
    own commands, listed after the shared ones, first: ``tent@0,0`` is no tile called ``tent``)."""
    for codec in reversed(ruleset.codecs):
        try:
            command = codec.read(text, Span(1, 1), [])
            if codec.write(command) == text:
                return command
        except Exception:  # another codec's word
            continue
    raise AssertionError(f"no command of {ruleset.name} is written {text!r}")


def _option_commands(ruleset: Any, engine: Any, words: tuple[str, ...]) -> list[tuple[int, Any]]:
    """Along a leaf's words: each command an option adds, with how many of the turn's commands come before it."""
    out = []
    done = 0
    for i, word in enumerate(words):
        step = ruleset.choice_point(engine, words[:i])
        option = step.option(word)
        if option.command is not None:
            out.append((option.command, done))
        after = ruleset.choice_point(engine, words[:i + 1])
        done = len(after.actions) if after.actions is not None else done + (option.command is not None)
    return out


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None, derandomize=True, phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(1, 6), where=st.floats(0.0, 1.0))
def test_the_walkers_of_the_tree_agree(game, seed, where):
    ruleset, line = _line(game, seed)
    turn, engine = line[min(len(line) - 1, int(where * len(line)))]
    world = ruleset.determinise(engine, random.Random(seed), ruleset.hand_of(turn.actions))
    player = engine.current_player

    # the bots: their fast list is the tree's leaves, each as the decision it takes
    assert set(world.moves()) == set(world.tree_moves())

    found = list(leaves(ruleset, world.engine, world.chance_words))
    assert found
    rng = random.Random(seed)
    for words, actions in found:
        # every leaf is a legal turn
        engine.copy().play_turn(player, list(actions))
    for words, actions in rng.sample(found, min(4, len(found))):
        # the recorder's taps along the leaf's words: each word offered, and the last makes the leaf
        for i, word in enumerate(words):
            ruleset.turn_step(engine, list(words[:i])).option(word)
        assert ruleset.turn_step(engine, list(words)).actions == actions
        # the editor: each command an option of the leaf adds is offered where it is written
        for command, k in _option_commands(ruleset, engine, words):
            written = list(actions[:k])
            offered = ruleset.suggestions(engine, player, written, _lead(ruleset, command))
            extras = {s.text for s in ruleset._notation_extras(engine, player, written)}
            assert ruleset.command_word(command) in {s.text for s in offered}
            # and whatever command it offers there the tree takes (the editor-only extras aside, R420)
            path = tuple(w for c in written for w in ruleset.choice_words(c))
            for s in offered:
                if s.kind in ("action", "placement") and s.text not in extras:
                    ruleset.choice_point(engine, (*path, *ruleset.choice_words(_command(ruleset, s.text))))
                elif s.kind == "tile":
                    assert ruleset.choice_point(engine, (*path, s.text)) is not None


def test_r420_take_is_offered_by_the_editor_alone():
    """Carcassonne's ``take@`` (which tile an ingot handed out comes from) is the taker's choice, not the
    mover's: the tree, so the recorder and the bots, play the default choice; the editor offers it besides."""
    from grn.games.carcassonne import TakeIngot
    from grn.notation.read import parse
    from grn.rules.position import position_at

    with open("examples/carcassonne/goldmines-two-features.grn", encoding="utf-8") as f:
        record = parse(f.read())[0]
    ruleset = games.find_ruleset("carcassonne")
    turn = next(t for t in record.turns if any(isinstance(a, TakeIngot) for a in t.actions))
    engine = position_at(record, str(turn.number - 1)).state
    written = [a for a in turn.actions if not isinstance(a, TakeIngot)]
    offered = {s.text for s in ruleset.suggestions(engine, turn.player, written, "")}
    assert any(w.startswith("take@") for w in offered)
    world = ruleset.determinise(engine, random.Random(1), ruleset.hand_of(turn.actions))
    tree = [a for _, actions in leaves(ruleset, engine, world.chance_words) for a in actions]
    assert tree and not any(isinstance(a, TakeIngot) for a in tree)


def test_chance_points_are_marked():
    """The tile drawn, a token's face and a card's face are drawn, not chosen: the tree marks them chance."""
    _, line = _line("goldrush", 1)
    ruleset = games.find_ruleset("goldrush")
    assert ruleset.choice_point(line[0][1], ()).chance == "bag"
    gold, gline = _line("gold", 1)
    first = gold.choice_point(gline[0][1], ())
    assert first.chance is None
    assert gold.choice_point(gline[0][1], (first.options[0].word,)).chance == "cards"
    assert NIM.choice_point(_line("nim", 1)[1][0][1], ()).chance is None
