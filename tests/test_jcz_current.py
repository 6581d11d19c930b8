"""JCloisterZone's current format (issue 25, point 5; ruling R86): the cloister's location ``I`` (5.7 and
later) and ``CLOISTER`` (up to 5.6.3), ``gameAnnotations.endTurn`` ending the game early, ``sets`` with
several copies, a start tile other than the base game's, and saves of JCloisterZone 4 named as such."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from grn.cli.app import app
from grn.games.carcassonne import CarcassonneState, Options, selfplay
from grn.games.carcassonne.jcz import grn_to_jcz, jcz_to_grn
from grn.rules.interop import ConversionProblem
from grn.notation.read import parse
from grn.rules.selfplay import to_record
from grn.check.validate import validate_record

DATA = Path(__file__).resolve().parent / "data" / "jcz"
runner = CliRunner()


def _doc(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _record(text: str) -> Any:
    (record,) = parse(text)
    assert record.ok, [d.one_line() for d in record.diagnostics]
    return record


def _locations(doc: dict[str, Any]) -> list[str]:
    return [m["payload"]["pointer"]["location"] for m in doc["replay"] if m["type"] == "DEPLOY_MEEPLE"]


def test_a_monk_is_read_under_both_names_and_written_as_i():
    old = _doc("04-cloister.jcz")
    assert "CLOISTER" in _locations(old)
    new = json.loads(json.dumps(old).replace('"CLOISTER"', '"I"'))
    assert jcz_to_grn(json.dumps(old)) == jcz_to_grn(json.dumps(new))  # 5.6.3 and 5.7 say the same game
    exported = json.loads(grn_to_jcz(_record(jcz_to_grn(json.dumps(old)))))
    assert "I" in _locations(exported) and "CLOISTER" not in _locations(exported)
    assert exported["appVersion"] == "5.7.0"


def test_end_turn_ends_the_record_there_with_its_final_scoring():
    doc = _doc("09-gold-choice.jcz")
    full = _record(jcz_to_grn(json.dumps(doc)))
    doc["gameAnnotations"]["endTurn"] = 2
    text = jcz_to_grn(json.dumps(doc))
    record = _record(text)
    assert len(record.turns) == 2 and record.tag("End") == "now"
    assert "the game ends after turn 2 (gameAnnotations.endTurn): the replay's" in text
    assert [(t.player, t.actions) for t in record.turns] == [(t.player, t.actions) for t in full.turns[:2]]
    report = validate_record(record)
    assert report.valid and report.final_scores is not None  # finished, scored after turn 2


def test_annotations_grn_does_not_read_are_named_in_the_comment():
    doc = _doc("01-road.jcz")
    doc["gameAnnotations"]["hints"] = [1, 2]
    assert "gameAnnotations not read: hints" in jcz_to_grn(json.dumps(doc))


def test_two_copies_of_a_set_fill_the_bag_twice_and_the_validator_counts_them():
    doc = _doc("01-road.jcz")
    doc["setup"]["sets"] = {"basic:1": 2}
    record = _record(jcz_to_grn(json.dumps(doc)))
    assert "basic=2" in (record.tag("Options") or "")
    state = CarcassonneState.new(None, ["red", "blue"], Options(basic=2))
    assert state.bag_left == 2 * 72 - 1 and state.bag()["D"] == 7
    # five copies of the one-of-a-kind tile C: too many for one set, legal with two
    text = ('[Game "carcassonne"]\n[Players "A (red), B (blue)"]\n[Options "{}"]\n\n'
            "1. red X@1,0\n2. blue X@2,0\n")
    one, two = _record(text.format("farmers=on")), _record(text.format("basic=2"))
    assert not validate_record(one).valid and validate_record(two).valid
    back = json.loads(grn_to_jcz(two))
    assert back["setup"]["sets"] == {"basic:1": 2}
    assert _record(jcz_to_grn(json.dumps(back))).tag("Options") == "basic=2"


def test_a_declared_start_tile_reads_writes_and_validates():
    game = to_record(selfplay.play(2, seed=3, options=Options()), seed=3)
    doc = json.loads(grn_to_jcz(game))
    assert doc["setup"]["start"] == [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]
    doc["setup"]["start"] = [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": "R0"}]
    assert "[Start " not in jcz_to_grn(json.dumps(doc))  # the base game's start needs no tag
    text = ('[Game "carcassonne"]\n[Players "A (red), B (blue)"]\n[Start "K@0,0:90"]\n\n'
            "1. red A@0,1\n")
    record = _record(text)
    assert validate_record(record).valid
    assert not validate_record(_record(text.replace('[Start "K@0,0:90"]\n', ""))).valid
    out = json.loads(grn_to_jcz(record))
    assert out["setup"]["start"] == [{"tile": "BA/RrC", "x": 0, "y": 0, "rotation": 90}]
    assert _record(jcz_to_grn(json.dumps(out))).tag("Start") == "K@0,0:90"


@pytest.mark.parametrize("tag, message", [
    ("Q@0,0:45", "Start tag: write the start tile as TILE"),
    ("ZZ@0,0", "Start tag: the start tile 'ZZ' is not a tile of the set"),
])
def test_a_start_tag_that_cannot_be_used_is_one_line(tag: str, message: str):
    text = f'[Game "carcassonne"]\n[Players "A (red), B (blue)"]\n[Start "{tag}"]\n\n1. red D@1,0\n'
    result = runner.invoke(app, ["validate", "-"], input=text)
    assert result.exit_code == 1 and f"<stdin>:3:2: error: {message}" in result.stderr


@pytest.mark.parametrize("doc, expected", [
    ({"appVersion": "4.4.1", "setup": {}}, "$.appVersion: error: a save of JCloisterZone 4.4.1: grn reads the saves "
                                           "of JCloisterZone 5 and later"),
    ({"appVersion": "4.0.0"}, "$.appVersion: error: a save of JCloisterZone 4.0.0"),
    ('<?xml version="1.0"?><game/>', "$: error: an XML save of JCloisterZone 4 or earlier"),
])
def test_a_jcloisterzone_4_save_says_so(doc: Any, expected: str):
    with pytest.raises(ConversionProblem) as info:
        jcz_to_grn(doc if isinstance(doc, str) else json.dumps(doc))
    assert info.value.line("f.jcz").startswith("f.jcz: " + expected)
    assert "'sets' is missing" not in info.value.line("f.jcz")



def test_end_turn_counts_draws_so_a_discard_ends_the_game_a_turn_sooner():
    """JCloisterZone's endTurn is a number of draws (its ForcedDrawTilePack's drawLimit), a tile that fitted
    nowhere among them (R86): with one tile set aside, endTurn 3 ends the game after two turns, not three."""
    doc = _doc("09-gold-choice.jcz")
    placed = [m["payload"]["tileId"] for m in doc["replay"] if m["type"] == "PLACE_TILE"]
    assert len(placed) >= 3
    doc["gameAnnotations"]["drawOrder"] = [placed[0], "BA/Rr", *placed[1:]]  # set aside before turn 2's tile
    doc["gameAnnotations"]["endTurn"] = 3
    record = _record(jcz_to_grn(json.dumps(doc)))
    assert len(record.turns) == 2 and record.tag("End") == "now"
    assert [type(a).__name__ for a in record.turns[1].actions][0] == "DiscardTile"
    doc["gameAnnotations"]["endTurn"] = 4  # the same draws and one more: three turns
    assert len(_record(jcz_to_grn(json.dumps(doc))).turns) == 3
