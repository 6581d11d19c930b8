"""An archived game's stored text read back as a record (for dedup, export, review, the per-turn build and the
schema-4 upgrade; its own module, so that the upgrade needs no module that needs the archive's)."""

from __future__ import annotations

import json

from grn.notation.jsonform import records_from_json, records_to_json
from grn.notation.read import parse
from grn.core.record import Record


def record_of(text: str, fmt: str) -> Record:
    """The record of an archived game's stored text (``fmt``: ``grn`` or ``json``); ValueError when it is not
    one readable game."""
    if fmt == "json":
        document = records_to_json([])  # the collection's header, at this grn's format version
        document["games"] = [json.loads(text)]
        records, problems = records_from_json(document, file="<archive>")
        if problems or not records:
            raise ValueError("the stored JSON form cannot be read")
        return records[0]
    games = parse(text, file="<archive>")
    if len(games) != 1:
        raise ValueError("the stored text is not one game")
    return games[0]


__all__ = ["record_of"]
