"""The shipped Carcassonne examples (examples/carcassonne/): they validate, read back in canonical form,
render, and score as the rules say.

They live in their own folder so that the byte-for-byte golden reports of the
older games' examples (tests/test_golden.py, every examples/*.grn) stay as they are.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn.cli.app
from grn.games.carcassonne.events import IngotTaken, ScoreEvent
from grn.notation.read import parse
from grn.check.validate import GameReport, validate_record

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "carcassonne"
ALL = sorted(EXAMPLES.glob("*.grn"))
runner = CliRunner()


def test_the_examples_are_there() -> None:
    assert {p.name for p in ALL} == {"carcassonne-2p.grn", "carcassonne-3p-goldmines.grn", "goldmines-shared-road.grn",
                                     "goldmines-two-features.grn", "carcassonne-rules-question.grn"}


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_example_validates_and_is_canonical(path: Path) -> None:
    result = runner.invoke(grn.cli.app.app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(grn.cli.app.app, ["fmt", str(path)])
    assert result.exit_code == 0 and result.output == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_example_renders_shows_and_converts(path: Path, tmp_path: Path) -> None:
    # --legal where the record says which tile comes next (after turn 0); the end position plainly
    for args in (["--turn", "0", "--legal"], ["--turn", "1"], []):
        result = runner.invoke(grn.cli.app.app, ["render", str(path), *args])
        assert result.exit_code == 0, result.output
        ET.fromstring(result.output)  # well-formed SVG
        assert 'class="tile"' in result.output
    result = runner.invoke(grn.cli.app.app, ["show", str(path), "--turn", "1"])
    assert result.exit_code == 0 and "followers in supply" in result.output
    out = tmp_path / "page.html"
    result = runner.invoke(grn.cli.app.app, ["html", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "<svg" in out.read_text(encoding="utf-8")
    js = tmp_path / "game.json"
    assert runner.invoke(grn.cli.app.app, ["convert", str(path), "--to", "json", "-o", str(js)]).exit_code == 0
    back = runner.invoke(grn.cli.app.app, ["convert", str(js), "--to", "grn"])
    assert back.exit_code == 0 and back.output == path.read_text(encoding="utf-8")


def test_the_drawing_shows_followers_ingots_and_the_panel() -> None:
    result = runner.invoke(grn.cli.app.app, ["render", str(EXAMPLES / "goldmines-shared-road.grn"), "--turn", "0"])
    svg = result.output
    assert svg.count('class="follower red thief"') == 1 and svg.count('class="follower blue thief"') == 1
    assert svg.count('class="ingots"') == 3 and "gold ingots held" in svg
    result = runner.invoke(grn.cli.app.app, ["render", str(EXAMPLES / "carcassonne-rules-question.grn"), "--turn", "0"])
    assert 'class="ghost"' in result.output and "markup" in result.output and 'class="pennant"' in result.output


def report(name: str) -> GameReport:
    path = EXAMPLES / name
    records = parse(path.read_text(encoding="utf-8"), file=str(path))
    assert len(records) == 1
    rep = validate_record(records[0], file=str(path))
    assert rep.valid, [d.message for d in rep.diagnostics]
    return rep


def turn_events(rep: GameReport, number: int) -> list:
    return next(t for t in rep.turns if t.number == number).raw_events


def test_two_player_game_with_farmers() -> None:
    rep = report("carcassonne-2p.grn")
    assert rep.complete
    assert any("for a field beside" in e for e in rep.final_events)
    assert rep.final_scores == {"red": 36, "yellow": 15}


def test_three_player_game_with_the_gold_mines() -> None:
    rep = report("carcassonne-3p-goldmines.grn")
    assert rep.complete
    taken = [e for t in rep.turns for e in t.raw_events if isinstance(e, IngotTaken)]
    assert [e.player for e in taken] == ["green", "yellow"]
    assert any("gold ingots still on tiles are removed" in e for e in rep.final_events)
    assert any("1 gold ingot at 1 each" in e for e in rep.final_events)


def test_the_gold_mines_example_red_blue_red() -> None:
    """"Being the active player, Red takes the first gold ingot, followed by Blue, and finally Red takes the last one.\""""
    rep = report("goldmines-shared-road.grn")
    events = turn_events(rep, 1)
    assert [e.player for e in events if isinstance(e, IngotTaken)] == ["red", "blue", "red"]
    assert [(e.player, e.points) for e in events if isinstance(e, ScoreEvent)] == [("red", 4), ("blue", 4)]
    assert rep.final_scores == {"red": 6, "blue": 5}
    assert any("ends here on purpose" in n for n in rep.notes)


def test_two_features_at_once_the_choice_matters() -> None:
    rep = report("goldmines-two-features.grn")
    events = turn_events(rep, 1)
    assert [(e.player, e.x, e.y) for e in events if isinstance(e, IngotTaken)] == [("red", 0, 0), ("blue", -1, 1)]
    assert rep.final_scores == {"red": 7, "blue": 3}


def test_rules_question() -> None:
    rep = report("carcassonne-rules-question.grn")
    assert [(e.player, e.points, e.feature) for e in turn_events(rep, 1) if isinstance(e, ScoreEvent)] == [
        ("red", 8, "city")]


def test_selfplay_command_makes_complete_legal_games(tmp_path: Path) -> None:
    """grn selfplay --game carcassonne [--options goldmines]: complete games that validate."""
    for options in ([], ["--options", "goldmines"], ["--options", "farmers=off, smallcity"]):
        out = tmp_path / "games.grn"
        result = runner.invoke(grn.cli.app.app, ["selfplay", "--game", "carcassonne", "--players", "3", "--seed", "5",
                                             "--games", "2", "-o", str(out), *options])
        assert result.exit_code == 0, result.output
        text = out.read_text(encoding="utf-8")
        assert text.count('[Game "carcassonne"]') == 2
        records = parse(text, file=str(out))
        for r in records:
            rep = validate_record(r)
            assert rep.valid and rep.complete, [d.message for d in rep.diagnostics]


def test_end_tag() -> None:
    """[End "now"] scores a record that stops on purpose (any game); another value is an error."""
    gold_rush = (EXAMPLES.parent / "goldrush-rules-question.grn").read_text(encoding="utf-8")
    text = gold_rush.replace('[Players "red, blue"]', '[Players "red, blue"]\n[End "now"]')
    rep = validate_record(parse(text)[0])
    assert rep.valid and rep.final_events and not rep.complete
    rep = validate_record(parse(gold_rush)[0])
    assert rep.valid and not rep.final_events
    bad = '[Game "carcassonne"]\n[Players "red, blue"]\n[End "later"]\n\n1. red E@0,1:180 +S\n'
    rep = validate_record(parse(bad)[0])
    assert not rep.valid and "End tag" in rep.diagnostics[0].message
    assert rep.diagnostics[0].span.line == 3
