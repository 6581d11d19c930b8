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

from grn.errors import Diagnostic
from grn.ruleset import Ruleset
from grn.record import (
    Command, Checkpoint, Comment, Extra, Markup, MarkupText, Nag, Note, Record, Turn, Variation,
)

FORMAT_VERSION = 1
Json = dict[str, Any]


def schema(name: str = "record.schema.json") -> Json:
    """A JSON Schema: ``record.schema.json`` is composed (:func:`record_schema`), the others shipped in ``schemas/``.

    Loaded once (the record schema again when a game is registered).
    """
    from grn import games

    return _schema(name, games.generation() if name == "record.schema.json" else 0)


@lru_cache(maxsize=None)
def _schema(name: str, generation: int) -> Json:
    if name == "record.schema.json":
        return record_schema()
    text = resources.files("grn.schemas").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def record_schema() -> Json:
    """The schema of the JSON form: the envelope (``schemas/record-envelope.schema.json``) with the
    ``action`` definition made from every known ruleset's codecs (:meth:`grn.codec.CommandCodec.schema`).

    ``schemas/record.schema.json`` is this schema written out (``python -m grn.jsonform``); a test
    keeps the two the same.
    """
    from grn import games

    text = resources.files("grn.schemas").joinpath("record-envelope.schema.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    schemas: dict[str, list[Json]] = {}
    for ruleset in games.rulesets():
        for codec in ruleset.codecs:
            # games sharing a command share its codec; where their schemas differ (games reserve other words
            # of their notation, never tile ids), an object of that type must satisfy them all: one record
            # schema for every game refuses a word any game's notation reads otherwise
            found = schemas.setdefault(codec.json_type, [])
            own = codec.schema()
            if own not in found:
                found.append(own)
    action = doc["$defs"]["action"]
    action["properties"] = {"type": {"enum": list(schemas)}}
    action["allOf"] = [{"if": {"properties": {"type": {"const": t}}, "required": ["type"]},
                        "then": found[0] if len(found) == 1 else {"allOf": found}}
                       for t, found in schemas.items()]
    return doc  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------
# Record -> JSON
# ---------------------------------------------------------------------------

def command_to_json(cmd: Command, ruleset: Ruleset | None = None) -> Json:
    """One engine command as a JSON object (its game's codec: :meth:`grn.codec.CommandCodec.to_json`)."""
    codec = ruleset.codec_for(cmd) if ruleset is not None else None
    if codec is None:
        from grn import games

        codec = next((c for r in games.rulesets() if (c := r.codec_for(cmd)) is not None), None)
        if codec is None:
            raise TypeError(f"not a command of a known game: {cmd!r}")
    return codec.to_json(cmd)


def _extra_to_json(extra: Extra | Note, ruleset: Ruleset | None = None) -> Json:
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
        return {"type": "variation", "intro": [_extra_to_json(n, ruleset) for n in extra.intro],
                "turns": [turn_to_json(t, ruleset) for t in extra.turns]}
    raise TypeError(f"not an extra: {extra!r}")


def turn_to_json(turn: Turn, ruleset: Ruleset | None = None) -> Json:
    """One turn as a JSON object (``ruleset``: the game's, else the command's game is looked up)."""
    return {
        "number": turn.number,
        "player": turn.player,
        "actions": [command_to_json(a, ruleset) for a in turn.actions],
        "extras": [_extra_to_json(e, ruleset) for e in turn.extras],
    }


def record_to_json(record: Record) -> Json:
    """One game as a JSON object."""
    from grn import games

    ruleset = games.find_ruleset(record.game) if games.known(record.game) else None
    return {
        "tags": [[name, value] for name, value in record.tags],
        "intro": [_extra_to_json(n, ruleset) for n in record.intro],
        "turns": [turn_to_json(t, ruleset) for t in record.turns],
    }


def records_to_json(records: list[Record]) -> Json:
    """A record collection as the JSON document ``grn convert --to json`` writes."""
    return {"grn": FORMAT_VERSION, "games": [record_to_json(r) for r in records]}


# ---------------------------------------------------------------------------
# JSON -> Record
# ---------------------------------------------------------------------------

class NotThisGame(ValueError):
    """A JSON game the rulesets cannot use: an unknown ``Game``, or an action of another game.

    ``path`` is the JSON path of the offending value.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


def _command(obj: Json, ruleset: Ruleset, path: str) -> Command:
    codec = ruleset.codec_named(obj["type"])
    if codec is None:
        known = ", ".join(c.json_type for c in ruleset.codecs)
        raise NotThisGame(f"{path}.type", f"{obj['type']!r} is not an action of the game {ruleset.name!r} "
                                          f"(its actions: {known})")
    return codec.from_json(obj)


def _extra(obj: Json, ruleset: Ruleset, path: str) -> Extra:
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
        return Variation(tuple(_turn(t, ruleset, f"{path}.turns[{i}]") for i, t in enumerate(obj["turns"])),
                         tuple(_extra(n, ruleset, f"{path}.intro[{i}]")  # type: ignore[misc]
                               for i, n in enumerate(obj.get("intro", []))))
    raise ValueError(f"unknown extra type {kind!r}")  # the schema rules this out


def _turn(obj: Json, ruleset: Ruleset, path: str) -> Turn:
    return Turn(obj["number"], obj["player"],
                tuple(_command(a, ruleset, f"{path}.actions[{i}]") for i, a in enumerate(obj["actions"])),
                tuple(_extra(e, ruleset, f"{path}.extras[{i}]") for i, e in enumerate(obj.get("extras", []))))


def record_from_json(obj: Json, path: str = "$") -> Record:
    """One game from its (already schema-checked) JSON object.

    Raises :class:`NotThisGame` for an unknown ``Game`` or an action of another game.
    """
    from grn import games

    tags = tuple((k, v) for k, v in obj["tags"])
    record = Record(tags)
    try:
        ruleset = games.find_ruleset(record.game)
    except games.UnknownGame as exc:
        index = next((i for i, (k, _) in enumerate(tags) if k == "Game"), 0)
        raise NotThisGame(f"{path}.tags[{index}]", str(exc)) from None
    return Record(tags,
                  tuple(_turn(t, ruleset, f"{path}.turns[{i}]") for i, t in enumerate(obj.get("turns", []))),
                  tuple(_extra(n, ruleset, f"{path}.intro[{i}]")  # type: ignore[misc]
                        for i, n in enumerate(obj.get("intro", []))))


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
    records = []
    for i, game in enumerate(document["games"]):
        try:
            records.append(record_from_json(game, f"$.games[{i}]"))
        except NotThisGame as exc:
            problems.append(Diagnostic(str(exc), None, file, code="schema"))
    return ([] if problems else records), problems


if __name__ == "__main__":  # python -m grn.jsonform: write schemas/record.schema.json
    import sys
    from pathlib import Path

    target = Path(__file__).resolve().parent.parent / "schemas" / "record.schema.json"
    target.write_text(json.dumps(record_schema(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
