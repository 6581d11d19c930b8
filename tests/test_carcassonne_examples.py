"""The shipped Carcassonne examples: they validate, and score as the rules say.

(Every example also goes through tests/test_examples.py: validate, canonical
form, rendering.)
"""

from __future__ import annotations

from pathlib import Path

from grn.games.carcassonne.events import IngotTaken, ScoreEvent
from grn.notation import parse
from grn.validate import GameReport, validate_record

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


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
