"""What the archive asks of each game it validates: its index rows, worked out where the game is validated.

``grn archive add`` validates files with :class:`grn.check.batch.Validator` and hands
it :func:`index_game`, which the workers (processes or Dask) run on each game
after validating it, so that indexing is spread over them as validating is.
"""

from __future__ import annotations

import json
from typing import Any

from grn.archive.facts import EventFacts, PointSums, game_facts, game_summary
from grn.check.batch import Validator
from grn.notation.jsonform import record_to_json
from grn.core.record import Record
from grn.check.validate import GameReport

#: What the process pool's fork server imports for the archive, beside the reader and the rules.
PRELOAD = ("grn.archive.indexer",)


def observe_game(record: Record) -> EventFacts:
    """The observer the validator tells a game's turns to: the game's events, kept as the archive stores them."""
    return EventFacts()


def index_game(record: Record, report: GameReport, fmt: str, observed: EventFacts | None) -> tuple[str | None, Any]:
    """The facts the archive stores of one validated game, and the text it keeps of a game read from JSON.

    The events come from ``observed`` (:func:`observe_game`'s, told every turn during the replay), so
    the report needs no turns (``keep_turns`` off, R215).
    """
    text = None
    if fmt == "json":
        text = json.dumps(record_to_json(record), ensure_ascii=False, separators=(",", ":"))
    facts = game_facts(record, report, observed)
    report.turns = []
    report.final_raw_events = ()
    return text, facts


def observe_points(record: Record) -> PointSums:
    """The observer of a game indexed without its per-turn facts: its points summed, no event's text (R251)."""
    return PointSums()


def index_summary(record: Record, report: GameReport, fmt: str,
                  observed: PointSums | None) -> tuple[str | None, Any]:
    """:func:`index_game` without the per-turn facts (built when a reader first needs them, R250): the
    game-level rows only, the points summed by ``observed`` (:func:`observe_points`'s)."""
    text = None
    if fmt == "json":
        text = json.dumps(record_to_json(record), ensure_ascii=False, separators=(",", ":"))
    facts = game_summary(record, report, observed if observed is not None else PointSums())
    report.turns = []
    report.final_raw_events = ()
    return text, facts


def indexing_validator(*, jobs: int = 1, scheduler: str | None = None, tileset: Any = None,
                       tileset_path: str | None = None, per_turn: bool = False) -> Validator:
    """A validator that also indexes each game (its events observed during the replay, R215).

    ``per_turn``: with each game's per-turn facts (``grn archive add --per-turn``); without, the game-level
    rows only, and the per-turn facts are built when a reader first needs them (R250).
    """
    return Validator(jobs=jobs, scheduler=scheduler, tileset=tileset, tileset_path=tileset_path,
                     keep_turns=False, index=index_game if per_turn else index_summary,
                     observe=observe_game if per_turn else observe_points, preload=PRELOAD)


__all__ = ["index_game", "index_summary", "observe_game", "observe_points", "indexing_validator", "PRELOAD"]
