"""The shipped example records: they validate, round-trip, render, and the rulebook ones score as printed.

Each ``examples/rulebook-*.grn`` rebuilds one scoring example pictured in the
publisher's rulebook (the Gold Rush rulebook) from the shipped tile
set: set-up turns (``0.``) then the scoring turn.  The tests below check the
exact score events the rulebook gives; each docstring quotes the rulebook.
Examples that need the end of the game (final scoring, farmers, gold) set the
other tiles aside with set-up ``discard``s so that the last tile is placed by
a real turn and the game really ends.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn.cli.app
from grn.games.goldrush.rules import ScoreEvent, TokensTaken
from grn.notation.read import parse
from grn.check.validate import GameReport, validate_record

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ALL = sorted(EXAMPLES.glob("*.grn"))
RULEBOOK = sorted(EXAMPLES.glob("rulebook-*.grn"))


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def report(name: str) -> GameReport:
    path = EXAMPLES / name
    records = parse(path.read_text(encoding="utf-8"), file=str(path))
    assert len(records) == 1
    rep = validate_record(records[0], file=str(path))
    assert rep.valid, [d.message for d in rep.diagnostics]
    return rep


def scores_of(rep: GameReport, turn: int) -> list[tuple[str, int, str]]:
    """(player, points, feature) of the score events of main-line turn ``turn``."""
    t = next(t for t in rep.turns if t.number == turn)
    return [(e.player, e.points, e.feature) for e in t.raw_events if isinstance(e, ScoreEvent)]


def tokens_of(rep: GameReport, turn: int) -> list[tuple[str, int]]:
    t = next(t for t in rep.turns if t.number == turn)
    return [(e.player, e.count) for e in t.raw_events if isinstance(e, TokensTaken)]


# ---------------------------------------------------------------------------
# every example
# ---------------------------------------------------------------------------

def test_the_examples_are_there() -> None:
    names = {p.name for p in ALL}
    for want in ("goldrush-2p.grn", "goldrush-4p-farmers.grn", "goldrush-first-game.grn",
                 "goldrush-rules-question.grn"):
        assert want in names
    assert len(RULEBOOK) == 14


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_example_validates(runner: CliRunner, path: Path) -> None:
    result = runner.invoke(grn.cli.app.app, ["validate", str(path)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_example_is_canonical(runner: CliRunner, path: Path) -> None:
    result = runner.invoke(grn.cli.app.app, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_example_round_trips_through_json(runner: CliRunner, path: Path, tmp_path: Path) -> None:
    as_json = runner.invoke(grn.cli.app.app, ["convert", str(path), "--to", "json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert data["grn"] == 1 and data["games"]
    jpath = tmp_path / "game.json"
    jpath.write_text(as_json.output, encoding="utf-8")
    back = runner.invoke(grn.cli.app.app, ["convert", str(jpath), "--to", "grn"])
    assert back.exit_code == 0, back.output
    assert back.output == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_example_renders_at_its_end(runner: CliRunner, path: Path, tmp_path: Path) -> None:
    out = tmp_path / "end.svg"
    result = runner.invoke(grn.cli.app.app, ["render", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")


@pytest.mark.parametrize("name", ["goldrush-2p.grn", "goldrush-4p-farmers.grn", "goldrush-first-game.grn"])
def test_full_games_end_with_their_result(name: str) -> None:
    rep = report(name)
    assert rep.complete
    assert rep.turns_played == 71
    assert not [d for d in rep.diagnostics if d.severity == "warning"]


def test_four_player_game_scores_farmers() -> None:
    rep = report("goldrush-4p-farmers.grn")
    assert any("for a prairie" in e and "scores 22" in e for e in rep.final_events)


def test_first_game_has_no_farmers() -> None:
    rep = report("goldrush-first-game.grn")
    assert not any("prairie" in e for e in rep.final_events)


def test_rules_question_is_a_set_up_only() -> None:
    rep = report("goldrush-rules-question.grn")
    assert rep.turns_played == 0


def test_rules_question_answer_holds(runner: CliRunner, tmp_path: Path) -> None:
    """The answer in the record: no gold miner on the occupied mountain, but a tent or a farmer is fine."""
    base = (EXAMPLES / "goldrush-rules-question.grn").read_text(encoding="utf-8")
    for follow, ok in (("+S", False), ("tent@0,2", True), ("+WSW", True)):
        path = tmp_path / "q.grn"
        path.write_text(base + "1. red 26a@0,-1\n2. blue 17@0,2:90 " + follow + "\n", encoding="utf-8")
        result = runner.invoke(grn.cli.app.app, ["validate", str(path)])
        assert (result.exit_code == 0) == ok, (follow, result.output)


# ---------------------------------------------------------------------------
# the rulebook's figures (seed 002)
# ---------------------------------------------------------------------------

def test_railroad_4() -> None:
    """002 A COMPLETED RAILROAD: "A player whose railwayman alone occupies a completed railroad scores
    points equal to the "length" of the railroad (number of tiles used)." -- "Blue scores 4 points." """
    assert scores_of(report("rulebook-railroad-4.grn"), 1) == [("blue", 4, "railroad")]


def test_railroad_3() -> None:
    """002 A COMPLETED RAILROAD: "Blue scores 3 points." """
    assert scores_of(report("rulebook-railroad-3.grn"), 1) == [("blue", 3, "railroad")]


def test_railroad_one_locomotive_8() -> None:
    """002 A COMPLETED RAILROAD WITH LOCOMOTIVES: "Blue scores 8 points (4 points for 4 tiles doubled by a
    single locomotive)." """
    assert scores_of(report("rulebook-railroad-locomotive-8.grn"), 1) == [("blue", 8, "railroad")]


def test_railroad_two_locomotives_6() -> None:
    """002: "Blue scores 6 points (because two or more locomotives do not double the value of a railroad)." """
    rep = report("rulebook-railroad-locomotives-6.grn")
    assert scores_of(rep, 1) == [("blue", 6, "railroad")]
    assert "two locomotives" in rep.turns[0].events[0]


def test_railroad_tie_5() -> None:
    """002 MULTIPLE COWBOYS: "Blue and Yellow both score 5 points, as they are tied for most cowboys." """
    assert sorted(scores_of(report("rulebook-railroad-tie-5.grn"), 1)) == [
        ("blue", 5, "railroad"), ("yellow", 5, "railroad")]


def test_mountain_7() -> None:
    """002 A COMPLETED MOUNTAIN: "The mountain is complete. Yellow first takes the remaining Mining tokens,
    and then scores 7 points (for 7 gold nugget symbols)." """
    rep = report("rulebook-mountain-7.grn")
    assert tokens_of(rep, 1) == [("yellow", 6)]  # 7 placed, 1 mined earlier by Blue's tent
    assert scores_of(rep, 1) == [("yellow", 7, "mountain")]


def test_mountain_tie_5() -> None:
    """002 A COMPLETED MOUNTAIN: "She takes the first of the 3 remaining Mining tokens. Red takes a Mining
    token, then Blue takes the last one. Red and Blue each score 5 points (for 5 gold nugget symbols)." """
    rep = report("rulebook-mountain-tie-5.grn")
    assert tokens_of(rep, 1) == [("blue", 2), ("red", 1)]
    assert sorted(scores_of(rep, 1)) == [("blue", 5, "mountain"), ("red", 5, "mountain")]


def test_city_6() -> None:
    """002 A COMPLETED CITY: "The blue merchant in the completed city is connected to two completed
    railroads and scores 6 points." (the loop railroad counts once)"""
    rep = report("rulebook-city-6.grn")
    assert scores_of(rep, 1) == [("blue", 6, "city")]
    assert "2 completed railroads" in rep.turns[0].events[0]


def test_same_turn_railwayman_3() -> None:
    """002 RETURNING COWBOYS: "Blue places a tile and a railwayman. She scores 3 points." """
    rep = report("rulebook-return-railwayman-3.grn")
    assert scores_of(rep, 1) == [("blue", 3, "railroad")]
    assert any("railwayman returns" in e for e in rep.turns[0].events)


def test_same_turn_gold_miner_2() -> None:
    """002 RETURNING COWBOYS: "Blue places a tile and a gold miner. She takes the 2 Mining tokens and
    scores 2 points." """
    rep = report("rulebook-return-gold-miner-2.grn")
    assert tokens_of(rep, 1) == [("blue", 2)]
    assert scores_of(rep, 1) == [("blue", 2, "mountain")]
    assert any("gold miner returns" in e for e in rep.turns[0].events)


def test_final_scoring() -> None:
    """002 SCORING INCOMPLETE FEATURES: "For the incomplete railroad, Red scores 2 points (2 tiles). For the
    incomplete city, Yellow scores 3 points (1 completed railroad). For the incomplete mountain, Blue scores
    3 points (3 gold nugget symbols). Green scores 10 points (10 gold nugget symbols) for the larger
    incomplete mountain. Black scores no points, as Green has more cowboys on that mountain." """
    rep = report("rulebook-final-scoring.grn")
    assert rep.complete
    assert rep.final_scores == {"green": 10, "black": 0, "red": 2, "yellow": 3, "blue": 3}
    finals = rep.final_events
    assert "red scores 2 for an incomplete railroad of 2 tiles" in finals
    assert "yellow scores 3 for an incomplete city with 1 completed railroad" in finals
    assert "blue scores 3 for an incomplete mountain of 1 tile with 3 gold nuggets" in finals
    assert "green scores 10 for an incomplete mountain of 4 tiles with 10 gold nuggets" in finals
    assert not any(e.startswith("black scores") for e in finals)


def test_farmers() -> None:
    """002 SCORING FARMERS: "They each score 6 points (2 points for the tipi camp and 4 points for the wild
    horses)." "Red scores 4 points for this small prairie (for 2 tipi camps)." "She scores 16 points (4 points
    for 2 tipi camps and 12 points for 3 herds of wild horses). Yellow scores no points for her farmer." """
    rep = report("rulebook-farmers.grn")
    assert rep.complete
    assert rep.final_scores == {"green": 6, "yellow": 6, "red": 4, "blue": 16}
    prairie = sorted(e for e in rep.final_events if "prairie" in e)
    assert prairie == sorted([
        "green scores 6 for a prairie with 1 tipi camp and 1 herd of wild horses",
        "yellow scores 6 for a prairie with 1 tipi camp and 1 herd of wild horses",
        "red scores 4 for a prairie with 2 tipi camps and no wild horses",
        "blue scores 16 for a prairie with 2 tipi camps and 3 herds of wild horses",
    ])


def test_gold_16() -> None:
    """002 SCORING GOLD: "Blue collected 9 Mining tokens during the game and scores the following points:"
    (pictured: three 1s, four 2s, a 5 and a gravel token, 16 points)."""
    rep = report("rulebook-gold-16.grn")
    assert rep.complete
    assert rep.final_scores == {"blue": 16, "red": 0}
    assert "blue scores 16 for 9 mining tokens (3x1 + 4x2 + 1x5 + 1x0)" in rep.final_events


def test_scoreboard_51() -> None:
    """002 THE SCOREBOARD: "Yellow scores 2 points. She moves her scoring cowboy from space 49 to space 1."
    -- "a cowboy lying flat on space 1 of the scoreboard indicates a score of 51 points." """
    rep = report("rulebook-scoreboard-51.grn")
    assert scores_of(rep, 1) == [("yellow", 2, "railroad")]
    assert rep.turns[-1].scores == {"yellow": 51, "red": 0}
