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
from typing import Any, BinaryIO, Iterator

from grn.core import registry
from grn.core import shipped
from grn.rules.codec import MAX_DIGITS
from grn.core.errors import Diagnostic
from grn.rules.ruleset import Ruleset
from grn.core.record import (
    MAX_VARIATION_DEPTH, Checkpoint, Command, Comment, Extra, Markup, MarkupText, Nag, Note, Record, Turn,
    Variation,
)

FORMAT_VERSION = 1
Json = dict[str, Any]


def schema(name: str = "record.schema.json") -> Json:
    """A JSON Schema: ``record.schema.json`` is composed (:func:`record_schema`), the others shipped in ``schemas/``.

    Loaded once (the record schema again when a game is registered).
    """
    return _schema(name, registry.generation() if name == "record.schema.json" else 0)


@lru_cache(maxsize=None)
def _schema(name: str, generation: int) -> Json:
    if name == "record.schema.json":
        return record_schema()
    text = shipped.read_text("grn.schemas", name)
    return json.loads(text)  # type: ignore[no-any-return]


def record_schema() -> Json:
    """The schema of the JSON form: the envelope (``schemas/record-envelope.schema.json``) with the
    ``action`` definition made from every known ruleset's codecs (:meth:`grn.rules.codec.CommandCodec.schema`).

    ``schemas/record.schema.json`` is this schema written out (``python -m grn.notation.jsonform``); a test
    keeps the two the same.
    """
    text = shipped.read_text("grn.schemas", "record-envelope.schema.json")
    doc = json.loads(text)
    schemas: dict[str, list[Json]] = {}
    for ruleset in registry.rulesets():
        for codec in ruleset.codecs:
            # games sharing a command share its codec; where their schemas differ (games reserve other words
            # of their notation, never tile ids), an object of that type must satisfy one of them here, and
            # its own game's when the record is read (_command): a word one game's notation reads otherwise
            # is a tile id in another's, and its JSON must read back
            found = schemas.setdefault(codec.json_type, [])
            own = codec.schema()
            if own not in found:
                found.append(own)
    action = doc["$defs"]["action"]
    action["properties"] = {"type": {"enum": list(schemas)}}
    action["allOf"] = [{"if": {"properties": {"type": {"const": t}}, "required": ["type"]},
                        "then": found[0] if len(found) == 1 else {"anyOf": found}}
                       for t, found in schemas.items()]
    return doc  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------
# Record -> JSON
# ---------------------------------------------------------------------------

def command_to_json(cmd: Command, ruleset: Ruleset | None = None) -> Json:
    """One engine command as a JSON object (its game's codec: :meth:`grn.rules.codec.CommandCodec.to_json`)."""
    codec = ruleset.codec_for(cmd) if ruleset is not None else None
    if codec is None:
        codec = next((c for r in registry.rulesets() if (c := r.codec_for(cmd)) is not None), None)
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
    ruleset = registry.find_ruleset(record.game) if registry.known(record.game) else None
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
    if obj["type"] in _shared_types():
        # the record schema let this object through on another game's terms: hold it to this game's
        quick, full = _own_validators(codec)
        error = None if quick is not None and quick.is_valid(obj) else next(full.iter_errors(obj), None)
        if error is not None:
            where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
            raise NotThisGame(f"{path}{where}", f"{error.message} in the game {ruleset.name!r}")
    return codec.from_json(obj)


@lru_cache(maxsize=None)
def _own_validators(codec: Any) -> tuple[Any, Any]:
    """The codec's own schema: jsonschema-rs's validator (None without it) to pass valid actions at
    once, as :func:`_quick_validator` does for the record schema, and jsonschema's to word errors."""
    from jsonschema import Draft202012Validator

    try:
        import jsonschema_rs
    except ImportError:
        return None, Draft202012Validator(codec.schema())
    return jsonschema_rs.validator_for(codec.schema()), Draft202012Validator(codec.schema())


def _shared_types() -> frozenset[str]:
    """The action types whose schema differs between games (the record schema takes any of them)."""
    return _shared_types_of(registry.generation())


@lru_cache(maxsize=None)
def _shared_types_of(generation: int) -> frozenset[str]:
    action = schema()["$defs"]["action"]
    return frozenset(rule["if"]["properties"]["type"]["const"] for rule in action["allOf"] if "anyOf" in rule["then"])


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
    tags = tuple((k, v) for k, v in obj["tags"])
    record = Record(tags)
    try:
        ruleset = registry.find_ruleset(record.game)
    except registry.UnknownGame as exc:
        index = next((i for i, (k, _) in enumerate(tags) if k == "Game"), 0)
        raise NotThisGame(f"{path}.tags[{index}]", str(exc)) from None
    return Record(tags,
                  tuple(_turn(t, ruleset, f"{path}.turns[{i}]") for i, t in enumerate(obj.get("turns", []))),
                  tuple(_extra(n, ruleset, f"{path}.intro[{i}]")  # type: ignore[misc]
                        for i, n in enumerate(obj.get("intro", []))))


def _path(parts: tuple[Any, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


class TooLong(str):
    """A JSON integer with more digits than GRN allows (kept as its text by :func:`loads`)."""


def _bounded_int(text: str) -> Any:
    digits = text.lstrip("-")
    return TooLong(text) if len(digits) > MAX_DIGITS else int(text)


def loads(text: str) -> Any:
    """``json.loads`` that never turns a huge integer into a crash (it becomes a :class:`TooLong` that
    :func:`check` reports); too deep a document raises ``RecursionError``, for the caller to report."""
    return json.loads(text, parse_int=_bounded_int)


#: JSON containers one variation adds (turns, turn, extras, variation), and the envelope's own.
_DEPTH_PER_VARIATION = 4
_ENVELOPE_DEPTH = 8
_PLACEHOLDER: Json = {"type": "comment", "text": "", "line": False}


#: JSON nesting GRN can use (deeper is an error before any schema check).
_MAX_JSON_DEPTH = _ENVELOPE_DEPTH + _DEPTH_PER_VARIATION * MAX_VARIATION_DEPTH
_TOO_BIG = 10 ** MAX_DIGITS


def _values(document: Any, base: tuple[Any, ...] = ()) -> list[Diagnostic]:
    """What JSON Schema lets through but GRN cannot use: floats where numbers are whole, numbers longer
    than GRN writes, and nesting deeper than GRN allows (checked without recursion).

    ``base`` is the path of ``document`` in its file (a game streamed alone is ``("games", i)``).
    """
    problems: list[Diagnostic] = []
    limit = _MAX_JSON_DEPTH
    work: list[tuple[Any, tuple[Any, ...]]] = [(document, base)]
    while work and len(problems) < 20:
        value, parts = work.pop()
        if len(parts) > limit:
            problems.append(Diagnostic(f"{_path(parts[:12])}...: nested too deep: variations nest at most "
                                       f"{MAX_VARIATION_DEPTH} deep", None, None, code="schema"))
            break
        if isinstance(value, int) and not isinstance(value, bool) and not -_TOO_BIG < value < _TOO_BIG:
            value = TooLong(value)  # a streaming reader gives the number itself
        if isinstance(value, TooLong):
            problems.append(Diagnostic(f"{_path(parts)}: {value[:12]}... has {len(value.lstrip('-'))} digits: a "
                                       f"number in GRN has at most {MAX_DIGITS}", None, None, code="schema"))
        elif isinstance(value, float):
            problems.append(Diagnostic(f"{_path(parts)}: {value!r} is not a whole number: GRN's numbers are "
                                       "integers", None, None, code="schema"))
        elif isinstance(value, dict):
            work += [(v, parts + (k,)) for k, v in value.items()]
        elif isinstance(value, list):
            work += [(v, parts + (k,)) for k, v in enumerate(value)]
    return problems


def _pieces(document: Any, base: tuple[Any, ...] = (), name: str | None = None
            ) -> list[tuple[tuple[Any, ...], Any, str | None]]:
    """The document cut at its variations: (path, part with its variations replaced, the $defs entry it is).

    jsonschema descends recursively; cut this way each part is shallow, however deep variations nest.
    """
    out: list[tuple[tuple[Any, ...], Any, str | None]] = []
    todo: list[tuple[tuple[Any, ...], Any, str | None]] = [(base, document, name)]
    while todo:
        path, part, name = todo.pop()

        def cut(value: Any, parts: tuple[Any, ...], top: bool) -> Any:
            if isinstance(value, dict):
                if not top and value.get("type") == "variation" and len(parts) > 1 and parts[-2] in ("extras", "intro"):
                    todo.append((parts, value, "extra"))
                    return _PLACEHOLDER
                return {k: cut(v, parts + (k,), False) for k, v in value.items()}
            if isinstance(value, list):
                return [cut(v, parts + (i,), False) for i, v in enumerate(value)]
            return value

        out.append((path, cut(part, path, True), name))
    return out


def check(document: Any, *, file: str | None = None,
          schema_name: str = "record.schema.json") -> list[Diagnostic]:
    """Check a JSON document against a shipped schema: one diagnostic per violation.

    Each message names the JSON path of the offending value.  The record
    schema is also held to what GRN can write: whole numbers of at most
    :data:`~grn.rules.codec.MAX_DIGITS` digits, variations at most
    :data:`~grn.core.record.MAX_VARIATION_DEPTH` deep.
    """
    if schema_name != "record.schema.json":
        pieces: list[tuple[tuple[Any, ...], Any, str | None]] = [((), document, None)]
    else:
        found = _values(document)
        if found:
            return [Diagnostic(d.message, None, file, code="schema") for d in found]
        pieces = _pieces(document)
    return _schema_problems(pieces, schema_name, file)


def check_game(game: Any, index: int, *, file: str | None = None) -> list[Diagnostic]:
    """:func:`check` for one game of a record file, ``$.games[index]``, read on its own (streaming)."""
    base = ("games", index)
    found = _values(game, base)
    if found:
        return [Diagnostic(d.message, None, file, code="schema") for d in found]
    return _schema_problems(_pieces(game, base, "game"), "record.schema.json", file)


def _target(schema_name: str, name: str | None) -> Json:
    full = schema(schema_name)
    return full if name is None else {"$defs": full["$defs"], "$ref": f"#/$defs/{name}"}


@lru_cache(maxsize=64)
def _validator(schema_name: str, generation: int, name: str | None) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_target(schema_name, name))


@lru_cache(maxsize=64)
def _quick_validator(schema_name: str, generation: int, name: str | None) -> Any:
    """jsonschema-rs's compiled validator (a few hundred times quicker), to pass valid parts at once;
    jsonschema's says what is wrong with the others, in the words users know.  None without it."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.validator_for(_target(schema_name, name))


def _schema_problems(pieces: list[tuple[tuple[Any, ...], Any, str | None]], schema_name: str,
                     file: str | None) -> list[Diagnostic]:
    from jsonschema.exceptions import best_match

    out = []
    generation = registry.generation()
    for base, part, name in pieces:
        quick = _quick_validator(schema_name, generation, name)
        if quick is not None and quick.is_valid(part):
            continue
        validator = _validator(schema_name, generation, name)
        for err in sorted(validator.iter_errors(part), key=lambda e: list(e.absolute_path)):
            if err.validator == "anyOf" and err.context:
                # an action games share, checked against each game's form of it: their common
                # complaint, at the value it concerns, says more than "valid under none"
                err = best_match(err.context)
            out.append(Diagnostic(f"{_path(base + tuple(err.absolute_path))}: {err.message}", None, file,
                                  code="schema"))
    return out


def _reads_back(record: Record) -> str | None:
    """What keeps the GRN text of ``record`` from reading back as the same record, if anything: what
    reading it says (a markup with too few arguments, say), or that strings hold what GRN text cannot
    write (a line break in a player's name)."""
    from grn.notation.read import MAX_GAME_CHARS, MAX_LINE_CHARS, parse
    from grn.notation.writer import tag_order, write_record

    text = write_record(record)
    # the limits a GRN file is read with (docs/notation.md, Limits): what passes them would not read back
    if len(text) > MAX_GAME_CHARS:
        return (f"its GRN text would be {len(text):,} characters long, more than the {MAX_GAME_CHARS:,} a game may "
                "hold, so it would not read back")
    if len(text) > MAX_LINE_CHARS:
        for number, line in enumerate(text.split("\n"), 1):
            if len(line) > MAX_LINE_CHARS:
                return (f"line {number} of its GRN text would be {len(line):,} characters long, more than the "
                        f"{MAX_LINE_CHARS:,} a GRN line may hold, so it would not read back")
    again = parse(text)
    if len(again) != 1:
        return "this game holds what GRN text cannot write, so it would not read back"
    errors = [d.message for d in again[0].diagnostics if d.severity == "error"]
    if errors:
        return "; ".join(errors[:3])
    # (the text lists the tags in canonical order)
    if (again[0].tags, again[0].intro, again[0].turns) != (tuple(tag_order(record.tags)), record.intro,
                                                           record.turns):
        return ("this game holds what GRN text cannot write (a line break in a name or a word, say), "
                "so it would not read back")
    return None


def records_from_json(document: Any, *, file: str | None = None) -> tuple[list[Record], list[Diagnostic]]:
    """Records from a JSON document, after checking it against the schema.

    Returns the records (none when the document is invalid) and the problems.
    A game whose GRN text would not read back as the same game is a problem too.
    """
    problems = check(document, file=file)
    if problems:
        return [], problems
    records = []
    for i, game in enumerate(document["games"]):
        if i and _tags_only(document["games"][i - 1]):
            problems.append(_merges(i - 1, file))
        record, problem = _game_record(game, i, file)
        if problem is not None:
            problems.append(problem)
        elif record is not None:
            records.append(record)
    return ([] if problems else records), problems


def _tags_only(game: Json) -> bool:
    return not game.get("turns") and not game.get("intro")


def _merges(index: int, file: str | None) -> Diagnostic:
    """A game of header tags only, with another game after it: GRN text would read the two as one (R69)."""
    return Diagnostic(f"$.games[{index}]: this game is header tags only and another game follows it: in GRN text "
                      "the next game's tags would join its own (a game ends at its moves), so it would not read "
                      "back; give it a turn or a comment, or make it the last game", None, file, code="schema")


def _game_record(game: Json, index: int, file: str | None) -> tuple[Record | None, Diagnostic | None]:
    """The record of a checked JSON game, or why GRN cannot use it."""
    try:
        record = record_from_json(game, f"$.games[{index}]")
    except NotThisGame as exc:
        return None, Diagnostic(str(exc), None, file, code="schema")
    problem = _reads_back(record)
    if problem is not None:
        return None, Diagnostic(f"$.games[{index}]: {problem}", None, file, code="schema")
    return record, None


class _NotStreamable(Exception):
    """The document is not the usual shape, or not JSON the streaming reader takes."""


class ReadWhole(Exception):
    """:func:`stream_records` cannot go on: read the document whole, skipping the first ``told`` records
    and the problems already ``said``."""

    def __init__(self, told: int, said: set[str]) -> None:
        super().__init__(told)
        self.told = told
        self.said = said


def stream_records(fh: BinaryIO, *, file: str | None = None) -> Iterator[Record | Diagnostic]:
    """The records of a JSON record file, read game by game in bounded memory (ijson's C reader), and
    the problems, each as soon as it is found.

    Each game gets every check :func:`records_from_json` makes, so a file's good games are read even
    when another is not.  A document of another shape, or one the streaming reader refuses (a syntax
    error, a number longer than 19 digits, ``NaN``, a byte-order mark, bytes that are not UTF-8),
    raises :class:`ReadWhole`: the caller reads it whole (:func:`loads`, :func:`records_from_json`),
    which tells its problems with line and column as it always has.
    """
    import ijson

    # basic_parse: no prefix strings, which cost memory as the square of the nesting depth
    events = ijson.basic_parse(fh, use_float=True)
    told = 0  # records told so far, and problems: the whole-document reading skips them
    said: set[str] = set()
    try:
        for item in _stream(events, file):
            if isinstance(item, Record):
                told += 1
            else:
                said.add(item.message)
            yield item
    except (_NotStreamable, ijson.JSONError, ValueError, RuntimeError) as exc:  # RuntimeError: events ran out
        raise ReadWhole(told, said) from exc


def _stream(events: Iterator[tuple[str, Any]], file: str | None) -> Iterator[Record | Diagnostic]:
    from ijson import ObjectBuilder

    def build(event: str, value: Any) -> Any:
        builder = ObjectBuilder()
        builder.event(event, value)
        depth = 1 if event in ("start_map", "start_array") else 0
        while depth:
            event, value = next(events)
            builder.event(event, value)
            if event in ("start_map", "start_array"):
                depth += 1
                if depth > _MAX_JSON_DEPTH:
                    raise _NotStreamable  # the whole reading reports it, as it always has
            elif event in ("end_map", "end_array"):
                depth -= 1
        return builder.value

    event, _ = next(events, ("", None))
    if event != "start_map":
        raise _NotStreamable
    envelope: dict[str, Any] = {}
    seen_games = False
    for event, value in events:
        if event == "end_map":  # of the top level: build() takes each value whole
            break
        key = value  # a map_key of the top level
        event, value = next(events)
        if key != "games" or event != "start_array" or seen_games:
            envelope[key] = build(event, value)
            continue
        seen_games = True
        envelope["games"] = []
        index = 0
        tags_only = False  # the game before: header tags only
        for event, value in events:
            if event == "end_array":  # of the games: build() takes each game whole
                break
            game = build(event, value)
            if tags_only:
                yield _merges(index - 1, file)
            tags_only = isinstance(game, dict) and _tags_only(game)
            problems = check_game(game, index, file=file)
            if problems:
                yield from problems
            else:
                record, problem = _game_record(game, index, file)
                yield record if record is not None else problem  # type: ignore[misc]
            index += 1
    if next(events, None) is not None:
        raise _NotStreamable  # more after the document: the whole reading says where
    yield from check(envelope, file=file)


if __name__ == "__main__":  # python -m grn.notation.jsonform: write schemas/record.schema.json
    import sys
    from pathlib import Path

    target = Path(__file__).resolve().parent.parent.parent / "schemas" / "record.schema.json"
    target.write_text(json.dumps(record_schema(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
