"""What the archive asks of each game it validates: its index rows, worked out where the game is validated.

``grn archive add`` validates files with :class:`grn.batch.Validator` and hands
it :func:`index_game`, which the workers (processes or Dask) run on each game
after validating it, so that indexing is spread over them as validating is.
"""

from __future__ import annotations

import json
from typing import Any

from grn.archive.facts import EventFacts, game_facts
from grn.batch import Validator
from grn.jsonform import record_to_json
from grn.record import Record
from grn.validate import GameReport

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


def indexing_validator(*, jobs: int = 1, scheduler: str | None = None, tileset: Any = None,
                       tileset_path: str | None = None) -> Validator:
    """A validator that also indexes each game (its events observed during the replay, R215)."""
    return Validator(jobs=jobs, scheduler=scheduler, tileset=tileset, tileset_path=tileset_path,
                     keep_turns=False, index=index_game, observe=observe_game, preload=PRELOAD)


__all__ = ["index_game", "observe_game", "indexing_validator", "PRELOAD"]
