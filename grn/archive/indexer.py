"""What the archive asks of each game it validates: its index rows, worked out where the game is validated.

``grn archive add`` validates files with :class:`grn.batch.Validator` and hands
it :func:`index_game`, which the workers (processes or Dask) run on each game
after validating it, so that indexing is spread over them as validating is.
"""

from __future__ import annotations

import json
from typing import Any

from grn.archive.facts import game_facts
from grn.batch import Validator
from grn.jsonform import record_to_json
from grn.record import Record
from grn.validate import GameReport

#: What the process pool's fork server imports for the archive, beside the reader and the rules.
PRELOAD = ("grn.archive.indexer",)


def index_game(record: Record, report: GameReport, fmt: str) -> tuple[str | None, Any]:
    """The facts the archive stores of one validated game, and the text it keeps of a game read from JSON.

    The facts hold what the archive keeps of the turns, so the report's turns are dropped here: they
    are not sent back from the worker twice.
    """
    text = None
    if fmt == "json":
        text = json.dumps(record_to_json(record), ensure_ascii=False, separators=(",", ":"))
    facts = game_facts(record, report)
    report.turns = []
    report.final_raw_events = ()
    return text, facts


def indexing_validator(*, jobs: int = 1, scheduler: str | None = None, tileset: Any = None,
                       tileset_path: str | None = None) -> Validator:
    """A validator that also indexes each game (every turn's events kept for the facts)."""
    return Validator(jobs=jobs, scheduler=scheduler, tileset=tileset, tileset_path=tileset_path,
                     keep_turns=True, index=index_game, preload=PRELOAD)


__all__ = ["index_game", "indexing_validator", "PRELOAD"]
