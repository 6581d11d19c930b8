"""The engine protocol (docs/protocol.md): the moves it lists are exactly legal, it sends no secret, a program
grn did not write plays through it, a failing engine loses the game with its own words, and ``grn engine``
speaks it."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

import grn.cli.app
from grn.rules import registry
from grn.bots import make_bot
from grn.bots.arena import match, new_game
from grn.bots.external import EngineBot
from grn.bots.protocol import (Budget, Engine, EngineError, Info, ProtocolError, Query, read_go, read_info,
                          read_query)
from grn.bots.seen import PlayerView

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
FOLLOWER = str(ROOT / "tests" / "engines" / "follower.js")
GAMES = ("goldrush", "gold", "carcassonne")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
runner = CliRunner()


def js(*args: str) -> str:
    """The command line of the JavaScript engine."""
    return " ".join([NODE or "node", FOLLOWER, *args])


def grn_engine(*args: str) -> list[str]:
    return [sys.executable, "-m", "grn", "engine", *args]


def table_turns(game: str, seed: int, turns: int | None = None):
    """The positions of a random game at the arena's table: (table, views, query, decisions) before each turn."""
    ruleset = registry.find_ruleset(game)
    header, engine = new_game(ruleset, 2, seed)
    table = ruleset.determinise(engine, random.Random(seed))
    views = {s.key: PlayerView(ruleset, header, s.key) for s in ruleset.seats(header)}
    history: list = []
    rng = random.Random(seed)
    n = 0
    while not table.is_over and (turns is None or n < turns):
        view = views[table.player]
        view.catch_up(history)
        query, decisions = view.query(table.hand())
        yield table, view, query, decisions
        commands = table.recorded(rng.choice(decisions))
        history.append((table.player, commands))
        table.play_commands(commands)
        n += 1


# -- the moves are exactly what grn accepts ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_move_is_accepted_by_the_rules(game):
    checked = 0
    for n, (table, _, query, decisions) in enumerate(table_turns(game, seed=11)):
        assert query.moves and len(query.moves) == len(decisions) == len(set(query.moves))
        if n % 2:
            continue  # every move of every other turn, the whole game long (every turn cost 19 s in Gold Rush)
        for d in decisions:
            table.engine.copy().play_turn(table.player, table.recorded(d))  # raises if the rules refuse it
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES)
def test_the_moves_are_every_move_the_bots_may_choose(game):
    # the listed moves are the table's own moves (after Gold's unseen cards, alike to the player, are merged)
    ruleset = registry.find_ruleset(game)
    for table, view, query, _ in table_turns(game, seed=4, turns=25):
        texts = {ruleset.move_text(view.engine, d) for d in table.moves()}
        assert texts == set(query.moves)


# -- nothing the player could not know ---------------------------------------------------------------


def test_gold_moves_name_only_faces_the_player_has_seen():
    for table, _, query, _ in table_turns("gold", seed=5, turns=40):
        known = table.engine.known_faces()
        for move in query.moves:
            for flip in move.split():
                place, face = flip.split("=")
                assert face == "?" if place not in known else face != "?"
        hidden = sum(query.unseen["cards"].values())
        assert hidden == sum(table.engine.unseen_cards().values())


def test_goldrush_sends_no_token_face_another_player_mined():
    leaked = shown = 0
    for _, _, query, _ in table_turns("goldrush", seed=2):
        for line in query.record.splitlines():
            m = re.match(r"\d+\. (\w+) ", line)
            if m and re.search(r"\bmine=\d", line):
                if m.group(1) != query.player:
                    leaked += 1
                else:
                    shown += 1
            assert not re.search(r"tokens=[\d,]*\d", line)  # faces a scoring hands out are not sent
    assert leaked == 0 and shown > 0


@pytest.mark.parametrize("game", ("goldrush", "carcassonne"))
def test_the_bag_is_sent_as_its_contents_never_its_order(game):
    # two tables that deal the same game in different orders send the same bag at the first turn
    ruleset = registry.find_ruleset(game)
    header, engine = new_game(ruleset, 2, 1)
    bags = set()
    for order in range(3):
        table = ruleset.determinise(engine, random.Random(order))
        view = PlayerView(ruleset, header, table.player)
        query, _ = view.query(table.hand())
        assert list(query.hand) == [str(t) for t in table.hand()]
        bag = dict(query.unseen["bag"])
        for tile in query.hand:  # the bag and the hand together: the same whatever the order
            bag[tile] = bag.get(tile, 0) + 1
        assert sum(bag.values()) == sum(table.engine.bag().values())
        bags.add(tuple(sorted(bag.items())))
    assert len(bags) == 1


# -- the wire format ------------------------------------------------------------------------------


def test_a_query_reads_back_as_it_was_written():
    for _, _, query, _ in table_turns("carcassonne", seed=3, turns=5):
        lines = iter(query.lines())
        assert read_query(next(lines), lines) == query


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30), max_size=12))
@settings(max_examples=300, deadline=None)
def test_the_parsers_answer_random_lines_with_a_protocol_error_at_worst(lines):
    for first in (["position carcassonne red"] + lines, lines):
        it = iter(first[1:])
        try:
            read_query(first[0] if first else "", it)
        except ProtocolError:
            pass
    for line in lines:
        for parse in (read_go, lambda x: read_info(x, Info())):
            for text in (line, "go " + line, "info " + line, "info candidate 1 " + line):
                try:
                    parse(text)
                except ProtocolError:
                    pass


def test_a_malformed_info_line_names_its_fault():
    with pytest.raises(ProtocolError, match="win.*chance from 0 to 1"):
        read_info("info win 7", Info())
    with pytest.raises(ProtocolError, match="takes a number"):
        read_info("info margin lots", Info())
    info = Info()
    read_info("info candidate 2 margin -1.5 error 0.5 win 0.25 move 31@1,0 +C", info)
    assert info.candidates[0].move == "31@1,0 +C" and info.candidates[0].margin == -1.5
    assert read_go("go playouts 200 movetime 50") == Budget(200, 50)


# -- a program grn did not write -----------------------------------------------------------------


@needs_node
@pytest.mark.parametrize("game", GAMES)
def test_a_javascript_engine_plays_duplicate_games_with_no_illegal_move(game):
    ruleset = registry.find_ruleset(game)
    engine_bot = EngineBot(ruleset, js(), budget=Budget(movetime=2000))
    try:
        result = match(ruleset, engine_bot, make_bot("greedy", ruleset), 2, seed=7)
    finally:
        engine_bot.close()
    assert result.games == 4 and result.forfeits == []
    assert engine_bot.engine.costs.moves > 40


@needs_node
def test_the_javascript_engine_is_seeded_by_the_table():
    ruleset = registry.find_ruleset("carcassonne")
    scores = []
    for _ in range(2):
        bot = EngineBot(ruleset, js())
        try:
            scores.append(match(ruleset, bot, make_bot("random", ruleset), 1, seed=3).margins)
        finally:
            bot.close()
    assert scores[0] == scores[1]


# -- a failing engine loses, in its own words ------------------------------------------------------


@needs_node
@pytest.mark.parametrize("fault, words", [
    ("illegal", r"bestmove 'Z@99,99' is not one of the \d+ legal moves sent \(the engine said: I will play off"),
    ("crash", r"the engine died \(it exited with code 3\) \(the engine said: follower.js: out of cheese\)"),
    ("late", r"no bestmove within 0.5 s \(the engine said: thinking very hard\)"),
    ("malformed", r"a malformed info line: 'info win' takes a number, not 'lots'"),
])
def test_a_failing_engine_forfeits_the_game_with_its_words(fault, words):
    ruleset = registry.find_ruleset("carcassonne")
    bot = EngineBot(ruleset, js("--fault", fault, "--fault-at", "2"), timeout=0.5)
    try:
        result = match(ruleset, bot, make_bot("random", ruleset), 1, seed=1)
    finally:
        bot.close()
    assert result.wins == 0 and len(result.forfeits) == 2  # restarted for the second game, and lost it too
    assert re.search(words, result.forfeits[0]), result.forfeits[0]
    assert "at turn 3" in result.forfeits[0] or "at turn 4" in result.forfeits[0]


@needs_node
def test_grn_arena_counts_an_illegal_answer_as_a_loss_and_prints_it():
    result = runner.invoke(grn.cli.app.app, ["arena", f"engine:{js('--fault', 'illegal')}", "random", "--game", "gold",
                                         "--deals", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert '"wins": 0' in result.stdout and "Traceback" not in result.output
    assert "forfeits at turn" in result.stderr and "I will play off the board" in result.stderr


@pytest.mark.parametrize("command, message", [
    ("engine:no-such-engine-here", "cannot start the engine 'no-such-engine-here'"),
    ("engine:", "give the command that starts the engine"),
    ("engine:true", "the engine died"),
])
def test_an_engine_that_cannot_start_is_a_one_line_error(command, message):
    result = runner.invoke(grn.cli.app.app, ["arena", command, "random", "--deals", "1"])
    assert result.exit_code in (1, 2)
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


# -- grn engine, and the Python API -------------------------------------------------------------


def first_query(game: str) -> Query:
    return next(table_turns(game, seed=9))[2]


@pytest.mark.parametrize("game", GAMES)
def test_grn_engine_answers_a_listed_move_with_its_search(game):
    query = first_query(game)
    with Engine.popen(grn_engine("--bot", "mcts"), cwd=str(ROOT)) as engine:
        assert engine.version == 1 and engine.id["name"].startswith("grn") and "Seed" in engine.options
        info = engine.analyse(query, Budget(playouts=60), timeout=60)
        result = engine.play(query, Budget(playouts=60), timeout=60)
    assert result.move in query.moves
    assert info.candidates and all(c.move in query.moves for c in info.candidates)
    if len(query.moves) > 1:
        assert info.margin is not None and info.error is not None and 0 <= (info.win or 0) <= 1


def test_grn_engine_answers_a_bad_message_with_an_error_line_and_stays():
    with Engine.popen(grn_engine("--bot", "greedy"), cwd=str(ROOT)) as engine:
        engine._send("position carcassonne red\nrecord x\n")
        engine.ping()
        query = first_query("carcassonne")
        wrong = Query(query.game, query.player, query.record, ("ZZ",), query.unseen, query.moves)
        with pytest.raises(EngineError, match="could not choose a move .the engine said: ValueError: tile ZZ"):
            engine.play(wrong, Budget(movetime=5000))
        assert engine.play(query, Budget(movetime=5000)).move in query.moves
        with pytest.raises(EngineError, match="no option 'Depth'"):
            engine.configure({"Depth": 3})
    assert not engine.alive


def test_an_engine_of_another_protocol_version_is_refused(tmp_path):
    script = tmp_path / "old.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    print('id name old'); print('ready 0', flush=True)\n")
    with pytest.raises(EngineError, match="speaks protocol version 0, grn speaks 1: expected 'ready 1'"):
        Engine.popen([sys.executable, str(script)])


def test_an_engine_that_never_answers_the_handshake_times_out(tmp_path):
    script = tmp_path / "mute.py"
    script.write_text("import time\ntime.sleep(30)\n")
    with pytest.raises(EngineError, match="no 'ready' line within 0.5 s"):
        Engine.popen([sys.executable, str(script)], timeout=0.5)


def test_grn_engine_plays_against_grns_bots_in_the_arena():
    result = runner.invoke(grn.cli.app.app, ["arena", f"engine:{sys.executable} -m grn engine --bot greedy", "random",
                                         "--game", "gold", "--deals", "1"])
    assert result.exit_code == 0, result.output
    assert "engine:grn" in result.stdout and "forfeit" not in result.stderr


def test_grn_engine_refuses_an_unknown_bot():
    proc = subprocess.run(grn_engine("--bot", "deep-blue"), capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "--bot must be one of random, greedy, mcts" in proc.stderr


# -- grn analyse --engine, and the specification's example -------------------------------------------


@needs_node
def test_grn_analyse_puts_every_turn_to_an_engine(tmp_path):
    path = tmp_path / "game.grn"
    result = runner.invoke(grn.cli.app.app, ["selfplay", "--game", "gold", "--seed", "4", "-o", str(path)])
    assert result.exit_code == 0
    result = runner.invoke(grn.cli.app.app, ["analyse", "--engine", js(), str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    import json

    doc = json.loads(result.stdout)
    turns = doc["games"][0]["turns"]
    assert doc["engine"] == "follower.js" and len(turns) > 20
    assert turns[0]["played"] == "a1=? b1=?"  # two cards never seen: alike to the player, named by stand-ins
    assert any(t["best"] != t["played"] and t["points_lost"] is None for t in turns)


def test_grn_analyse_with_an_engine_that_fails_is_a_one_line_error(tmp_path):
    path = tmp_path / "game.grn"
    runner.invoke(grn.cli.app.app, ["selfplay", "--game", "carcassonne", "--seed", "4", "-o", str(path)])
    result = runner.invoke(grn.cli.app.app, ["analyse", "--engine", "no-such-engine-here", str(path)])
    assert result.exit_code == 1
    assert result.stderr.strip() == "grn analyse: cannot start the engine 'no-such-engine-here': No such file or " \
                                    "directory"
    result = runner.invoke(grn.cli.app.app, ["analyse", "--engine", "x", str(path), "--format", "grn"])
    assert result.exit_code == 2 and "--engine writes text or json" in result.stderr


def test_the_specifications_example_is_a_position_grn_reads_and_its_moves_are_legal():
    from grn.notation.read import parse
    from grn.rules.position import position_at
    from grn.games.tiling.commands import PlaceTile

    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    driver = [line[len("driver:  "):] if line.startswith("driver:  ") else ""
              for line in text.splitlines() if line.startswith("driver:")]
    start = next(i for i, line in enumerate(driver) if line.startswith("position "))
    lines = iter(driver[start + 1:])
    query = read_query(driver[start], lines)
    assert next(lines) == "go movetime 1000"
    state = position_at(parse(query.record)[0]).state
    for move in query.moves:  # each move read as GRN and played at the position
        commands = parse(query.record + f"3. {query.player} {move}\n")[0].turns[-1].actions
        state.copy().play_turn(query.player, commands)
        assert isinstance(commands[0], PlaceTile) and commands[0].tile == query.hand[0]
    assert sum(query.unseen["bag"].values()) == sum(state.bag().values()) - 1


_WORDS = st.text(alphabet=st.sampled_from(list("position go record moves hand unseen end setoption name value "
                                                "Bot Seed ping quit grn-engine 0123456789:=@+-?\t")))
_MESSAGES = st.sampled_from(["position carcassonne red", "record 1", "record 0", "moves 1", "end", "go",
                             "go movetime 5", "hand", "ping", "grn-engine 1", "setoption name Seed value 3"])


@given(st.lists(_WORDS | _MESSAGES, max_size=12))
@settings(max_examples=150, deadline=None)
def test_grn_engine_answers_any_lines_without_a_traceback(lines):
    import io

    from grn.cli.engine import EngineSession

    out = io.StringIO()
    assert EngineSession("random", out).run(iter(lines)) == 0
    for line in out.getvalue().splitlines():
        assert line.split()[0] in ("id", "option", "ready", "pong", "info", "bestmove", "error"), line
        assert "Traceback" not in line
