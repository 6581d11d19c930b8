"""The archive's facts gathered during the replay (issue 26 item 4, round six, R215): the validator tells an
observer each main-line turn's events, so ``grn archive add`` keeps no report a turn and stores the same facts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from grn.archive.facts import EventFacts, game_facts
from grn.archive.indexer import index_game, indexing_validator, observe_game, observe_points
from grn.check.batch import Job, work
from grn.notation.read import parse
from grn.core.record import Record
from grn.check.validate import validate_record

ROOT = Path(__file__).resolve().parent.parent
#: Every example: finished games, puzzles ending with [End "now"], records that stop early, variations.
EXAMPLES = sorted((ROOT / "examples").rglob("*.grn"))


def _records(path: Path) -> list[Record]:
    return list(parse(path.read_text(encoding="utf-8")))


class Recorder:
    """An observer that keeps what it is told."""

    def __init__(self) -> None:
        self.turns: list[tuple[int, tuple[Any, ...]]] = []
        self.finals: list[tuple[Any, ...]] = []

    def turn(self, number: int, events: list[Any]) -> None:
        self.turns.append((number, tuple(events)))

    def final(self, events: list[Any]) -> None:
        self.finals.append(tuple(events))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_the_observer_is_told_what_the_report_keeps_of_the_main_line(path: Path) -> None:
    for record in _records(path):
        kept = validate_record(record, keep_turns=True)
        seen = Recorder()
        report = validate_record(record, keep_turns=False, observer=seen)
        assert report.turns == []  # no report a turn for the archive
        assert report.diagnostics == kept.diagnostics and report.final_scores == kept.final_scores
        # every legal main-line turn, variations left out, with the very events the report kept
        assert [(n, len(e)) for n, e in seen.turns] == [(t.number, len(t.raw_events)) for t in kept.turns]
        assert [repr(e) for _, e in seen.turns] == [repr(t.raw_events) for t in kept.turns]
        # the final scoring only when the game was played to its end (not [End "now"], not a record that stops)
        assert seen.finals == ([kept.final_raw_events] if kept.final_raw_events else
                               [()] if kept.complete else [])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_facts_observed_during_the_replay_are_the_facts_of_the_report(path: Path) -> None:
    for record in _records(path):
        from_report = game_facts(record, validate_record(record, keep_turns=True))
        observed = observe_game(record)
        report = validate_record(record, keep_turns=False, observer=observed)
        text, facts = index_game(record, report, "grn", observed)
        assert text is None
        assert facts == from_report  # the same packed texts, sums, dedup key and rows


def test_a_puzzle_ending_now_keeps_its_final_scoring_as_sentences() -> None:
    """[End "now"]: the observer hears no final scoring; the facts take the report's sentences, as before."""
    (record,) = _records(ROOT / "examples" / "carcassonne" / "goldmines-shared-road.grn")[:1]
    observed = EventFacts()
    report = validate_record(record, keep_turns=False, observer=observed)
    assert report.final_events and not observed.ended
    facts = game_facts(record, report, observed)
    assert facts.events == game_facts(record, validate_record(record, keep_turns=True)).events
    assert any(feature == "(final scoring)" for _, feature, _ in facts.points)


def test_the_archive_validator_keeps_no_turns_and_sends_the_facts(tmp_path: Path) -> None:
    assert indexing_validator().observe is observe_points  # add: the points summed, no per-turn facts (R251)
    v = indexing_validator(per_turn=True)
    assert v.keep_turns is False and v.observe is observe_game
    path = ROOT / "examples" / "goldrush-4p-farmers.grn"
    job = Job(str(path), None, v.keep_turns, False, v.index, v.observe)
    record = _records(path)[0]
    (result,) = work(job, [record], 0)
    assert result.report.turns == [] and result.report.final_raw_events == ()
    assert result.facts == game_facts(record, validate_record(record, keep_turns=True))
    assert result.text  # a game read as a record (JSON input) keeps its text as JSON
    v.runner.close()
