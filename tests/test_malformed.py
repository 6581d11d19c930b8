"""Malformed records: ``grn fmt`` must exit 1 with a located, plain-words message.

Every case writes a record to a file, runs ``grn fmt`` on it through typer's
``CliRunner`` and checks the exit code, that no traceback escaped, that the
message names ``file:line:col`` exactly and says what is wrong, and (for GRN
text) that the offending line is shown with a caret under the column.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import grn.cli.app
from grn.notation import read as notation
from grn.core.errors import Span

GR = '[Game "goldrush"]\n\n'   # turns start on line 3
GOLD = '[Game "gold"]\n\n'
CA = '[Game "carcassonne"]\n\n'

# (id, text, line, column, key phrase)
CASES = [
    ("unclosed-tag-bracket", '[Game "goldrush"\n\n1. red 17@1,0\n', 3, 1, 'expected "]"'),
    ("unclosed-tag-bracket-2", '[Game "goldrush"]\n[Event "club"\n\n1. red 17@1,0\n', 4, 1, 'expected "]"'),
    ("tag-value-on-next-line", '[Game\n"goldrush"]\n\n1. red 17@1,0\n', 2, 1, "a tag stands on one line"),
    ("tag-bracket-on-next-line", '[Game "goldrush"\n]\n\n1. red 17@1,0\n', 2, 1, "a tag stands on one line"),
    ("tag-without-quotes", '[Event Club]\n\n1. red 17@1,0\n', 1, 8, 'expected a quoted "text"'),
    ("unterminated-string", '[Event "Club]\n\n1. red 17@1,0\n', 1, 8, 'expected a quoted "text"'),
    ("bad-tag-name", '[1Event "x"]\n\n1. red 17@1,0\n', 1, 2, "expected a tag name"),
    ("unknown-game", '[Event "x"]\n[Game "chess"]\n\n1. red 17@1,0\n', 2, 1, "unknown game 'chess'"),
    ("missing-turn-dot-first", GR + "1 red 17@1,0\n", 3, 1, "unexpected '1'"),
    ("missing-turn-dot-later", GR + "1. red 17@1,0\n2 blue 08@0,1\n", 4, 1, "unexpected '2'"),
    ("turn-number-not-a-number", GR + "a. red 17@1,0\n", 3, 1, 'a turn number such as "12."'),
    ("text-before-turns", GR + "hello\n1. red 17@1,0\n", 3, 1, "unexpected 'hello'"),
    ("player-missing", GR + "1. 17@1,0\n", 3, 4, "expected the acting player's colour"),
    ("player-missing-later", GR + "1. red 17@1,0\n2. +N\n", 4, 4, "expected the acting player's colour"),
    ("placement-double-comma", GR + "1. red 17@1,,0\n", 3, 8, "unexpected '17@1,,0'"),
    ("placement-letter-coordinate", GR + "1. red 17@x,1\n", 3, 8, "unexpected '17@x,1'"),
    ("placement-one-coordinate", GR + "1. red 17@1\n", 3, 8, "unexpected '17@1'"),
    ("rotation-45", GR + "1. red 17@1,0:45\n", 3, 8, "rotation 45 is not one of 0, 90, 180, 270"),
    ("rotation-360", GR + "1. red 17@1,0:360\n", 3, 8, "rotation 360 is not one of 0, 90, 180, 270"),
    ("rotation-negative", GR + "1. red 17@1,0:-90\n", 3, 14, "unexpected ':-90'"),
    ("unknown-cowboy-place", GR + "1. red 17@1,0 +Q\n", 3, 15, "'Q' is not a place on a tile"),
    ("unknown-follower-place", CA + "1. red L@1,0 +Q\n", 3, 14, "'Q' is not a place on a tile"),
    ("lower-case-follower-place", CA + "1. red L@1,0 +n\n", 3, 14, "unexpected '+n'"),
    ("lower-case-cowboy-place", GR + "1. red 17@1,0 +n\n", 3, 15, "unexpected '+n'"),
    ("tent-unknown-place", GR + "1. red 17@1,0 tent@1,0:QQ\n", 3, 15, "'QQ' is not a place on a tile"),
    ("tent-without-coordinates", GR + "1. red 17@1,0 tent\n", 3, 15, "unexpected 'tent'"),
    ("tent-at-without-coordinates", GR + "1. red 17@1,0 tent@ +N\n", 3, 15, "unexpected 'tent"),
    ("mine-x", GR + "1. red 17@1,0 mine=x\n", 3, 19, "unexpected '=x'"),
    ("tokens-empty", GR + "1. red 17@1,0 tokens=\n", 3, 15, "unexpected 'tokens"),
    ("tokens-empty-item", GR + "1. red 17@1,0 tokens=2,,3\n", 3, 23, "unexpected ',,3'"),
    ("discard-without-tile", GR + "1. red discard\n", 3, 8, "unexpected 'discard'"),
    ("unclosed-variation", GR + "1. red 17@1,0 (1. red 18@1,0\n2. blue 19@2,0\n", 4, 15,
     'the game ends too early; expected ")"'),
    ("stray-close-paren", GR + "1. red 17@1,0 )\n2. blue 08@0,1\n", 3, 15, "unexpected ')'"),
    ("empty-variation", GR + "1. red 17@1,0 ()\n", 3, 16, "unexpected ')'"),
    ("variation-without-turn", GR + "1. red 17@1,0 ({only a note})\n", 3, 29, "unexpected ')'"),
    ("unclosed-brace-comment", GR + "1. red 17@1,0 {oops\n2. blue 08@0,1\n", 3, 15, "never closed"),
    ("unknown-markup-kind", GR + "1. red 17@1,0 <circle 1,0>\n", 3, 16, "unknown markup <circle>"),
    ("markup-label-one-argument", GR + "1. red 17@1,0 <label 1,0>\n", 3, 16, "<label> takes 2 arguments, not 1"),
    ("markup-arrow-one-argument", GR + "1. red 17@1,0 <arrow 1,0>\n", 3, 16, "<arrow> takes 2 to 3 arguments, not 1"),
    ("markup-ghost-two-arguments", GR + "1. red 17@1,0 <ghost 17@1,0 18@2,0>\n", 3, 16, "<ghost> takes 1"),
    ("markup-highlight-no-argument", GR + "{x} <highlight>\n1. red 17@1,0\n", 3, 6,
     "<highlight> takes 1 to 2 arguments, not 0"),
    ("markup-unclosed", GR + "1. red 17@1,0 <highlight 1,0\n2. blue 08@0,1\n", 4, 15,
     'the game ends too early; expected ">"'),
    ("markup-unterminated-string", GR + '1. red 17@1,0 <label 1,0 "abc>\n', 3, 26, "unexpected character '\"'"),
    ("score-item-without-number", GR + "1. red 17@1,0 score red=\n", 3, 21, "expected a score such as red=12"),
    ("score-item-without-equals", GR + "1. red 17@1,0 score red=5 blue\n", 3, 27, "unexpected 'blue'"),
    ("score-without-items", GR + "1. red 17@1,0 score\n", 3, 20, "expected a score such as red=12"),
    ("gold-unknown-colour", GOLD + "1. red a1=pink3 b2=G3\n", 3, 8, "'pink' is not a miner colour"),
    ("gold-flip-missing-face", GOLD + "1. red a1= b2=G3\n", 3, 8, "unexpected 'a1'"),
    ("gold-flip-gold-without-value", GOLD + "1. red a1=G b2=G3\n", 3, 8, "unexpected 'a1'"),
    ("gold-upper-case-position", GOLD + "1. red A1=G3\n", 3, 8, "unexpected 'A1'"),
    ("goldrush-action-in-gold-game", GOLD + "1. red 17@1,0\n", 3, 8, "a card turned such as c4=G3"),
    ("gold-action-in-goldrush-game", GR + "1. red a1=G3\n", 3, 8, "a tile placement such as 17@1,0:90"),
    ("stray-hash", GR + "1. red 17@1,0 #\n", 3, 15, "unexpected '#'"),
    ("stray-ampersand", GR + "1. red & 17@1,0\n", 3, 8, "unexpected '&'"),
    ("bare-dollar", GR + "1. red 17@1,0 $\n", 3, 15, "unexpected '$'"),
]


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def run_fmt(runner: CliRunner, path) -> object:
    return runner.invoke(grn.cli.app.app, ["fmt", str(path)])


def assert_clean_failure(result) -> None:
    assert result.exit_code == 1, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    # A reported problem is not a crash: typer must have exited normally.
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


def test_enough_cases():
    assert len(CASES) >= 35
    assert len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("name,text,line,col,phrase", CASES, ids=[c[0] for c in CASES])
def test_malformed_record(runner, tmp_path, name, text, line, col, phrase):
    path = tmp_path / "game.grn"
    path.write_text(text, encoding="utf-8")
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    out = result.output
    assert f"{path}:{line}:{col}: error:" in out, out
    assert phrase in out, out
    assert result.stdout == "", "fmt prints no record of a file with errors"
    # The offending line, then a caret under the column.
    source = text.splitlines()[line - 1]
    assert "    " + source + "\n" in out, out
    assert "\n    " + " " * (col - 1) + "^\n" in out, out


@pytest.mark.parametrize("name,text,line,col,phrase", CASES, ids=[c[0] for c in CASES])
def test_malformed_record_library_diagnostic(name, text, line, col, phrase):
    """The reader reports the same place as a Diagnostic and raises nothing."""
    records = notation.parse(text, file="x.grn")
    problems = [d for r in records for d in r.diagnostics]
    assert problems, records
    assert problems[0].span.line == line and problems[0].span.column == col
    assert phrase in problems[0].message
    assert problems[0].severity == "error"
    assert not any(r.ok for r in records if r.diagnostics)


SECOND_GAME_BAD = (
    '[Game "goldrush"]\n'      # 1
    '[Event "good"]\n'         # 2
    '\n'                       # 3
    '1. red 17@1,0 +N\n'       # 4
    '\n'                       # 5
    '[Game "goldrush"]\n'      # 6  second game, its line 1
    '[Event "bad"]\n'          # 7  2
    '\n'                       # 8  3
    '{notes}\n'                # 9  4
    '1. red 17@1,0\n'          # 10 5
    '2. blue 08@0,1\n'         # 11 6
    '3. red 12a@1,,1\n'        # 12 7  <- the error
    '4. blue 33@0,2\n'         # 13
)


def test_error_on_line_7_of_second_game(runner, tmp_path):
    path = tmp_path / "two.grn"
    path.write_text(SECOND_GAME_BAD, encoding="utf-8")
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    assert f"{path}:12:8: error:" in result.output
    assert "unexpected '12a@1,,1'" in result.output
    assert "    3. red 12a@1,,1\n" in result.output
    assert result.stdout == ""
    # Only the second game has a problem; the first reads cleanly.
    first, second = notation.parse(SECOND_GAME_BAD, file="two.grn")
    assert first.diagnostics == () and first.ok
    assert first.tag("Event") == "good" and len(first.turns) == 1
    assert len(second.diagnostics) == 1
    (diag,) = second.diagnostics
    assert diag.span == Span(12, 8)
    assert diag.game == 1
    assert second.tag("Event") == "bad"
    assert not second.ok


def test_errors_in_several_games_are_all_reported(runner, tmp_path):
    text = GR + "1. red 17@1,0:45\n\n[Game \"goldrush\"]\n\n1. red 17@1,0 +Q\n"
    path = tmp_path / "g.grn"
    path.write_text(text, encoding="utf-8")
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    assert f"{path}:3:8: error: rotation 45" in result.output
    assert f"{path}:7:15: error: 'Q' is not a place" in result.output


def test_non_utf8_bytes(runner, tmp_path):
    path = tmp_path / "latin1.grn"
    path.write_bytes(b'[Game "goldrush"]\n\n1. red 17@1,0 {caf\xe9}\n')
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    assert "UTF-8" in result.output
    # docs/notation.md section 9: every problem names file, line and column.
    assert f"{path}:3:19:" in result.output, result.output


def test_non_utf8_bytes_names_the_file(runner, tmp_path):
    path = tmp_path / "latin1.grn"
    path.write_bytes(b'[Event "Z\xfcrich"]\n\n1. red 17@1,0\n')
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    assert str(path) in result.output and "UTF-8" in result.output


def test_missing_file(runner, tmp_path):
    path = tmp_path / "nowhere.grn"
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    assert str(path) in result.output
    assert "no such file" in result.output


def test_missing_file_among_good_ones(runner, tmp_path):
    good = tmp_path / "good.grn"
    good.write_text(GR + "1. red 17@1,0\n", encoding="utf-8")
    missing = tmp_path / "missing.grn"
    result = runner.invoke(grn.cli.app.app, ["fmt", str(good), str(missing)])
    assert_clean_failure(result)
    assert f"{missing}: error: no such file" in result.output
    assert "1. red 17@1,0" in result.stdout


def _json_doc(action: dict) -> dict:
    return {"grn": 1, "games": [{"tags": [["Game", "goldrush"]], "intro": [],
                                 "turns": [{"number": 1, "player": "red", "actions": [action],
                                            "extras": []}]}]}


@pytest.mark.parametrize("document,json_path,phrase", [
    (_json_doc({"type": "place", "tile": "17", "x": "1", "y": 0}), "$.games[0].turns[0].actions[0].x",
     "is not of type 'integer'"),
    (_json_doc({"type": "place", "tile": "17", "x": 1, "y": 0, "rotation": 45}),
     "$.games[0].turns[0].actions[0].rotation", "45"),
    (_json_doc({"type": "cowboy", "location": "Q"}), "$.games[0].turns[0].actions[0].location", "'Q'"),
    ({"grn": 1, "games": [{"tags": [["Game", "goldrush"]], "turns": [{"number": -1, "player": "red",
                                                                       "actions": []}]}]},
     "$.games[0].turns[0].number", "-1"),
    ({"games": []}, "$:", "'grn' is a required property"),
    ({"grn": 1, "games": [{"tags": [["Event", "a\nb"]], "turns": []}]}, "$.games[0].tags[0][1]", "match"),
])
def test_json_violating_schema(runner, tmp_path, document, json_path, phrase):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    assert f"{path}: error: {json_path}" in result.output, result.output
    assert phrase in result.output


def test_invalid_json(runner, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"grn": 1,\n "games": [}\n', encoding="utf-8")
    result = run_fmt(runner, path)
    assert_clean_failure(result)
    assert f"{path}:2:12: error: not valid JSON" in result.output


def test_fmt_without_arguments_is_a_usage_error(runner):
    result = runner.invoke(grn.cli.app.app, ["fmt"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "Missing argument" in result.output


def test_convert_reports_the_same_errors(runner, tmp_path):
    path = tmp_path / "game.grn"
    path.write_text(GR + "1. red 17@1,0 +Q\n", encoding="utf-8")
    result = runner.invoke(grn.cli.app.app, ["convert", str(path), "--to", "json"])
    assert_clean_failure(result)
    assert f"{path}:3:15: error: 'Q' is not a place" in result.output
    assert result.stdout == ""
