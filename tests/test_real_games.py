"""The Board Game Arena games converted by bench/bga_log_to_grn.py (tests/data/README.md).

The six from the logs of Koki-Yamaguchi/carcassonne-ai carry BGA's score after every turn that scored (score
checkpoints) and BGA's final scores (``Result``); these tests keep them whole games that grn's rules score
exactly as BGA did.  The master's game from carcassonne.gg's event list (R512) holds no scores: it is kept
valid, its discard checked, and the field fight the review finds in it pinned.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import grn
from grn.core.record import Checkpoint
from grn.analysis.judge import analyse
from grn.check.validate import validate_record
from tests.benchmods import load_bench

DATA = Path(__file__).parent / "data"
#: BGA table ids, and each game's final scores as BGA's result gives them (first player first).
TABLES = {
    "366166200": {"yellow": 96, "black": 70},
    "367163108": {"yellow": 85, "black": 89},
    "368679629": {"yellow": 94, "black": 91},
    "369577999": {"yellow": 96, "black": 103},
    "370417702": {"black": 108, "yellow": 91},
    "374076298": {"red": 96, "yellow": 98},
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_a_converted_bga_game_validates_with_every_score_bga_wrote(table):
    (record,) = list(grn.read(DATA / f"bga-{table}.grn"))
    assert record.game == "carcassonne" and record.tag("Event") == f"Board Game Arena table {table}"
    checkpoints = [t for t in record.turns if any(isinstance(e, Checkpoint) for e in t.extras)]
    assert len(checkpoints) >= 15  # BGA's score after each turn that scored: these games score at 17-20 turns
    report = validate_record(record, keep_turns=False)
    assert report.valid, [d.message for d in report.diagnostics]
    assert not report.diagnostics  # not even a warning: every checkpoint and the Result were compared
    assert report.complete and report.turns_played == 71  # the whole base game, no discard
    assert report.final_scores == TABLES[table]


def test_a_wrong_score_in_a_converted_game_is_caught():
    # the checkpoints are read and compared, not just carried: one point off on the first scoring turn fails
    text = (DATA / "bga-366166200.grn").read_text("utf-8")
    assert "score yellow=4 black=0" in text
    (record,) = grn.parse(text.replace("score yellow=4 black=0", "score yellow=5 black=0", 1))
    report = validate_record(record, keep_turns=False)
    assert not report.valid and [d.code for d in report.diagnostics] == ["checkpoint"]


def test_the_masters_game_from_an_event_list_validates_with_its_discard():
    # tests/data/bga-924153644.grn: a Board Game Arena game of a titled master (Lawyer) from carcassonne.gg's
    # event list, which holds no scores; grn counts them.  70 tiles placed and one (the four-sided city, C)
    # discarded because it fitted nowhere, as the base game's rule "a tile that cannot be placed" says.
    (record,) = list(grn.read(DATA / "bga-924153644.grn"))
    assert record.tag("Event") == "Board Game Arena table 924153644" and record.tag("Result") is None
    report = validate_record(record, keep_turns=False)
    assert report.valid and not report.diagnostics, [d.message for d in report.diagnostics]
    assert report.complete and report.turns_played == 70
    assert "\n53. red discard C L@2,4:270 +W\n" in (DATA / "bga-924153644.grn").read_text("utf-8")
    assert report.final_scores == {"red": 91, "blue": 87}  # grn's count: pinned, so a change in scoring shows
    # the discard is checked, not carried: a tile that fits somewhere may not be discarded
    text = (DATA / "bga-924153644.grn").read_text("utf-8").replace("53. red discard C ", "53. red discard D ")
    (bad,) = grn.parse(text)
    assert "fits on the board, so it may not be discarded" in " ".join(
        d.message for d in validate_record(bad, keep_turns=False).diagnostics)


def test_an_event_list_with_a_discard_converts_and_a_follower_off_its_tile_is_refused():
    convert = load_bench("bga_log_to_grn")
    red, blue = ("1", "A", "ff0000"), ("2", "B", "0000ff")
    events = []
    for seq, ((pid, name, hexc), ttype, x, y, ori) in enumerate(
            [(red, 17, 0, 1, 1), (blue, 2, 0, -1, 2)], start=1):
        events.append({"seq": 2 * seq - 1, "type": "playTile", "player_id": pid, "player_name": name,
                       "tile_type": ttype, "x": x, "y": y, "orientation": ori, "color_hex": hexc})
    events.append({"seq": 4, "type": "playPartisan", "player_id": "2", "position": 2, "tile_event_seq": 3})
    events.insert(1, {"seq": 2, "type": "cantPlay", "player_id": "2", "tile_type": 22})
    text = convert.convert_events(events, "a test", "no licence", "1")
    (record,) = grn.parse(text)
    assert "\n1. red V@0,-1\n2. blue discard C S@0,1:90 +N\n" in text and len(record.turns) == 2
    assert record.tag("Players") == "A (red), B (blue)"
    events[-1]["tile_event_seq"] = 1  # the follower names the first tile, not the one just played
    with pytest.raises(convert.LogProblem, match="not on the tile just played"):
        convert.convert_events(events, "a test", "no licence", "1")


def test_the_review_finds_the_field_fight_that_decided_the_masters_game():
    # R512: a third of the points the review said the master's game lost were one fight over the field beside
    # eight closed cities.  At turn 53 red could take it alone (L at -5,5), at turn 58 blue could lock it by
    # joining his own farmers' field to it (V at 1,6): both are marked, with those moves first.  The review's
    # playouts fight for fields (R516), so the marks are smaller than the old review's (14.9 and 16.0) and turn 61,
    # where red scored 9 points rather than take the field back, is no loss (blue's join would have taken it
    # again, as it did at turn 64).  Blue won the field at turn 64 by that join.
    (record,) = list(grn.read(DATA / "bga-924153644.grn"))
    report = analyse(record, seed=1, only=[53, 58, 61, 64])
    by_turn = {t.turn: t for t in report.turns}
    assert by_turn[53].judgement in ("mistake", "blunder") and by_turn[53].points_lost > 6
    assert by_turn[53].best == "discard C L@-5,5:180 +W"
    # R517: a move marked a mistake is not also listed among the moves as good as the best
    for t in by_turn.values():
        if t.judgement is not None:
            assert t.played not in t.equal, (t.turn, t.equal)
    assert by_turn[58].judgement in ("mistake", "blunder") and by_turn[58].points_lost > 6
    assert by_turn[58].best is not None and by_turn[58].best.startswith("V@1,6")
    assert by_turn[61].judgement is None and by_turn[61].points_lost < 1
    assert by_turn[64].judgement is None and by_turn[64].points_lost < 1  # the join itself: the best move
