"""What the archive knows about one game, computed from its record and its validation report.

Everything here is generic: it names no game and no feature.  Per-turn facts
are the turn's commands in their JSON form (:func:`grn.jsonform.command_to_json`)
and the engine's events converted field by field (:func:`event_to_json`), so a
new ruleset is archived without a change here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from grn.jsonform import command_to_json
from grn.record import Record, Seat
from grn.validate import GameReport

#: Columns of the ``actions`` table, in order (see docs/archive.md).
ACTION_COLUMNS = ("turn", "seq", "player", "type", "tile", "x", "y", "json")
#: Columns of the ``events`` table, in order.
EVENT_COLUMNS = ("turn", "seq", "player", "type", "points", "feature", "detail", "final", "json")

#: The sentence a score event describes itself with (``grn.validate`` keeps final events only as text).
_SCORES_RE = re.compile(r"^(\S+) scores (-?\d+) for (.*)$")
_DATE_RE = re.compile(r"^\s*(\d{4})[.\-/](\d{1,2}|\?\?)[.\-/](\d{1,2}|\?\?)\s*$")


def to_plain(value: Any) -> Any:
    """A value made of JSON types: tuples become lists, value objects their fields."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    return event_to_json(value)


#: Field names per event class (looked up once per class: there are many events per game).
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type, event: Any) -> tuple[str, ...] | None:
    names = _FIELDS.get(cls, ())
    if names == ():
        if hasattr(event, "_fields"):
            names = tuple(n for n in getattr(event, "_fields") if n != "span")
        elif dataclasses.is_dataclass(event):
            names = tuple(f.name for f in dataclasses.fields(event) if f.name != "span")
        else:
            names = None
        _FIELDS[cls] = names
    return names


def event_to_json(event: Any) -> dict[str, Any]:
    """An engine event (or any value object) as a JSON object with its ``type`` (class name) and fields.

    The event's own ``to_json()`` when it has one; else the fields listed in
    ``_fields`` (grn's value classes) or its dataclass fields.
    """
    cls = type(event)
    own = getattr(event, "to_json", None)
    if callable(own):
        data = own()
        if isinstance(data, dict):
            return {"type": cls.__name__, **{str(k): to_plain(v) for k, v in data.items()}}
    names = _field_names(cls, event)
    if names is None:
        return {"type": cls.__name__, "text": str(event)}
    out: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        value = getattr(event, name, None)
        out[name] = value if value is None or type(value) in (int, str, bool, float) else to_plain(value)
    return out


def iso_date(value: str | None) -> str | None:
    """A ``Date`` tag (``2026.11.19``, ``2026.11.??``) as ``2026-11-19`` / ``2026-11`` / ``2026``; None if unreadable."""
    if not value:
        return None
    m = _DATE_RE.match(value)
    if m is None:
        m2 = re.match(r"^\s*(\d{4})(?:[.\-/]\?\?){0,2}\s*$", value)
        return m2.group(1) if m2 else None
    year, month, day = m.groups()
    if month == "??":
        return year
    if day == "??":
        return f"{year}-{int(month):02d}"
    return f"{year}-{int(month):02d}-{int(day):02d}"


def _seats(record: Record) -> list[Seat]:
    try:
        return record.seats()
    except ValueError:
        return []


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
#: Rows keep each object's own key order (only the dedup key needs sorted keys).
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _canonical(obj: Any) -> str:
    return _CANONICAL.encode(obj)


def dedup_key(record: Record, commands: list[list[dict[str, Any]]] | None = None) -> str:
    """The hash that says two records are the same game, whatever their text.

    SHA-256 of the canonical JSON of: the game kind; the seats in order (each
    seat's colours and its name, case-folded with spaces collapsed); the
    options (names and values lower-cased, sorted); and the main line, every
    turn's number, player (as its seat's key) and commands in JSON form.
    Event, Date, Site and every other tag, comments, glyphs, checkpoints,
    diagram markup and variations do not count.  ``commands``: each turn's
    commands in JSON form when the caller has them already.
    """
    seats = _seats(record)
    keys = {c: s.key for s in seats for c in s.colours}
    try:
        options = sorted((k.strip().lower(), v.strip().lower()) for k, v in record.options().items())
    except ValueError:
        options = [("?", (record.tag("Options") or "").strip().lower())]
    body = {
        "game": record.game,
        "seats": [[list(s.colours), " ".join(s.name.split()).casefold()] for s in seats],
        "options": options,
        "turns": [[t.number, keys.get(t.player, t.player),
                   [command_to_json(a) for a in t.actions] if commands is None else commands[i]]
                  for i, t in enumerate(record.turns)],
    }
    return hashlib.sha256(_canonical(body).encode("utf-8")).hexdigest()


@dataclass(slots=True)
class GameFacts:
    """The rows the archive stores for one game (but its text and file)."""

    game: str
    players: list[str]
    n_players: int
    date: str | None
    result: str | None
    valid: bool
    complete: bool
    turns_played: int
    errors: int
    final_scores: dict[str, int] | None
    winners: list[str]
    first_player: str | None
    dedup: str
    problems: list[dict[str, object]]
    tags: list[tuple[str, str]]
    #: (seat, key, name, score, won)
    seats: list[tuple[int, str, str, int | None, int]] = field(default_factory=list)
    #: rows of ACTION_COLUMNS
    actions: list[tuple[Any, ...]] = field(default_factory=list)
    #: rows of EVENT_COLUMNS
    events: list[tuple[Any, ...]] = field(default_factory=list)


def _rest(data: dict[str, Any], taken: dict[str, bool]) -> str | None:
    """The fields that no column holds, as JSON (None when the columns hold them all)."""
    rest = {k: v for k, v in data.items() if not taken.get(k, False)}
    return _COMPACT.encode(rest) if rest else None


def _action_row(turn: int, seq: int, player: str, data: dict[str, Any]) -> tuple[Any, ...]:
    kind, tile, x, y = data.get("type"), data.get("tile"), data.get("x"), data.get("y")
    # a field goes to its column when it has the column's type, else it stays in the JSON
    taken = {"type": isinstance(kind, str), "tile": isinstance(tile, str), "x": type(x) is int,
             "y": type(y) is int}
    return (turn, seq, player, kind if taken["type"] else None, tile if taken["tile"] else None,
            x if taken["x"] else None, y if taken["y"] else None, _rest(data, taken))


def _event_row(turn: int | None, seq: int, data: dict[str, Any], final: bool) -> tuple[Any, ...]:
    kind, player, points = data.get("type"), data.get("player"), data.get("points")
    feature, detail, is_final = data.get("feature"), data.get("detail"), data.get("final", final)
    taken = {"type": isinstance(kind, str), "player": isinstance(player, str), "points": type(points) is int,
             "feature": isinstance(feature, str), "detail": isinstance(detail, str),
             "final": isinstance(is_final, bool)}
    return (turn, seq, player if taken["player"] else None, kind if taken["type"] else None,
            points if taken["points"] else None, feature if taken["feature"] else None,
            detail if taken["detail"] else None, int(bool(is_final)), _rest(data, taken))


def game_facts(record: Record, report: GameReport) -> GameFacts:
    """The archive's rows for a validated record (``report`` made with ``keep_turns=True``)."""
    seats = _seats(record)
    keys = {c: s.key for s in seats for c in s.colours}
    scores = report.final_scores
    winners: list[str] = []
    if report.complete and report.valid and scores:
        best = max(scores.values())
        winners = [k for k, v in scores.items() if v == best]
    first = next((keys.get(t.player, t.player) for t in record.turns if t.number > 0), None)
    commands = [[command_to_json(a) for a in t.actions] for t in record.turns]
    facts = GameFacts(
        game=record.game, players=[s.name for s in seats], n_players=len(seats),
        date=iso_date(record.tag("Date")), result=record.tag("Result"), valid=report.valid,
        complete=report.complete, turns_played=report.turns_played,
        errors=sum(d.severity == "error" for d in report.diagnostics), final_scores=scores,
        winners=winners, first_player=first, dedup=dedup_key(record, commands),
        problems=[d.to_json() for d in report.diagnostics], tags=list(record.tags))
    for i, s in enumerate(seats):
        score = scores.get(s.key) if scores else None
        facts.seats.append((i, s.key, s.name, score, int(s.key in winners)))
    actions = facts.actions
    for t, turn_commands in zip(record.turns, commands):
        player = keys.get(t.player, t.player)
        for seq, command in enumerate(turn_commands):
            actions.append(_action_row(t.number, seq, player, command))
    for tr in report.turns:
        for seq, e in enumerate(tr.raw_events):
            facts.events.append(_event_row(tr.number, seq, event_to_json(e), False))
    # the final scoring (turn NULL): its engine events where the report keeps them, else its sentences
    raw = getattr(report, "final_raw_events", ())
    if raw:
        for seq, e in enumerate(raw):
            facts.events.append(_event_row(None, seq, event_to_json(e), True))
    else:
        for seq, text in enumerate(report.final_events):
            m = _SCORES_RE.match(text)
            data: dict[str, Any] = {"type": "final", "text": text}
            if m:
                data.update(player=keys.get(m.group(1), m.group(1)), points=int(m.group(2)), detail=m.group(3))
            facts.events.append(_event_row(None, seq, data, True))
    return facts
