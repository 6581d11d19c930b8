"""A game is a plug-in: a toy game defined only in tests/ runs through every command.

``tests/toygame`` (Nim) has its own grammar snippet, command, codec, engine,
drawing and self-play.  Registered with :func:`grn.games.register`, it is
validated, formatted, converted both ways, drawn and shown by the same code
as the shipped games, with no change to ``grn/``.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from grn import games
from grn.cli.app import app
from tests.toygame import RULESET, LastStone, Take

runner = CliRunner()

GAME = """[Game "nim"]
[Event "toy"]
[Players "Ann (red), Bob (blue)"]
[Result "red 1, blue 0"]

1. red take=3 {a greedy start}
2. blue take=3 (2. blue take=1 3. red take=2)
3. red take=3
4. blue take=3
5. red take=3 score red=1 blue=0
"""


@pytest.fixture(autouse=True)
def nim():
    games.register(RULESET)
    yield
    games.unregister("nim")


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def test_found_by_name_and_alias_and_listed():
    assert games.find_ruleset("Nim") is RULESET
    assert games.find_ruleset("toy nim") is RULESET
    assert "nim" in games.names()
    with pytest.raises(games.UnknownGame, match="nim"):
        games.find_ruleset("chess")  # the message lists the known games, this one too


def test_validate_replays_and_scores():
    result = run("validate", "--format", "json", "-", stdin=GAME)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["files"][0]["games"][0]
    assert report["game"] == "nim" and report["valid"] and report["complete"]
    assert report["final_scores"] == {"red": 1, "blue": 0}
    assert report["turns"][-1]["events"] == ["red takes the last stone and scores 1"]


def test_illegal_move_is_reported_at_its_line_and_column_with_the_rule():
    bad = GAME.replace("4. blue take=3", "4. blue take=4")
    result = run("validate", "-", stdin=bad)
    assert result.exit_code == 1
    assert "<stdin>:9:9: error: cannot take 4 stones from a heap of 6" in result.stderr
    assert "take 1, 2 or 3 stones" in result.stderr


def test_syntax_error_names_the_codec_words():
    result = run("validate", "-", stdin=GAME.replace("3. red take=3", "3. red grab=3"))
    assert result.exit_code == 1
    assert "stones taken such as take=2" in result.stderr


def test_meaningless_word_is_the_codec_problem():
    result = run("validate", "-", stdin=GAME.replace("1. red take=3", "1. red take=0"))
    assert result.exit_code == 1 and "take=0 takes nothing" in result.stderr


def test_fmt_and_convert_round_trip():
    fmt = run("fmt", "-", stdin=GAME)
    assert fmt.exit_code == 0, fmt.output
    assert "2. blue take=3 (2. blue take=1 3. red take=2)" in fmt.stdout
    as_json = run("convert", "-", "--to", "json", stdin=GAME)
    assert as_json.exit_code == 0, as_json.output
    doc = json.loads(as_json.stdout)
    assert doc["games"][0]["turns"][0]["actions"] == [{"type": "take", "count": 3}]
    back = run("convert", "-", "--from", "json", "--to", "grn", stdin=as_json.stdout)
    assert back.exit_code == 0, back.output
    assert back.stdout == fmt.stdout


def test_json_schema_includes_the_plugin_command():
    from grn.notation.jsonform import record_schema

    action = record_schema()["$defs"]["action"]
    assert "take" in action["properties"]["type"]["enum"]


def test_json_action_of_another_game_is_refused_with_its_path():
    doc = json.loads(run("convert", "-", "--to", "json", stdin=GAME).stdout)
    doc["games"][0]["turns"][1]["actions"] = [{"type": "cowboy", "location": "N"}]
    result = run("convert", "-", "--from", "json", "--to", "grn", stdin=json.dumps(doc))
    assert result.exit_code == 1
    assert "$.games[0].turns[1].actions[0].type: 'cowboy' is not an action of the game 'nim'" in result.stderr


def test_render_and_show():
    svg = run("render", "-", "--turn", "2", stdin=GAME)
    assert svg.exit_code == 0, svg.output
    assert svg.stdout.count('class="stone"') == 9
    show = run("show", "-", "--turn", "2", stdin=GAME)
    assert show.exit_code == 0 and "9 stones in the heap" in show.stdout and "next: Ann (red)" in show.stdout


def test_html_page():
    from grn.render.html import viewer_data

    page = run("html", "-", stdin=GAME)
    assert page.exit_code == 0, page.output
    data = viewer_data(page.stdout)
    nodes = data["games"][0]["nodes"]
    # the start, five main-line turns, the variation's two turns (no final scoring: the toy game has none)
    assert [n["a"] for n in nodes] == ["0", "1", "2", "2(1)2", "2(1)3", "3", "4", "5"]
    assert nodes[1]["c"] == ["a greedy start"] and nodes[-1]["e"] == ["red takes the last stone and scores 1"]
    assert any('class="stone"' in item for item in data["items"].split("\n"))


def test_selfplay_writes_games_that_validate():
    made = run("selfplay", "--game", "nim", "--players", "3", "--seed", "4", "--games", "3")
    assert made.exit_code == 0, made.output
    checked = run("validate", "-", stdin=made.stdout)
    assert checked.exit_code == 0, checked.output
    assert "3 games checked, 3 valid: ok" in checked.stdout


def test_engine_defaults():
    from grn.core.errors import IllegalAction
    from tests.toygame import NimState

    state = NimState(["red", "blue"])
    with pytest.raises(IllegalAction, match="no set-up turns"):
        state.setup("red", [Take(1)])
    assert state.final_scoring() == [] and state.score_ranges() == {"red": (0, 0), "blue": (0, 0)}
    assert not state.is_blocked
    assert LastStone("red").to_json() == {"type": "LastStone", "player": "red"}


def test_import_and_export_through_the_plugin_hooks(tmp_path):
    """grn import / grn export find a game's own formats through Ruleset.importers() and exporters()."""
    src = tmp_path / "game.nimmoves"
    src.write_text("players: red blue\n3 3 3 3 3\n")
    result = run("import", str(src), "--tag", "Event=toy")
    assert result.exit_code == 0, result.output
    assert result.stdout == '[Game "nim"]\n[Players "red, blue"]\n[Event "toy"]\n\n1. red take=3\n2. blue take=3\n' \
                            "3. red take=3\n4. blue take=3\n5. red take=3\n"
    grn_file = tmp_path / "game.grn"
    grn_file.write_text(result.stdout)
    assert run("validate", str(grn_file)).exit_code == 0
    out = run("export", str(grn_file), "--to", "nimmoves")
    assert out.exit_code == 0 and out.stdout == "players: red blue\n3 3 3 3 3\n"
    src.write_text("players: red blue\n3 x\n")
    bad = run("import", str(src))
    assert bad.exit_code == 1 and bad.output == f"{src}: move 2: error: 'x' is not a number of stones\n"
    # the comments and variations of a record have no place in the format: a note says so
    (tmp_path / "rich.grn").write_text(GAME)
    note = run("export", str(tmp_path / "rich.grn"), "--to", "nimmoves")
    assert note.exit_code == 0 and "1 comment, 1 variation, 1 score checkpoint" in note.stderr
