"""The bots: legal, reproducible, blind to what a player cannot see, and available to a plug-in through the defaults."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import grn.cli.app
from grn import games
from grn.bots import GreedyBot, MctsBot, RandomBot, UnknownBot, make_bot
from grn.bots.arena import match, new_game, play_game
from grn.rules.ruleset import Ruleset
from grn.rules.selfplay import to_record
from grn.check.validate import validate_record
from grn.rules.world import NoBot
from tests.toygame import RULESET as NIM, NimRuleset

runner = CliRunner()


@pytest.fixture
def nim():
    games.register(NIM)
    yield NIM
    games.unregister("nim")


def test_a_plugin_game_gets_every_bot_through_the_defaults(nim):
    # Nim has no hidden information: the default World copies the engine and lists Ruleset.legal_turns, the
    # leaves of its tree of choices
    for name in ("random", "greedy", "mcts"):
        bots = [make_bot(name, nim, playouts=20) if name == "mcts" else make_bot(name, nim)] * 2
        game = play_game(nim, bots, deal_seed=3, bot_seed=4)
        assert sum(game.scores.values()) == 1
        assert validate_record(game.record()).valid


def test_greedy_takes_the_last_stones_when_it_can(nim):
    header, engine = new_game(nim, 2, 1)
    engine.heap = 3
    decision = GreedyBot(nim).choose(engine, random.Random(1))
    assert decision[0].count == 3


def test_mcts_leaves_a_losing_heap_in_nim(nim):
    # with 5 stones, taking 1 leaves 4: whatever the opponent takes, the last stones are ours
    header, engine = new_game(nim, 2, 1)
    engine.heap = 5
    decision = MctsBot(nim, playouts=300).choose(engine, random.Random(2))
    assert decision[0].count == 1


def test_a_game_without_choices_has_no_bot(nim):
    class Silent(NimRuleset):
        name = "silentnim"

        choice_point = Ruleset.choice_point  # the default: the game defines no tree of choices

    silent = Silent()
    header, engine = new_game(silent, 2, 1)
    with pytest.raises(NoBot, match="no bot"):
        RandomBot(silent).choose(engine, random.Random(1))


@pytest.mark.parametrize("game", ["goldrush", "carcassonne", "gold"])
def test_the_same_seed_gives_the_same_choices(game):
    ruleset = games.find_ruleset(game)
    # two whole games: 8 playouts a move go through the same seeded paths as more would, at half the cost
    bots = [MctsBot(ruleset, playouts=8, width=3), GreedyBot(ruleset)]
    first = play_game(ruleset, bots, deal_seed=5, bot_seed=6)
    again = play_game(ruleset, bots, deal_seed=5, bot_seed=6)
    assert first.game.turns == again.game.turns and first.scores == again.scores
    assert validate_record(first.record()).valid


@pytest.mark.parametrize("game", ["goldrush", "carcassonne"])
def test_a_bot_never_reads_the_bag_order(game):
    # two deals that agree on the tiles drawn so far and the tile in hand, but not on the rest of the bag,
    # get the same decision: the bot samples the order itself
    ruleset = games.find_ruleset(game)
    header, engine = new_game(ruleset, 2, 9)
    table = ruleset.determinise(engine, random.Random(1))
    greedy = GreedyBot(ruleset)
    for _ in range(6):
        table.play(greedy.choose(table.engine.copy(), random.Random(0), table.hand()))
    hand = table.hand()
    other = ruleset.determinise(table.engine, random.Random(99), hand)
    assert other.hand() == hand and other.pile != table.pile
    bot = MctsBot(ruleset, playouts=24, width=4)
    assert bot.choose(table.engine.copy(), random.Random(7), hand) == \
        bot.choose(other.engine.copy(), random.Random(7), other.hand())


def test_a_gold_bot_never_reads_an_unseen_card():
    ruleset = games.find_ruleset("gold")
    header, engine = new_game(ruleset, 2, 3)
    one = ruleset.determinise(engine, random.Random(1))
    two = ruleset.determinise(engine, random.Random(2))
    assert one.truth != two.truth  # two deals of the same public position
    bot = MctsBot(ruleset, playouts=24, width=4)
    assert bot.choose(one.engine.copy(), random.Random(3)) == bot.choose(two.engine.copy(), random.Random(3))


def test_an_arena_bot_never_sees_a_token_another_mined_face_down():
    # Gold Rush: a token mined is taken face down; in the arena a bot chooses from its own seat's view (R465),
    # so the faces of the tokens its opponent holds are unknown to it
    ruleset = games.find_ruleset("goldrush")
    looked: list[tuple[int, int]] = []  # per choice: the opponent's tokens held, and how many of them it knew

    class Spy(GreedyBot):
        def choose(self, engine, rng, hand=()):
            me = engine.players.index(engine.current_player)
            theirs = engine.hands[1 - me]
            looked.append((len(theirs), sum(t in engine.token_value for t in theirs)))
            return super().choose(engine, rng, hand)

    for deal in range(1, 4):
        play_game(ruleset, [Spy(ruleset), Spy(ruleset)], deal, deal)
    assert sum(held for held, _ in looked) > 0  # tokens were mined
    assert all(known == 0 for _, known in looked), looked


def test_greedy_beats_random_in_a_short_duplicate_match():
    ruleset = games.find_ruleset("carcassonne")
    result = match(ruleset, GreedyBot(ruleset), RandomBot(ruleset), deals=2, seed=1)
    assert result.games == 4 and result.wins == 4 and result.mean_margin > 20
    low, mid, high = result.elo()
    assert mid == float("inf")


def test_unknown_bot_and_level():
    ruleset = games.find_ruleset("gold")
    with pytest.raises(UnknownBot, match="unknown bot 'smart'"):
        make_bot("smart", ruleset)
    with pytest.raises(UnknownBot, match="unknown level 'huge'"):
        make_bot("mcts:huge", ruleset)


def test_selfplay_with_a_bot_writes_a_legal_game(tmp_path):
    out = tmp_path / "g.grn"
    result = runner.invoke(grn.cli.app.app, ["selfplay", "--game", "carcassonne", "--bot", "greedy", "--seed", "3",
                                         "-o", str(out)])
    assert result.exit_code == 0, result.output
    record = grn.parse(out.read_text())[0]
    report = validate_record(record)
    assert report.valid and report.complete
    # a greedy player places followers and completes features, as people do
    assert sum(1 for t in record.turns for a in t.actions if type(a).__name__ == "PlaceFollower") >= 10


def test_arena_command(tmp_path):
    result = runner.invoke(grn.cli.app.app, ["arena", "greedy", "random", "--game", "gold", "--deals", "2", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "greedy vs random: 4 games" in result.output and "Elo" in result.output


@pytest.mark.parametrize("args, message", [
    (["arena", "greedy", "smart", "--game", "gold"], "unknown bot 'smart'"),
    (["arena", "greedy", "random", "--game", "chess"], "--game must be one of"),
    (["arena", "greedy", "random", "--deals", "0"], "--deals must be from 1"),
    (["selfplay", "--bot", "mcts:huge"], "unknown level 'huge'"),
])
def test_bad_bot_options_are_one_line_usage_errors(args, message):
    result = runner.invoke(grn.cli.app.app, args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_bot_game_record_round_trips():
    ruleset = games.find_ruleset("goldrush")
    game = play_game(ruleset, [GreedyBot(ruleset), RandomBot(ruleset)], deal_seed=2, bot_seed=2)
    record = game.record()
    text = grn.write_record(record)
    assert grn.write_record(grn.parse(text)[0]) == text
    assert to_record(game.game).turns == record.turns


def test_the_shipped_levels_follow_their_schema():
    """grn/bots/levels.json is read without a schema check on every run (R122), so the suite checks it."""
    import json
    from importlib import resources

    import jsonschema

    doc = json.loads(resources.files("grn.bots").joinpath("levels.json").read_text(encoding="utf-8"))
    schema = json.loads(resources.files("grn.schemas").joinpath("levels.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)
    assert doc["default"] in doc["levels"]
