"""Hostile and huge input: a clear message at a line and column, never a traceback, bounded work.

Each test is a class of failure a fuzzing round found (issue 16), fixed at its
root: numbers have at most 9 digits, variations nest at most 100 deep, JSON
gets every check GRN text gets, lines end at "\\n" only, and convert streams.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli.app import app
from grn.core.record import MAX_VARIATION_DEPTH

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
HEAD = '[Game "goldrush"]\n[Players "Ann (red), Ben (blue)"]\n\n'
GOLD = '[Game "gold"]\n[Players "Ann (red+yellow), Ben (green+blue)"]\n\n'
HUGE = "9" * 5000


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def _clean(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("text, where", [
    (HEAD + f"{HUGE}. red 47a@-1,0\n", "4:1"),
    (HEAD + f"1. red 47a@-1,{HUGE}\n", "4:8"),
    (HEAD + f"1. red 47a@-1,0:{HUGE}\n", "4:8"),
    (HEAD + f"1. red 47a@-1,0 score red={HUGE}\n", "4:23"),
    (HEAD + f"1. red 47a@-1,0 tent@0,{HUGE}\n", "4:17"),
    (HEAD + f"1. red 47a@-1,0 mine={HUGE}\n", "4:17"),
    (HEAD + f"1. red 47a@-1,0 tokens=1,{HUGE}\n", "4:17"),
    (GOLD + f"1. red a1=G{HUGE} b1=G2\n", "4:8"),
    (GOLD + f"1. red a1=red{HUGE} b1=G2\n", "4:8"),
])
def test_a_number_too_long_is_an_error_at_its_place(text: str, where: str):
    for command in (["validate", "-"], ["fmt", "-"], ["convert", "-", "--to", "json"], ["render", "-"]):
        result = run(*command, stdin=text)
        _clean(result)
        assert result.exit_code == 1, (command, result.output)
        assert f"<stdin>:{where}: error:" in result.stderr and "at most 9 digits" in result.stderr


def test_a_huge_result_or_turn_address_is_a_message():
    text = (ROOT / "examples" / "goldrush-2p.grn").read_text(encoding="utf-8")
    bad = text.replace('[Result "', f'[Result "red {HUGE}, ', 1)
    result = run("validate", "-", stdin=bad)
    _clean(result)
    assert result.exit_code == 1 and "at most 9 digits" in result.stderr
    for turn in (HUGE, "²", "٣", "1(1)" + HUGE):
        result = run("render", str(ROOT / "examples" / "goldrush-2p.grn"), "--turn", turn)
        _clean(result)
        assert result.exit_code == 2 and "cannot read the position" in result.stderr


CARC = '[Game "carcassonne"]\n[Players "Ann (red), Ben (blue)"]\n\n'


@pytest.mark.parametrize("head, move", [(HEAD, "47a@-1,0"), (CARC, "U@1,0")])
@pytest.mark.parametrize("digits", [10, 400, 5000])
def test_markup_far_off_the_board_draws_without_overflowing(head: str, move: str, digits: int):
    big = "9" * digits
    text = head + (f'1. {"red"} {move} <highlight {big},0> <arrow 0,0 1,{big}> <label {big},1 "x"> '
                   f'<highlight 0,-{big}:N> <ghost U@{big},0>\n')
    checked = run("validate", "-", stdin=text)
    _clean(checked)
    assert checked.exit_code == 1 and "a coordinate has at most 9 digits" in checked.stderr
    # render says what validate says, in the same form, and draws nothing (issue 25, R89)
    result = run("render", "-", "--turn", "1", stdin=text)
    _clean(result)
    assert result.exit_code == 1 and not result.stdout
    assert result.stderr.splitlines()[0] == checked.stderr.splitlines()[0]


def _nested(depth: int) -> str:
    return HEAD + "1. red 47a@-1,0 " + "(1. red 47a@-1,0 " * depth + ")" * depth + "\n"


def test_variations_nested_too_deep_are_an_error_at_the_one_that_passes_the_limit():
    result = run("validate", "-", stdin=_nested(MAX_VARIATION_DEPTH + 1))
    _clean(result)
    assert result.exit_code == 1
    column = len("1. red 47a@-1,0 ") + len("(1. red 47a@-1,0 ") * MAX_VARIATION_DEPTH + 1
    assert f"<stdin>:4:{column}: error: variations nest more than {MAX_VARIATION_DEPTH} deep" in result.stderr
    deep = run("validate", "-", stdin=_nested(30_000))
    _clean(deep)
    assert deep.exit_code == 1 and "variations nest more than" in deep.stderr


def test_the_deepest_allowed_record_goes_through_every_command_and_its_json_reads_back():
    text = _nested(MAX_VARIATION_DEPTH)
    assert run("validate", "-", stdin=text).exit_code == 0
    canonical = run("fmt", "-", stdin=text)
    assert canonical.exit_code == 0
    as_json = run("convert", "-", "--to", "json", stdin=text)
    assert as_json.exit_code == 0
    back = run("convert", "-", "--from", "json", "--to", "grn", stdin=as_json.stdout)
    _clean(back)
    assert back.exit_code == 0 and back.stdout == canonical.stdout
    assert run("html", "-", stdin=text).exit_code == 0


def _json(text: str) -> dict:
    return json.loads(run("convert", "-", "--to", "json", stdin=text).stdout)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["games"][0]["turns"][0]["actions"][0].update(x=1.0), "1.0 is not a whole number"),
    (lambda d: d["games"][0]["turns"][0]["actions"][0].update(x=1e300), "is not a whole number"),
    (lambda d: d["games"][0]["turns"][0].update(player="red\n"), "would not read back"),
    (lambda d: d["games"][0]["turns"][0]["actions"].append({"type": "flip", "pos": "a1",
                                                             "face": {"kind": "dynamite"}}),
     "'flip' is not an action of the game 'goldrush'"),
    (lambda d: d["games"][0]["tags"].__setitem__(0, ["Game", "chess"]), "unknown game 'chess'"),
    (lambda d: d["games"][0]["turns"][0]["extras"].append({"type": "markup", "kind": "arrow", "args": ["0,0"]}),
     "<arrow> takes 2 to 3 arguments"),
])
def test_json_the_schema_accepts_but_grn_cannot_use_is_refused_with_its_path(change, message):
    doc = _json(HEAD + "1. red 47a@-1,0\n")
    change(doc)
    for command in (["validate", "-"], ["convert", "-", "--from", "json", "--to", "grn"]):
        result = run(*command, stdin=json.dumps(doc))
        _clean(result)
        assert result.exit_code == 1, (command, result.output)
        assert message in result.stderr


def test_huge_and_deep_json_are_messages():
    doc = json.dumps(_json(HEAD + "1. red 47a@-1,0\n")).replace('"x": -1', f'"x": -{HUGE}')
    result = run("validate", "-", stdin=doc)
    _clean(result)
    assert result.exit_code == 1 and "$.games[0].turns[0].actions[0].x" in result.stderr
    deep = '{"grn": 1, "games": ' + "[" * 100_000 + "]" * 100_000 + "}"
    result = run("validate", "-", stdin=deep)
    _clean(result)
    assert result.exit_code == 1 and "nested too deep" in result.stderr


@pytest.mark.parametrize("odd", ["\f", "\u2028", "\v"])
def test_the_line_under_an_error_is_the_line_of_the_error(odd: str):
    text = HEAD + f"1. red 47a@-1,0 {{a{odd}b}}\n2. red 47a@-2,0\n"
    result = run("validate", "-", stdin=text)
    _clean(result)
    lines = result.stderr.splitlines()
    assert lines[0].startswith("<stdin>:5:8: error: it is blue's turn")
    assert lines[1].strip() == "2. red 47a@-2,0"


def test_a_file_whose_lines_end_in_lone_cr_is_one_line(tmp_path: Path):
    path = tmp_path / "cr.grn"
    path.write_bytes(HEAD.replace("\n", "\r").encode() + b"1. red 47a@-1,0\r2. red 47a@-2,0\r")
    result = run("validate", str(path))
    _clean(result)
    first, shown, caret = result.stderr.splitlines()[:3]
    assert first.startswith(f"{path}:1:") and "blue's turn" in first
    assert shown[caret.index("^"):].startswith("47a@-2,0")  # the caret points at the action


def test_a_game_tag_written_with_a_form_feed_reads_with_its_game_grammar():
    result = run("validate", "-", stdin='[Game\f"gold"]\n[Players "A (red+yellow), B (green+blue)"]\n\n1. red a1=G3 b1=G2\n')
    _clean(result)
    assert result.exit_code == 0, result.output


def test_render_names_the_line_and_column_of_a_header_problem():
    result = run("render", "-", stdin='[Game "goldrush"]\n[Players "Ann (purple), Ben (blue)"]\n\n1. red 47a@-1,0\n')
    _clean(result)
    assert result.exit_code == 1 and "<stdin>:2:2: error: game 1: Players tag: unknown colour 'purple'" in result.stderr


def test_convert_with_an_error_leaves_no_half_written_file(tmp_path: Path):
    text = HEAD + "1. red 47a@-1,0\n\n" + HEAD + f"1. red 47a@-1,{HUGE}\n"
    out = tmp_path / "out.json"
    result = run("convert", "-", "--to", "json", "-o", str(out), stdin=text)
    assert result.exit_code == 1 and not out.exists() and not list(tmp_path.iterdir())
    good = run("convert", "-", "--to", "json", "-o", str(out), stdin=HEAD + "1. red 47a@-1,0\n")
    assert good.exit_code == 0 and json.loads(out.read_text())["games"]


def test_a_line_or_a_game_too_long_is_an_error_and_is_not_kept(tmp_path: Path):
    from grn.notation.read import MAX_GAME_CHARS, MAX_LINE_CHARS

    path = tmp_path / "long.grn"
    path.write_text(HEAD + "{" + "x" * (MAX_LINE_CHARS + 10) + "}\n1. red 47a@-1,0\n\n" + HEAD + "1. red 47a@-1,0\n",
                    encoding="utf-8")
    result = run("validate", str(path))
    _clean(result)
    assert result.exit_code == 1
    assert f"{path}:4:1: error: line 4 is longer than {MAX_LINE_CHARS:,} characters" in result.stderr
    assert "2 games checked, 1 valid" in result.stdout  # the next game is read as usual
    many = tmp_path / "many.grn"
    line = "y" * 900_000 + "\n"
    many.write_text(HEAD + "{" + line * (MAX_GAME_CHARS // len(line) + 2) + "}\n1. red 47a@-1,0\n", encoding="utf-8")
    result = run("validate", str(many))
    _clean(result)
    assert result.exit_code == 1 and f"the game is longer than {MAX_GAME_CHARS:,} characters" in result.stderr


def test_a_word_one_game_reserves_is_a_tile_id_in_another_and_its_json_reads_back():
    # "ingot@1,0" is The Gold Mines' ingot in Carcassonne, but a tile named "ingot" in Gold Rush
    # (unknown to its tile set: an illegal move, not a syntax error); convert must write JSON that reads back
    text = HEAD + "1. red ingot@1,0\n"
    doc = _json(text)
    assert doc["games"][0]["turns"][0]["actions"][0] == {"type": "place", "tile": "ingot", "x": 1, "y": 0,
                                                          "rotation": 0}
    back = run("convert", "-", "--from", "json", "--to", "grn", stdin=json.dumps(doc))
    _clean(back)
    assert back.exit_code == 0 and "1. red ingot@1,0" in back.stdout
    # in Carcassonne's JSON the same object is refused, with its path
    carc = _json('[Game "carcassonne"]\n[Players "Ann (red), Ben (blue)"]\n\n1. red U@1,0\n')
    carc["games"][0]["turns"][0]["actions"][0]["tile"] = "ingot"
    result = run("validate", "-", stdin=json.dumps(carc))
    _clean(result)
    assert result.exit_code == 1
    assert "$.games[0].turns[0].actions[0].tile" in result.stderr and "'carcassonne'" in result.stderr


@pytest.mark.parametrize("header", [
    '[Round "1"][Game "carcassonne"][Players "Ann (red), Ben (blue)"]\n\n',
    '[Round "1"] \t [Game "carcassonne"]\n[Players "Ann (red), Ben (blue)"]\n\n',
    '[Event "unclosed]\n[Game "carcassonne"]\n[Players "Ann (red), Ben (blue)"]\n\n',
])
def test_the_game_tag_chooses_the_grammar_wherever_the_header_puts_it(header: str, tmp_path: Path):
    # "+E" is a follower in Carcassonne (and a cowboy in Gold Rush): read with the game's own grammar,
    # what convert writes reads back
    text = header + "1. red U@1,0 +E\n"
    result = run("convert", "-", "--to", "json", stdin=text)
    _clean(result)
    if header.startswith('[Event "unclosed'):
        assert result.exit_code == 1 and "1:8" in result.stderr and "cowboy" not in result.stderr
        return
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games"][0]["turns"][0]["actions"][1]["type"] == "follower"
    back = run("convert", "-", "--from", "json", "--to", "grn", stdin=result.stdout)
    _clean(back)
    assert back.exit_code == 0 and "+E" in back.stdout


def test_a_game_tag_quoted_in_another_tag_is_not_the_game_tag():
    result = run("validate", "-", stdin='[Event "[Game \\"gold\\"]"]\n' + HEAD + "1. red 47a@-1,0\n")
    _clean(result)
    assert "a1=" not in result.stderr and result.exit_code in (0, 1)
    assert "syntax error" not in result.stderr


def test_json_whose_grn_would_pass_the_line_limit_is_refused_not_written(tmp_path: Path):
    from grn.notation.read import MAX_LINE_CHARS

    doc = _json(HEAD + "1. red 47a@-1,0 {x}\n")
    doc["games"][0]["turns"][0]["extras"][0]["text"] = "y" * (MAX_LINE_CHARS + 1)
    source = tmp_path / "long.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "long.grn"
    result = run("convert", str(source), "--to", "grn", "-o", str(out))
    _clean(result)
    assert result.exit_code == 1 and not out.exists()
    assert "$.games[0]: line 5 of its GRN text would be" in result.stderr  # the comment on a line of its own (R68) and "a GRN line may hold" in result.stderr


@pytest.mark.parametrize("comment", ["{%s}", ";%s"])
def test_fmt_and_convert_keep_every_line_within_the_limit(tmp_path: Path, comment: str):
    # a comment filling its own line, after a turn: written on the turn's line it would pass the limit
    from grn.notation.read import MAX_LINE_CHARS

    body = comment % ("y" * (MAX_LINE_CHARS - 2))
    source = tmp_path / "long.grn"
    source.write_text(HEAD + "1. red 47a@-1,0 ! <highlight 0,0>\n" + body + "\n2. blue 08@0,1\n", encoding="utf-8")
    formatted = run("fmt", str(source))
    _clean(formatted)
    assert formatted.exit_code == 0
    assert max(len(line) for line in formatted.stdout.split("\n")) <= MAX_LINE_CHARS
    again = tmp_path / "again.grn"
    again.write_text(formatted.stdout, encoding="utf-8")
    assert run("fmt", str(again)).stdout == formatted.stdout  # the canonical form is a fixed point
    there = tmp_path / "long.json"
    assert run("convert", str(source), "--to", "json", "-o", str(there)).exit_code == 0
    back = run("convert", str(there), "--to", "grn")
    _clean(back)
    assert back.exit_code == 0 and back.stdout == formatted.stdout


def test_json_games_of_tags_only_followed_by_another_game_are_refused(tmp_path: Path):
    # GRN text has no way to end a game that has no moves: the next game's tags would join its own (R69)
    doc = {"grn": 1, "games": [{"tags": [["Event", "a"]], "turns": []}, {"tags": [["Event", "b"]], "turns": []}]}
    source = tmp_path / "tags.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    result = run("convert", str(source), "--to", "grn")
    _clean(result)
    assert result.exit_code == 1 and "$.games[0]: this game is header tags only" in result.stderr
    doc["games"].pop()  # alone, or last, it reads back
    source.write_text(json.dumps(doc), encoding="utf-8")
    result = run("convert", str(source), "--to", "grn")
    assert result.exit_code == 0 and result.stdout == '[Event "a"]\n'
