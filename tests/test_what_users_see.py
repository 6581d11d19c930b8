"""What a player sees: final scores at the end, clear messages instead of silent no-ops, no markup on a terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn
from grn.cli.app import app
from grn.rules.position import PositionError, position_at
from grn.check.validate import parse_result

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


# -- the end of a finished game is after its final scoring ------------------------

@pytest.mark.parametrize("name", ["goldrush-4p-farmers.grn", "goldrush-2p.grn", "gold-2p.grn"])
def test_the_last_position_of_a_finished_game_has_the_final_scores(name: str):
    (record,) = list(grn.read(EXAMPLES / name))
    pos = position_at(record)
    assert pos.final and pos.state.scores == parse_result(record.tag("Result"))
    shown = run("show", str(EXAMPLES / name))
    assert shown.exit_code == 0 and "and the final scoring" in shown.stdout
    for player, points in parse_result(record.tag("Result")).items():
        assert f"({player}): {points} points" in shown.stdout


def test_the_4p_example_ends_31_22_32_47_and_the_last_turn_names_the_position_before():
    path = str(EXAMPLES / "goldrush-4p-farmers.grn")
    end = run("show", path).stdout
    for line in ("Ada (red): 31 points", "Bo (yellow): 22 points", "Cy (green): 32 points", "Di (blue): 47 points"):
        assert line in end
    assert "final scoring: blue scores" in end
    before = run("show", path, "--turn", "71").stdout
    assert "Ada (red): 17 points" in before and "final scoring" not in before
    svg = run("render", path).stdout
    assert ">31<" in svg.replace(" ", "") or "31" in svg


def test_final_names_the_final_scoring_and_refuses_an_unfinished_game():
    assert run("show", str(EXAMPLES / "goldrush-2p.grn"), "--turn", "final").exit_code == 0
    result = run("show", str(EXAMPLES / "goldrush-rules-question.grn"), "--turn", "final")
    assert result.exit_code == 2 and "the game is not over" in result.stderr
    (record,) = list(grn.read(EXAMPLES / "goldrush-rules-question.grn"))
    assert not position_at(record).final
    with pytest.raises(PositionError):
        position_at(record, "final")


# -- no silent no-ops ------------------------------------------------------------

def test_drawing_flags_a_game_has_no_use_for_are_usage_errors():
    legal = run("render", str(EXAMPLES / "gold-2p.grn"), "--legal")
    assert legal.exit_code == 2 and "--legal is not for Gold" in legal.stderr
    reveal = run("render", str(EXAMPLES / "goldrush-2p.grn"), "--reveal")
    assert reveal.exit_code == 2 and "--reveal is not for Carcassonne: Gold Rush" in reveal.stderr


def test_legal_says_why_it_cannot_draw():
    at_end = run("render", str(EXAMPLES / "goldrush-2p.grn"), "--legal")
    assert at_end.exit_code == 2 and "the game is over" in at_end.stderr
    text = (EXAMPLES / "goldrush-rules-question.grn").read_text(encoding="utf-8")
    ends = run("render", "-", "--legal", stdin=text)
    assert ends.exit_code == 2 and "does not say which tile comes next" in ends.stderr
    assert run("render", str(EXAMPLES / "goldrush-2p.grn"), "--legal", "--turn", "10").exit_code == 0


def test_selfplay_refuses_options_the_game_does_not_have():
    result = run("selfplay", "--game", "gold", "--options", "farmers=off")
    assert result.exit_code == 2 and "unknown option 'farmers'" in result.stderr and "Gold has no options" in result.stderr


@pytest.mark.parametrize("command", [["validate"], ["fmt"], ["convert", "--to", "json"], ["render"], ["show"],
                                     ["html"]])
def test_an_empty_file_has_no_game(command: list[str], tmp_path: Path):
    empty = tmp_path / "empty.grn"
    empty.write_text("\n\n", encoding="utf-8")
    result = run(command[0], str(empty), *command[1:])
    assert result.exit_code == 1, result.output
    assert f"{empty}: error: no game found" in result.stderr


def test_a_tag_in_another_case_says_how_it_is_spelt():
    result = run("validate", "-", stdin='[game "gold"]\n[Players "A (red+yellow), B (green+blue)"]\n\n1. red a1=G3 b1=G2\n')
    assert result.exit_code == 1
    assert '<stdin>:1:2: error: tag names are case-sensitive: write [Game "gold"], not [game ...]' in result.stderr


def test_a_colour_in_capitals_says_to_write_it_in_lower_case():
    result = run("validate", "-", stdin='[Game "goldrush"]\n[Players "Anna (Red), Ben (yellow)"]\n\n1. red 47a@-1,0\n')
    assert result.exit_code == 1
    assert "the colours in lower case: Anna (red)" in result.stderr


# -- no markup poured onto a terminal ---------------------------------------------

def _on_a_terminal(args: list[str], cwd: Path, stdin: str = "") -> tuple[int, str]:
    """Run grn with its standard output on a pseudo-terminal; returns (exit code, what it said on stderr)."""
    import pty

    master, slave = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "grn", *args], stdout=slave, stderr=subprocess.PIPE,
                              input=stdin, cwd=cwd, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    finally:
        os.close(slave)
        os.close(master)
    return done.returncode, done.stderr


def test_render_and_html_on_a_terminal_write_a_file_named_after_the_input(tmp_path: Path):
    game = tmp_path / "club.grn"
    game.write_text((EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8"), encoding="utf-8")
    code, said = _on_a_terminal(["render", str(game), "--turn", "12"], tmp_path)
    assert code == 0 and "wrote" in said and (tmp_path / "club-turn12.svg").read_text().startswith("<svg")
    code, said = _on_a_terminal(["html", str(game)], tmp_path)
    assert code == 0 and (tmp_path / "club.html").read_text().startswith("<!DOCTYPE html>")
    code, said = _on_a_terminal(["render", "-"], tmp_path, stdin=game.read_text(encoding="utf-8"))
    assert code == 2 and "refusing to write SVG to the terminal" in said


def test_a_pipe_still_gets_the_drawing():
    result = run("render", str(EXAMPLES / "goldrush-2p.grn"))
    assert result.exit_code == 0 and result.stdout.startswith("<svg")


# -- a wrong checkpoint says why; games are numbered from 1 everywhere -------------

def test_a_wrong_checkpoint_shows_what_the_turn_scored():
    text = (EXAMPLES / "rulebook-railroad-3.grn").read_text(encoding="utf-8")
    import re

    m = re.search(r"score (\w+)=(\d+)", text)
    assert m, "the example has a checkpoint"
    bad = text[:m.start()] + f"score {m.group(1)}={int(m.group(2)) + 1}" + text[m.end():]
    result = run("validate", "-", stdin=bad)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    at = next(i for i, line in enumerate(lines) if "score checkpoint differs from the rules" in line)
    below = "\n".join(lines[at + 1:at + 6])
    assert "scores" in below and "railroad" in below  # the turn's score events, under the message


def test_the_json_report_numbers_games_as_the_command_line_does():
    import json

    text = (EXAMPLES / "gold-3p-match.grn").read_text(encoding="utf-8")
    report = json.loads(run("validate", "--format", "json", "-", stdin=text).stdout)
    assert [g["index"] for g in report["files"][0]["games"]] == [1, 2, 3]
    third = run("show", "-", "--game", "3", stdin=text)
    assert third.exit_code == 0
    broken = text.replace("[Round \"3\"]", "[Round \"3\"]\n[Players \"X (purple)\"]", 1)
    report = json.loads(run("validate", "--format", "json", "-", stdin=broken).stdout)
    wrong = [d for g in report["files"][0]["games"] for d in g["diagnostics"]]
    assert wrong and all(d["game"] == 3 for d in wrong)


# -- notebooks and the Python API ---------------------------------------------------

def test_a_position_draws_itself_in_a_notebook_and_a_record_shows_a_viewer():
    (record,) = list(grn.read(EXAMPLES / "goldrush-2p.grn"))
    assert position_at(record, 10)._repr_svg_().startswith("<svg")
    frame = record._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "&lt;!DOCTYPE html&gt;" in frame and 'sandbox="allow-scripts"' in frame


def test_read_given_text_says_what_to_call_instead():
    text = (EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match=r"use grn.parse\(text\)"):
        list(grn.read(text))
    import io

    assert len(list(grn.read(io.StringIO(text)))) == 1 == len(grn.parse(text))


def test_tiles_lists_every_tile_so_a_player_can_find_one():
    table = run("tiles")
    assert table.exit_code == 0
    assert "72 tiles (start: 33)" in table.stdout
    assert any(line.startswith("08 ") and "mountain" in line and "2 nuggets" in line for line in table.stdout.splitlines())
    sheet = run("tiles", "--format", "svg")
    assert sheet.exit_code == 0 and sheet.stdout.startswith("<svg") and "01a" in sheet.stdout
    assert run("tiles", "--game", "gold").exit_code == 2
