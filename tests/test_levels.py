"""The levels to play against (grn/bots/levels.json, "play"): named, legal in every game, ordered by their data,
and a beginner who misses a closing city now and then (R385, R386)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

import grn
import grn.cli.app
from grn import games
from grn.analysis.judge import settings_for
from grn.bots import arena
from grn.bots.bot import (LEVELS, PLAY_LEVELS, GreedyBot, MctsBot, SlipBot, UnknownBot, check_bot_name, make_bot,
                          search_level)
from grn.rules.position import position_at
from grn.check.validate import validate_record

runner = CliRunner()

#: A Carcassonne position: red's knight holds a city of two tiles open to the north; red holds E (a city edge),
#: and E@0,2:180 closes the city for 6 points at once.
CLOSING = """[Game "carcassonne"]
[Players "Ada (red), Bo (yellow)"]

1. red G@0,1:90 +N
2. yellow U@1,0
"""


GAMES = ("goldrush", "carcassonne", "gold")


def test_the_ladder_has_four_levels_or_more_from_a_beginner_up():
    # round four (R475): the four levels measured 100 Elo apart, then the two of more search
    names = list(PLAY_LEVELS)
    assert names == ["beginner", "casual", "easy", "normal", "strong", "master"]


@pytest.mark.parametrize("game", GAMES)
def test_the_ladder_is_ordered_in_strength_by_its_data(game):
    # R386, R474: in every game each level has strictly more of what makes a bot stronger than the one below:
    # fewer blunders and slips (none more of any kind), then a search, then more playouts (no fewer candidates)
    ladder = [level.for_game(game) for level in PLAY_LEVELS.values()]
    keys = [level.strength_key() for level in ladder]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    greedy = [level for level in ladder if level.bot == "greedy"]
    assert all(b.makes_no_more_mistakes_than(a) for a, b in zip(greedy, greedy[1:]))
    searches = [LEVELS[p.level] for p in ladder if p.level is not None]
    assert all(a.width <= b.width for a, b in zip(searches, searches[1:]))
    assert all(level.learned for level in searches)  # the ladder plays the current engine, not the baseline


def test_a_level_tuned_per_game_names_only_games_grn_knows_and_plays_as_tuned():
    # R473: the mistakes a level makes are tuned per game; a game not named plays the level's own
    for level in PLAY_LEVELS.values():
        for game, *_ in level.games:
            assert games.find_ruleset(game).name == game
    beginner = PLAY_LEVELS["beginner"]
    tuned = {game: (slip, width, blunder) for game, slip, width, blunder in beginner.games}
    assert "carcassonne" not in tuned and set(tuned) == {"goldrush", "gold"}
    for game in GAMES:
        bot = make_bot("beginner", games.find_ruleset(game))
        assert isinstance(bot, SlipBot) and bot.name == "beginner"
        assert (bot.slip, bot.width, bot.blunder) == tuned.get(game, (beginner.slip, beginner.slip_width,
                                                                       beginner.blunder))
    assert PLAY_LEVELS["casual"].for_game("no such game") == PLAY_LEVELS["casual"].for_game("carcassonne")


@pytest.mark.parametrize("game", ["goldrush", "carcassonne", "gold"])
def test_every_level_plays_legal_moves_through_the_same_interface(game, monkeypatch):
    # every level at one table, a turn each (small budgets): a legal record, each bot named by its level
    names = list(PLAY_LEVELS)
    monkeypatch.setattr(arena, "MAX_TURNS", len(names))
    ruleset = games.find_ruleset(game)
    bots = [make_bot(name, ruleset, playouts=6) for name in names]
    played = arena.play_game(ruleset, bots, deal_seed=7, bot_seed=8)
    assert len(played.game.turns) == len(names) and played.forfeit is None
    assert played.bots == tuple(names)
    report = validate_record(played.record())
    assert report.valid, report


def _closing_position():
    record = grn.parse(CLOSING)[0]
    return games.find_ruleset("carcassonne"), position_at(record).state


def _closes(ruleset, state, decision) -> bool:
    world = ruleset.determinise(state, random.Random(0), ("E",))
    world.play(decision)
    return world.engine.scores["red"] == 6


def test_the_beginner_misses_a_closing_city_now_and_then():
    ruleset, state = _closing_position()
    assert _closes(ruleset, state, GreedyBot(ruleset).choose(state.copy(), random.Random(1), ("E",)))
    beginner = make_bot("beginner", ruleset)
    assert isinstance(beginner, SlipBot) and beginner.name == "beginner"
    closed = Counter(_closes(ruleset, state, beginner.choose(state.copy(), random.Random(seed), ("E",)))
                     for seed in range(60))
    # a blunder (one turn in ten) plays any move; a slip (three turns in four of the rest) one of the six best
    # at random, two of which close the city (with and without a farmer): the city is left open a little more
    # than one turn in two, and closed the other
    assert 15 <= closed[False] <= 45 and closed[True] >= 15


def test_the_casual_player_misses_a_closing_city_less_often_than_the_beginner():
    ruleset, state = _closing_position()
    casual, beginner = make_bot("casual", ruleset), make_bot("beginner", ruleset)
    assert isinstance(casual, SlipBot) and casual.name == "casual" and casual.blunder == 0
    seeds = range(200)

    def missed(bot):
        return sum(not _closes(ruleset, state, bot.choose(state.copy(), random.Random(s), ("E",))) for s in seeds)

    # casual slips one turn in two among its six best, most of which leave the city open (about a third of its
    # turns: 64 of 200 seeds); the beginner slips three turns in four and blunders one in ten (81 of 200)
    assert 40 <= missed(casual) <= 95 and missed(casual) + 10 <= missed(beginner)


def test_the_beginner_blunders_where_its_game_is_tuned_so():
    # R474: in Gold Rush the beginner on two turns in five plays any legal move (the random bot's), not only one
    # of its six best: over a game's first 30 turns some of its moves do what none of the greedy bot's six best
    # does (a move's effect: two decisions of one effect are the same move), and more of them than casual's
    # (one turn in ten there, R475).  (In Gold a turn seldom has more than six moves of different effect, so a
    # blunder there is told by its rate, R474.)
    game = "goldrush"
    from grn.bots.search import greedy_rank, make_worlds

    ruleset = games.find_ruleset(game)
    beginner, casual = make_bot("beginner", ruleset), make_bot("casual", ruleset)
    _, engine = arena.new_game(ruleset, 2, 5)
    table = ruleset.determinise(engine, random.Random(5))
    outside = {"beginner": 0, "casual": 0}
    for turn in range(30):
        state, hand = table.engine.copy(), table.hand()
        worlds = make_worlds(ruleset, state, hand, random.Random(turn), ruleset.greedy_samples)
        six = {worlds[0].effect(d) for _, d in worlds[0].shortlist(greedy_rank(worlds, state.current_player), 6)}
        for bot in (beginner, casual):  # the same seed: the same worlds, so the same six best
            outside[bot.name] += worlds[0].effect(bot.choose(state.copy(), random.Random(turn), hand)) not in six
        table.play(GreedyBot(ruleset).choose(state.copy(), random.Random(turn), hand))
        if table.is_over:
            break
    assert outside["beginner"] >= 3 and outside["casual"] < outside["beginner"]


@settings(max_examples=25, deadline=None)
@given(slip=st.floats(0, 1), width=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_a_slip_is_always_one_of_the_greedy_bots_best_moves(slip, width, seed):
    ruleset, state = _closing_position()
    bot = SlipBot(ruleset, slip=slip, width=width)
    decision = bot.choose(state.copy(), random.Random(seed), ("E",))
    world = ruleset.determinise(state, random.Random(0), ("E",))
    assert decision in world.moves()
    if width == 1 or slip == 0:  # no slip possible: the greedy bot's move
        assert decision == GreedyBot(ruleset).choose(state.copy(), random.Random(seed), ("E",))


def test_level_names_reach_the_bot_factory_and_the_search_budgets():
    ruleset = games.find_ruleset("gold")
    strong = make_bot("strong", ruleset)
    assert isinstance(strong, MctsBot) and strong.playouts == LEVELS["deep"].playouts and strong.name == "strong"
    assert type(make_bot("easy", ruleset)) is GreedyBot
    assert search_level("strong") == LEVELS["deep"] and search_level("normal") == LEVELS["normal"]
    with pytest.raises(UnknownBot, match="plays without a search"):
        search_level("beginner")
    with pytest.raises(UnknownBot, match="the levels to play against beginner, casual, easy"):
        check_bot_name("grandmaster")
    with pytest.raises(UnknownBot, match="plays without a search"):
        make_bot("mcts:beginner", ruleset)


def test_the_arena_plays_levels_by_name():
    result = runner.invoke(grn.cli.app.app, ["arena", "easy", "beginner", "--game", "gold", "--deals", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("gold: easy vs beginner: 2 games")


def test_analyse_takes_a_searching_level_and_refuses_a_beginner(tmp_path):
    path = tmp_path / "g.grn"
    path.write_text(CLOSING)
    result = runner.invoke(grn.cli.app.app, ["analyse", str(path), "--level", "beginner"])
    assert result.exit_code == 2
    assert "--level must be one of" in result.stderr and "a level to play against, not a search" in result.stderr
    chosen = settings_for(level="strong")
    assert (chosen.level, chosen.playouts, chosen.width) == ("strong", LEVELS["deep"].playouts, LEVELS["deep"].width)


def test_the_calibration_fit_recovers_a_known_ladder():
    # R388: three levels 200 Elo apart (76% a step), each adjacent pair 100 games and the check pairing two rungs
    # apart 400 Elo (91%): the fit gives back about 0, 200, 400, and the bootstrap's interval holds the truth
    from tests.benchmods import load_bench

    calibrate = load_bench("calibrate_levels")
    ladder = ["a", "b", "c"]

    def deals(first, second, p, n):
        wins = round(p * 2 * n)
        return [{"first": first, "second": second, "games": 2, "wins": 2.0 if i < wins // 2 else
                 (1.0 if i == wins // 2 and wins % 2 else 0.0)} for i in range(n)]

    lines = deals("b", "a", 0.76, 50) + deals("c", "b", 0.76, 50) + deals("c", "a", 0.91, 50)
    ratings = calibrate.fit(lines, ladder)
    assert ratings["a"] == 0
    assert 180 < ratings["b"] < 220 and 370 < ratings["c"] < 430
    steps = {}
    ci = calibrate.interval(lines, ladder, random.Random(1), steps)
    assert ci["b"][0] < 200 < ci["b"][1] and ci["c"][0] < 400 < ci["c"][1]
    # R476: each step's interval, from the same resamples, holds its 200 and is narrower than the rating's above
    assert set(steps) == {"b", "c"} and all(low < 200 < high for low, high in steps.values())
    assert steps["c"][1] - steps["c"][0] < ci["c"][1] - ci["c"][0]
