"""Gold's card luck (issue 41 item 4, R453-R457): the chain the other way round, the choice first, the face after.

A Gold turn is a card chosen, its face turned (chance, unless the card was seen before), a second card chosen
knowing that face, and its face turned.  The luck of each face is the turn's value with it less the mean over
the faces the cards not seen yet could have shown, on the same worlds; over a game the turns telescope to the
final margin, as the tile games' do (R410).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn
from grn.cli.app import app
from grn.analysis.judge import analyse, luck_seed, replay, settings_for
from grn.analysis.luck import before_draw, rounds_for, staged, turn_luck
from grn.games.gold.bot import REACT, reaction
from grn.games.gold.commands import Card, FlipCard
from grn.rules.world import margin

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "examples" / "gold-2p.grn"
#: The rest may stray this many of its standard errors (R411: a normal error strays further once in 16,000).
Z = 4.0


def _before(number: int):
    """The ruleset, the position before turn ``number`` of examples/gold-2p.grn, and that turn."""
    record = next(iter(grn.read(GOLD)))
    ruleset, _, line = replay(record)
    turn, before = next((t, b) for t, b in line if t.number == number)
    assert before is not None
    return ruleset, before, turn


def test_a_lucky_face_gives_positive_luck_and_an_unlucky_one_less():
    # turn 17: red turns g8, a gold 4 nobody had seen, then h4, black's miner 4 (nobody's): red carries the gold 4
    # out.  Of the faces the 49 cards not seen could have shown, that is one of the best; a dynamite that blows
    # the gold away is one of the worst
    ruleset, before, turn = _before(17)
    assert [(a.pos, a.face) for a in turn.actions] == [("g8", Card("gold", 4)), ("h4", Card("miner", 4, "black"))]
    assert not before.known_faces()  # both cards unseen: both faces are chance

    def luck(actions):
        got = turn_luck(ruleset, before, 17, "red", (), seed=11, next_seed=12, rounds=48, actions=actions)
        assert got is not None
        return got

    lucky = luck(turn.actions)
    unlucky = luck((FlipCard("g8", Card("dynamite")), FlipCard("h4", Card("gold", 2))))
    assert lucky.luck > 2 * lucky.se > 0
    assert lucky.luck - unlucky.luck > 2.0  # the gold 4 carried out, less a gold 2 blown away
    assert unlucky.luck < 0
    # two players: what red's cards gave red they took from green
    assert dict(lucky.by_player)["green"] == pytest.approx(-lucky.luck)
    assert lucky.expected == pytest.approx(dict(lucky.before)["red"])


def test_a_card_seen_before_has_no_luck():
    # turn 7: red turns c1 (yellow miner 2) and d5 (gold 2), both seen before: nothing to chance
    ruleset, before, turn = _before(7)
    assert all(a.pos in before.known_faces() for a in turn.actions)
    got = turn_luck(ruleset, before, 7, "red", (), seed=3, next_seed=4, rounds=8, actions=turn.actions)
    assert got is not None and got.luck == 0.0 and got.se == 0.0


def test_a_world_shown_a_face_is_the_same_world_but_two_places():
    ruleset, before, _ = _before(17)
    world = ruleset.determinise(before, random.Random(5))
    face = Card("gold", 4)
    for seed in range(20):
        shown = world.revealing((("g8", face),), random.Random(seed))
        assert shown.truth["g8"] == face
        changed = [p for p in world.truth if world.truth[p] != shown.truth[p]]
        assert len(changed) in (0, 2)  # a trade of two places, or none where the deal already showed it
        # the same faces in all: a deal among the cards not seen, not a card made up
        assert sorted(map(repr, shown.truth.values())) == sorted(map(repr, world.truth.values()))
    assert world.revealing((("g8", world.truth["g8"]),), random.Random(0)).truth == world.truth


def test_the_quick_reaction_and_the_players_own_second_card_are_one_stage_when_they_agree():
    # R454: where the player's second card is the one the quick player would turn for the first card's face (or a
    # card not seen, as the reaction's), the reactive stage and the player's pair are the same turn on every world,
    # so the chain need not play it twice
    ruleset, before, turn = _before(17)
    first, second = turn.actions
    assert reaction(before, first.pos, first.face) not in before.known_faces()  # the reaction turns an unseen card
    shown = ((first.pos, first.face),)
    reactive = staged(ruleset, before, 9, 6, True, (first.pos, REACT, second.pos), shown)
    pair = staged(ruleset, before, 9, 6, True, (first.pos, second.pos), shown)
    assert reactive == pair
    stages = ruleset.determinise(before, random.Random(0)).turn_stages(turn.actions)
    assert [chance for _, _, chance in stages] == [False, True, True]


def test_gold_luck_skill_and_edge_add_up_to_the_margin_less_the_expectation():
    record = next(iter(grn.read(GOLD)))
    analysis = analyse(record, playouts=8, seed=2)
    assert len(analysis.balances) == 2
    red, green = analysis.balances
    assert red.margin == 12  # the record's result, 36 to 24: a game over is its final scores
    for b in analysis.balances:
        assert b.expected + b.luck + b.skill + b.edge + b.rest == pytest.approx(b.margin, abs=1e-6)
        assert abs(b.rest) <= Z * b.se + 1e-9, b
        assert b.luck_se > 0
    assert red.luck == pytest.approx(-green.luck) and red.edge == pytest.approx(-green.edge)
    assert red.luck == pytest.approx(sum(t.luck.luck if t.player == red.player else -t.luck.luck
                                         for t in analysis.turns if t.luck is not None))
    # the expectation is the first turn's, before any card is turned
    assert analysis.turns[0].luck is not None
    assert red.expected == pytest.approx(dict(analysis.turns[0].luck.before)["red"])
    # the first turn's V0 is a quick player's whole turn from the start, read on the luck's own rounds
    ruleset, _, line = replay(record)
    turn, start = line[0]
    rounds = rounds_for(8, ruleset.luck_rounds_scale)
    assert rounds == 32  # R457: four times the level's rounds
    rows = before_draw(ruleset, start, luck_seed(settings_for(playouts=8, seed=2), turn.number), rounds, True)
    assert red.expected == pytest.approx(sum(margin(r, "red") for r in rows) / len(rows))


def _first_turns(tmp_path: Path, turns: int, players: str | None = None) -> Path:
    """examples/gold-2p.grn up to turn ``turns`` (a balance reads a record that stops as a game not over, R410),
    its players renamed to ``players`` when given."""
    record = next(iter(grn.read(GOLD)))
    tags = tuple((k, players if k == "Players" and players else v) for k, v in record.tags if k != "Result")
    out = tmp_path / "gold-cut.grn"
    out.write_text(grn.write_record(record.replace(tags=tags, turns=tuple(t for t in record.turns
                                                                          if t.number <= turns))))
    return out


def test_the_text_review_shows_golds_balance(tmp_path):
    result = CliRunner().invoke(app, ["analyse", str(_first_turns(tmp_path, 12)), "--playouts", "8", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "luck and skill (points of final margin: expected + luck of the cards + skill + edge" in result.output
    lines = [line.strip() for line in result.output.splitlines() if " = expected " in line]
    assert [line.split(":")[0] for line in lines] == ["Ines (red+yellow)", "Paul (green+blue)"]
    assert all("luck " in line and "skill " in line and "edge " in line and "rest " in line for line in lines)


def test_archive_stats_keep_a_players_gold_luck_apart_from_their_tile_luck(tmp_path):
    # R456: the same two names at a Gold table and a Gold Rush table: one row per player and game kind
    import json

    gold = _first_turns(tmp_path, 12, "blue (red+yellow), red (green+blue)")
    db = tmp_path / "club.db"
    runner = CliRunner()
    for game in (gold, ROOT / "examples" / "rulebook-city-6.grn"):  # its players: blue, red
        assert runner.invoke(app, ["archive", "add", str(db), str(game), "-q"]).exit_code == 0
    done = runner.invoke(app, ["archive", "analyse", str(db), "--playouts", "3", "--seed", "5"])
    assert done.exit_code == 0, done.output
    data = json.loads(runner.invoke(app, ["archive", "stats", str(db), "--format", "json"]).stdout)
    rows = {(r["name"], r["game"]): r for r in data["analysis"]["luck"]}
    assert set(rows) == {("blue", "gold"), ("red", "gold"), ("blue", "goldrush"), ("red", "goldrush")}
    assert rows["blue", "gold"]["margin"] == pytest.approx(-rows["red", "gold"]["margin"], abs=0.02)
    assert rows["blue", "gold"]["luck"] == pytest.approx(-rows["red", "gold"]["luck"], abs=0.02)
    table = runner.invoke(app, ["archive", "stats", str(db)]).stdout
    assert any(line.split()[:2] == ["blue", "gold"] for line in table.splitlines())
