"""A score event's ``counts`` restate its points as numbers (what the archive searches: ``tiles>=10``).

Every score event of self-played games of both tile-laying games is checked: the points follow from the
counts by the rules' arithmetic, so the counts say exactly what was scored.
"""

from __future__ import annotations

from typing import Any

import pytest

from grn.games.carcassonne import selfplay as carcassonne
from grn.games.carcassonne.options import Options as CarcassonneOptions
from grn.games.carcassonne.terms import ingot_value
from grn.games.goldrush import selfplay as goldrush
from grn.rules.selfplay import to_record
from grn.games.tiling.events import ScoreEvent
from grn.check.validate import validate_record


def _score_events(game: Any) -> list[ScoreEvent]:
    report = validate_record(to_record(game, seed=1), keep_turns=True)
    assert report.valid, report.diagnostics
    events = [e for t in report.turns for e in t.raw_events] + list(report.final_raw_events)
    return [e for e in events if isinstance(e, ScoreEvent)]


def _carcassonne_points(e: ScoreEvent, smallcity: bool) -> int:
    c = dict(e.counts)
    complete = not e.final or e.detail.startswith("a completed")
    if e.feature == "road":
        return c["tiles"]
    if e.feature == "city":
        if not complete or (smallcity and c["tiles"] == 2):
            return c["tiles"] + c["pennants"]
        return 2 * c["tiles"] + 2 * c["pennants"]
    if e.feature == "cloister":
        return c["tiles"]
    if e.feature == "field":
        return 3 * c["cities"]
    assert e.feature == "gold"
    return c["ingots"] * ingot_value(c["ingots"])


@pytest.mark.parametrize("seed,options", [(1, CarcassonneOptions()), (2, CarcassonneOptions(goldmines=True)),
                                          (3, CarcassonneOptions(goldmines=True, smallcity=True))])
def test_carcassonne_counts_restate_the_points(seed: int, options: CarcassonneOptions) -> None:
    events = _score_events(carcassonne.play(3, seed, options))
    assert {e.feature for e in events} >= {"road", "city", "field"}
    for e in events:
        assert e.counts, e
        assert _carcassonne_points(e, options.smallcity) == e.points, (e, e.counts, e.detail)
        assert e.to_json()["tiles" if e.feature not in ("field", "gold") else
                           "cities" if e.feature == "field" else "ingots"] == e.counts[0][1]


def _goldrush_points(e: ScoreEvent) -> int | None:
    c = dict(e.counts)
    if e.feature == "railroad":
        return c["tiles"] * (2 if c["locomotives"] == 1 and not e.final else 1)
    if e.feature == "mountain":
        return c["nuggets"]
    if e.feature == "city":
        return 3 * c["railroads"]
    if e.feature == "prairie":
        return 2 * c["tipis"] + 4 * c["horses"]
    assert e.feature == "gold" and c["tokens"] > 0
    return None  # the tokens' faces, not their number


def test_goldrush_counts_restate_the_points() -> None:
    events = [e for seed in (1, 2, 3) for e in _score_events(goldrush.play(4, seed))]
    assert {e.feature for e in events} >= {"railroad", "mountain", "city", "prairie", "gold"}
    for e in events:
        assert e.counts, e
        want = _goldrush_points(e)
        assert want is None or want == e.points, (e, e.counts, e.detail)


def test_counts_take_no_part_in_equality() -> None:
    a = ScoreEvent("red", 8, "city", "a completed city of 3 tiles with one pennant", counts=(("tiles", 3),))
    assert a == ScoreEvent("red", 8, "city", "a completed city of 3 tiles with one pennant")
    assert a.to_json() == {"type": "ScoreEvent", "player": "red", "points": 8, "feature": "city",
                           "detail": "a completed city of 3 tiles with one pennant", "final": False, "tiles": 3}
