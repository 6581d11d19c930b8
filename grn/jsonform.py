"""The JSON form of GRN records, checked by ``schemas/record.schema.json``.

``{"grn": 1, "games": [...]}``: each game has its ``tags`` (name/value pairs in
the order written), its ``intro`` notes and its ``turns``; each turn its
``actions`` (one object per engine command, told apart by ``type``) and its
``extras`` in the order written.  Conversion is lossless both ways: GRN ->
JSON -> GRN gives back the canonical text.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from grn.commands import (
    Card, Command, DiscardTile, FlipCard, Mine, PlaceCowboy, PlaceTent, PlaceTile, RevealTokens,
)
from grn.errors import Diagnostic
from grn.record import (
    Checkpoint, Comment, Extra, Markup, MarkupText, Nag, Note, Record, Turn, Variation,
)

FORMAT_VERSION = 1
Json = dict[str, Any]


@lru_cache(maxsize=None)
def schema(name: str = "record.schema.json") -> Json:
    """A JSON Schema shipped in ``schemas/`` (loaded once)."""
    text = resources.files("grn.schemas").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------
# Record -> JSON
# ---------------------------------------------------------------------------

def command_to_json(cmd: Command) -> Json:
    """One engine command as a JSON object."""
    if isinstance(cmd, PlaceTile):
        return {"type": "place", "tile": cmd.tile, "x": cmd.x, "y": cmd.y, "rotation": cmd.rotation}
    if isinstance(cmd, PlaceCowboy):
        return {"type": "cowboy", "location": cmd.location}
    if isinstance(cmd, PlaceTent):
        out: Json = {"type": "tent", "x": cmd.x, "y": cmd.y}
        if cmd.location is not None:
            out["location"] = cmd.location
        return out
    if isinstance(cmd, Mine):
        return {"type": "mine", "value": cmd.value}
    if isinstance(cmd, RevealTokens):
        return {"type": "tokens", "values": list(cmd.values)}
    if isinstance(cmd, DiscardTile):
        return {"type": "discard", "tile": cmd.tile}
    if isinstance(cmd, FlipCard):
        face: Json = {"kind": cmd.face.kind}
        if cmd.face.kind != "dynamite":
            face["value"] = cmd.face.value
        if cmd.face.colour is not None:
            face["colour"] = cmd.face.colour
        return {"type": "flip", "pos": cmd.pos, "face": face}
    raise TypeError(f"not a command: {cmd!r}")


def _extra_to_json(extra: Extra | Note) -> Json:
    if isinstance(extra, Nag):
        return {"type": "nag", "glyph": extra.glyph}
    if isinstance(extra, Comment):
        return {"type": "comment", "text": extra.text, "line": extra.line}
    if isinstance(extra, Checkpoint):
        return {"type": "score", "scores": [{"player": p, "points": s} for p, s in extra.scores]}
    if isinstance(extra, Markup):
        return {"type": "markup", "kind": extra.kind,
                "args": [{"text": a.text} if isinstance(a, MarkupText) else a for a in extra.args]}
    if isinstance(extra, Variation):
        return {"type": "variation", "intro": [_extra_to_json(n) for n in extra.intro],
                "turns": [turn_to_json(t) for t in extra.turns]}
    raise TypeError(f"not an extra: {extra!r}")


def turn_to_json(turn: Turn) -> Json:
    """One turn as a JSON object."""
    return {
        "number": turn.number,
        "player": turn.player,
        "actions": [command_to_json(a) for a in turn.actions],
        "extras": [_extra_to_json(e) for e in turn.extras],
    }


def record_to_json(record: Record) -> Json:
    """One game as a JSON object."""
    return {
        "tags": [[name, value] for name, value in record.tags],
        "intro": [_extra_to_json(n) for n in record.intro],
        "turns": [turn_to_json(t) for t in record.turns],
    }


def records_to_json(records: list[Record]) -> Json:
    """A record collection as the JSON document ``grn convert --to json`` writes."""
    return {"grn": FORMAT_VERSION, "games": [record_to_json(r) for r in records]}


# ---------------------------------------------------------------------------
# JSON -> Record
# ---------------------------------------------------------------------------

def _command(obj: Json) -> Command:
    kind = obj["type"]
    if kind == "place":
        return PlaceTile(obj["tile"], obj["x"], obj["y"], obj.get("rotation", 0))
    if kind == "cowboy":
        return PlaceCowboy(obj["location"])
    if kind == "tent":
        return PlaceTent(obj["x"], obj["y"], obj.get("location"))
    if kind == "mine":
        return Mine(obj.get("value"))
    if kind == "tokens":
        return RevealTokens(tuple(obj["values"]))
    if kind == "discard":
        return DiscardTile(obj["tile"])
    if kind == "flip":
        face = obj["face"]
        return FlipCard(obj["pos"], Card(face["kind"], face.get("value", 0), face.get("colour")))
    raise ValueError(f"unknown action type {kind!r}")  # the schema rules this out


def _extra(obj: Json) -> Extra:
    kind = obj["type"]
    if kind == "nag":
        return Nag(obj["glyph"])
    if kind == "comment":
        return Comment(obj["text"], obj.get("line", False))
    if kind == "score":
        return Checkpoint(tuple((s["player"], s["points"]) for s in obj["scores"]))
    if kind == "markup":
        return Markup(obj["kind"], tuple(MarkupText(a["text"]) if isinstance(a, dict) else a
                                         for a in obj["args"]))
    if kind == "variation":
        return Variation(tuple(_turn(t) for t in obj["turns"]),
                         tuple(_extra(n) for n in obj.get("intro", [])))  # type: ignore[misc]
    raise ValueError(f"unknown extra type {kind!r}")


def _turn(obj: Json) -> Turn:
    return Turn(obj["number"], obj["player"], tuple(_command(a) for a in obj["actions"]),
                tuple(_extra(e) for e in obj.get("extras", [])))


def record_from_json(obj: Json) -> Record:
    """One game from its (already schema-checked) JSON object."""
    return Record(tuple((k, v) for k, v in obj["tags"]),
                  tuple(_turn(t) for t in obj.get("turns", [])),
                  tuple(_extra(n) for n in obj.get("intro", [])))  # type: ignore[misc]


def check(document: Any, *, file: str | None = None,
          schema_name: str = "record.schema.json") -> list[Diagnostic]:
    """Check a JSON document against a shipped schema: one diagnostic per violation.

    Each message names the JSON path of the offending value.
    """
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema(schema_name))
    out = []
    for err in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        out.append(Diagnostic(f"{path}: {err.message}", None, file, code="schema"))
    return out


def records_from_json(document: Any, *, file: str | None = None) -> tuple[list[Record], list[Diagnostic]]:
    """Records from a JSON document, after checking it against the schema.

    Returns the records (none when the document is invalid) and the problems.
    """
    problems = check(document, file=file)
    if problems:
        return [], problems
    return [record_from_json(g) for g in document["games"]], []
