"""The six Board Game Arena games converted from the logs of Koki-Yamaguchi/carcassonne-ai (tests/data/README.md).

Each record carries BGA's score after every turn that scored (score checkpoints) and BGA's final scores
(``Result``); these tests keep them whole games that grn's rules score exactly as BGA did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import grn
from grn.core.record import Checkpoint
from grn.check.validate import validate_record

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
