"""A game against grn in grn serve (R375-R378), on a real uvicorn (loopback, a free port): the server plays the
bot seats of each game, deals a person's tile and faces, takes back a person's move with the replies after it,
refuses writes without the token, and archives the game with the bots named in the Players tag."""

from __future__ import annotations

import json
import random
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")

from grn.notation.read import parse  # noqa: E402
from grn.rules.position import position_at  # noqa: E402
from grn.check.validate import validate_record  # noqa: E402
from serve_server import running  # noqa: E402
from test_serve import call  # noqa: E402

#: Small tables: a Carcassonne of few tiles (basic=N copies of the base game's tiles), a Gold Rush, a Gold.
TABLES = {
    "carcassonne": ("Anna (red), random (blue)", "basic=1"),
    "goldrush": ("Anna (red), greedy (blue)", ""),
    "gold": ("Anna (red+blue), random (green+yellow)", ""),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with running(tmp_path_factory.mktemp("bots") / "club.db", open_read=False) as base:
        yield base


def new_game(base: str, game: str, players: str, options: str = "") -> dict[str, Any]:
    status, made, _ = call(base, "POST", "/api/games", {"game": game, "players": players, "options": options,
                                                        "against": True})
    assert status == 200, made
    status, state, _ = call(base, "GET", f"/api/games/{made['id']}")
    assert status == 200, state
    return state


def person_turn(base: str, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A person's turn: the first options the server offers (the deal's words given), then played."""
    picked = list(state["picked"])
    step = state["step"]
    while not step["done"]:
        picked.append(rng.choice(step["options"])["word"])
        status, state, _ = call(base, "GET", f"/api/games/{state['id']}?at={state['address']}&picked="
                                + urllib.parse.quote(json.dumps(picked)))
        assert status == 200, state
        picked = list(state["picked"])
        step = state["step"]
    status, state, _ = call(base, "POST", f"/api/games/{state['id']}/play",
                            {"at": state["address"], "base": state["base"], "picked": picked})
    assert status == 200, state
    return state


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_bot_seat_answers_a_persons_move(server, game):
    """The person plays, the server plays the bot's seat: its turn is on the record with its words."""
    players, options = TABLES[game]
    state = new_game(server, game, players, options)
    assert state["dealer"] and list(state["bots"].values()) == [players.split(", ")[1].split(" (")[0]]
    assert not state["bot_to_move"]
    if state["step"]["options"] and state["step"]["prompt"].lower().startswith("where"):
        assert state["dealt"] == [0]  # the tile drawn is the deal's, not the person's to pick
    state = person_turn(server, state, random.Random(1))
    assert state["bot_to_move"]
    status, after, _ = call(server, "POST", f"/api/games/{state['id']}/bots", {"base": state["base"]})
    assert status == 200, after
    assert after["said"] and after["said"][0]["bot"] == state["bots"][state["player"]]
    assert after["said"][0]["words"]
    assert not after["bot_to_move"] and len(after["moves"]["turns"]) == 2
    record = parse(after["grn"])[0]
    assert dict(record.tags)["Dealer"] == "grn serve"
    assert validate_record(record).valid


def test_the_search_bot_says_its_expected_margin_and_the_archive_names_it(server):
    state = new_game(server, "carcassonne", "mcts:quick (red), Anna (blue)", "basic=1")
    assert state["bot_to_move"]
    status, after, _ = call(server, "POST", f"/api/games/{state['id']}/bots", {"base": state["base"]})
    assert status == 200, after
    said = after["said"][0]
    assert said["bot"] == "mcts:quick" and said["expects"].startswith("mcts:quick expects a margin of ")
    assert "\u00b1" in said["expects"]
    assert said["expects"] in after["grn"]  # a comment on the bot's turn: the archive keeps it
    status, found, _ = call(server, "GET", "/api/games?player=mcts:quick")
    assert status == 200 and any(g["id"] == state["id"] for g in found["games"])


def test_the_new_game_form_offers_the_levels_by_name_and_a_level_plays_its_seat(server):
    """A person chooses an opponent by the ladder's names, weakest first (issue 43 item 2), as grn arena does."""
    status, meta, _ = call(server, "GET", "/api/meta")
    assert status == 200
    assert meta["bots"][:6] == ["beginner", "casual", "easy", "normal", "strong", "master"]
    state = new_game(server, "goldrush", "Anna (red), casual (blue)")
    assert list(state["bots"].values()) == ["casual"]
    state = person_turn(server, state, random.Random(3))
    status, after, _ = call(server, "POST", f"/api/games/{state['id']}/bots", {"base": state["base"]})
    assert status == 200, after
    assert after["said"][0]["bot"] == "casual" and not after["bot_to_move"]
    assert validate_record(parse(after["grn"])[0]).valid


def test_take_back_removes_the_persons_move_and_the_bots_reply(server):
    state = new_game(server, "gold", "Anna (red+blue), random (green+yellow)")
    start = state["base"]
    state = person_turn(server, state, random.Random(2))
    status, after, _ = call(server, "POST", f"/api/games/{state['id']}/bots", {"base": state["base"]})
    assert status == 200 and len(after["moves"]["turns"]) == 2
    status, back, _ = call(server, "POST", f"/api/games/{state['id']}/take-back", {"base": after["base"]})
    assert status == 200, back
    assert back["moves"]["turns"] == [] and back["base"] == start
    status, again, _ = call(server, "POST", f"/api/games/{state['id']}/take-back", {"base": back["base"]})
    assert status == 400 and "no move" in again["error"]


def test_the_deal_decides_a_persons_draw_not_the_page(server):
    """A person's Carcassonne turn that places another tile than the dealt one is refused; a Gold card shows the
    dealt face whatever face the page sent."""
    state = new_game(server, "carcassonne", "Anna (red), greedy (blue)", "basic=1")
    dealt = state["picked"][0]
    engine = position_at(parse(state["grn"])[0], "end").state
    other = next(t for t, n in sorted(engine.bag().items()) if n > 0 and t != dealt and engine.legal_placements(t))
    place = engine.legal_placements(other)[0]
    status, refused, _ = call(server, "POST", f"/api/games/{state['id']}/play",
                              {"at": state["address"], "base": state["base"],
                               "text": f"{other}@{place.x},{place.y}" + (f":{place.rotation}" if place.rotation else "")})
    assert status == 400 and f"the tile drawn is {dealt}" in refused["error"], refused
    gold = new_game(server, "gold", "Anna (red+blue), random (green+yellow)")
    place = gold["step"]["options"][0]["word"]
    status, shown, _ = call(server, "GET", f"/api/games/{gold['id']}?picked=" + f'%5B%22{place}%22%5D')
    assert shown["picked"][0] == place and len(shown["picked"]) == 2 and shown["dealt"] == [1]


def test_bots_and_take_back_need_the_token_and_a_request_names_no_command(server):
    state = new_game(server, "gold", "random (red+blue), Anna (green+yellow)")
    for path in ("bots", "take-back"):
        status, refused, _ = call(server, "POST", f"/api/games/{state['id']}/{path}", {"base": state["base"]},
                                  token=None)
        assert status == 403, refused
    status, refused, _ = call(server, "POST", "/api/games", {"game": "gold", "against": True,
                                                            "players": "engine:sh (red+blue), Anna (green+yellow)"})
    assert status == 400 and "--engine" in refused["error"]


def test_a_game_recorded_at_a_table_is_never_played_by_the_server(server):
    status, made, _ = call(server, "POST", "/api/games", {"game": "gold", "players": "random (red+blue), Anna "
                                                                                   "(green+yellow)"})
    assert status == 200
    status, state, _ = call(server, "GET", f"/api/games/{made['id']}")
    assert state["bots"] == {} and not state["bot_to_move"]
    status, refused, _ = call(server, "POST", f"/api/games/{made['id']}/bots", {"base": state["base"]})
    assert status == 400 and "not started against grn" in refused["error"]


def test_a_bot_sees_what_its_seat_saw_not_an_opponents_mined_token(monkeypatch):
    """R377: the engine a bot seat chooses from holds no face of a token another player mined face down, and
    its hand is the deal's draw; the deal (the table) writes the face of the bot's own token."""
    from grn.rules import registry
    from grn.bots.bot import Bot, make_bot
    from grn.games.goldrush.commands import Mine
    from grn.rules.selfplay import to_record
    from grn.serve import bots

    ruleset = registry.find_ruleset("goldrush")
    record = to_record(ruleset.selfplay(2, 3))
    mined = next(t for t in record.turns if any(isinstance(a, Mine) for a in t.actions))
    turns = [t for t in record.turns if t.number <= mined.number]
    truth = position_at(record, mined.number).state
    assert truth.token_value  # the table knows the face
    seen: list[Any] = []

    class Spy(Bot):
        def choose(self, state: Any, rng: random.Random, hand: tuple[Any, ...] = ()) -> Any:
            seen.append((state, hand))
            return make_bot("greedy", ruleset).choose(state, rng, hand)

    monkeypatch.setattr(bots, "make_bot", lambda name, r: Spy(r) if name == "spy" else make_bot(name, r))
    other = next(s.key for s in ruleset.seats(record) if s.key != mined.player)
    table = bots.deal(ruleset, truth, "secret", 1, len(turns))
    turn = bots.bot_turn(ruleset, record, turns, other, "spy", table)
    view, hand = seen[0]
    assert view.current_player == other and not view.token_value  # the opponent's face is unknown to it
    assert hand == table.hand() and turn.actions[0].tile == hand[-1]


def test_an_engine_given_on_the_command_line_plays_a_seat(tmp_path):
    """``grn serve --engine NAME=CMD``: a seat named ``engine:NAME`` is played by that engine over the protocol
    (here the JavaScript engine of the protocol's tests, a program grn did not write)."""
    import shutil
    import sys

    if shutil.which("node") is None:
        pytest.skip("node not installed: the JavaScript engine cannot run")
    follower = Path(__file__).parent / "engines" / "follower.js"
    engines = {"follower": f"node {follower}", "grn": f"{sys.executable} -m grn engine --bot greedy",
               "bad": f"node {follower} --fault illegal"}
    with running(tmp_path / "club.db", engines=engines) as base:
        status, meta, _ = call(base, "GET", "/api/meta")
        assert "engine:follower" in meta["bots"] and not any("node" in b for b in meta["bots"])
        state = new_game(base, "gold", "Anna (red), engine:follower (blue), engine:grn (green)")
        state = person_turn(base, state, random.Random(3))
        status, after, _ = call(base, "POST", f"/api/games/{state['id']}/bots", {"base": state["base"]})
        assert status == 200, after
        assert [s["bot"] for s in after["said"]] == ["engine:follower", "engine:grn"]
        assert validate_record(parse(after["grn"])[0]).valid
        # an engine that answers an illegal move: its words, one line, and no turn is recorded for it
        state = new_game(base, "gold", "engine:bad (red+yellow), Anna (green+blue)")
        status, failed, _ = call(base, "POST", f"/api/games/{state['id']}/bots", {"base": state["base"]})
        assert status == 502 and failed["error"].startswith("engine:bad could not play: "), failed
        assert "\n" not in failed["error"] and "Traceback" not in failed["error"]
        status, still, _ = call(base, "GET", f"/api/games/{state['id']}")
        assert still["moves"]["turns"] == [] and still["bot_to_move"]


def test_several_people_at_one_table_with_bots_filling_seats(server):
    """Two people and two bots: the server plays the bots' seats only, and stops at each person's turn."""
    state = new_game(server, "goldrush", "Anna (red), greedy (blue), Ben (green), random (yellow)")
    rng = random.Random(4)
    for person in ("Anna", "Ben", "Anna"):
        assert state["player_name"] == person and not state["bot_to_move"]
        state = person_turn(server, state, rng)
        assert state["bot_to_move"]
        status, state, _ = call(server, "POST", f"/api/games/{state['id']}/bots", {"base": state["base"]})
        assert status == 200 and len(state["said"]) == 1, state
    assert [t["player"] for t in state["moves"]["turns"]] == ["Anna", "greedy", "Ben", "random", "Anna", "greedy"]


def test_a_hint_searches_what_the_person_knows():
    """R378: on a dealt game's main line the hint's position is the person to move's view (no face of a token
    another player mined); a game recorded at a table is searched as recorded."""
    from grn.rules import registry
    from grn.games.goldrush.commands import Mine
    from grn.rules.selfplay import to_record
    from grn.serve.bots import DEALER, DEALER_TAG, seen_position

    ruleset = registry.find_ruleset("goldrush")
    played = to_record(ruleset.selfplay(2, 3))
    mined = next(t for t in played.turns if any(isinstance(a, Mine) for a in t.actions))
    record = played.replace(tags=(*played.tags, (DEALER_TAG, DEALER)))
    pos = position_at(record, mined.number)
    assert pos.state.token_value and pos.state.current_player != mined.player
    assert not seen_position(record, pos).state.token_value
    assert seen_position(played, position_at(played, mined.number)).state.token_value


def test_engine_options_are_name_equals_command():
    from grn.serve.cli import engine_commands

    assert engine_commands(["ours=node our.js", "b.2=x --y"]) == {"ours": "node our.js", "b.2": "x --y"}
    for bad, said in [(["ours"], "NAME=CMD"), (["=node x"], "the name"), (["a b=x"], "the name"),
                      (["a=x", "a=y"], "given twice"), (["a= "], "NAME=CMD")]:
        problem = engine_commands(bad)
        assert isinstance(problem, str) and said in problem


def test_a_gold_rush_token_mined_by_a_person_shows_the_dealt_face():
    """R376: in a game against grn the page asks no face of a mined token: the deal gives it (and the turn
    played carries it)."""
    from grn.rules import registry
    from grn.games.goldrush.commands import Mine
    from grn.rules.selfplay import to_record
    from grn.serve.bots import dealt_actions, dealt_picks

    ruleset = registry.find_ruleset("goldrush")
    record = to_record(ruleset.selfplay(2, 3))
    turn = next(t for t in record.turns if any(isinstance(a, Mine) for a in t.actions))
    engine = position_at(record, turn.number - 1).state
    world = ruleset.determinise(engine, random.Random(5), ruleset.hand_of(turn.actions))
    place = turn.actions[0]
    words, auto = dealt_picks(ruleset, world, engine, [])
    assert words == [place.tile] and auto == [0]
    words += [f"{place.x},{place.y}", str(place.rotation)]
    step = ruleset.turn_step(engine, words)
    mine = next(o.word for o in step.options if "min" in o.label)
    words, auto = dealt_picks(ruleset, world, engine, [*words, mine])
    assert auto[-1] == 4 and len(words) >= 5 and words[4] != "?"
    step = ruleset.turn_step(engine, words)
    assert step.done, step.prompt
    played = dealt_actions(ruleset, world, engine, step.actions)
    assert next(a for a in played if isinstance(a, Mine)).value == int(words[4])
