"""What the archive knows about one game, computed from its record and its validation report.

Everything here is generic: it names no game and no feature.  Per-turn facts
are the turn's commands in their JSON form (:func:`grn.notation.jsonform.command_to_json`)
and the engine's events converted field by field (:func:`event_to_json`), so a
new ruleset is archived without a change here.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import operator
import re
import sys
import threading
import zlib
from json.encoder import encode_basestring, encode_basestring_ascii  # the C escapers json.dumps uses
from typing import Any, Final, Sequence

import zstandard

from grn.rules import registry
from grn.notation.jsonform import command_to_json
from grn.core.record import Record, Seat
from grn.check.validate import GameReport
from grn.core.value import Struct, Value

#: Columns of the ``actions`` view, in order (see docs/archive.md).
ACTION_COLUMNS = ("turn", "seq", "player", "type", "tile", "x", "y", "json")
#: Columns of the ``events`` view, in order.
EVENT_COLUMNS = ("turn", "seq", "player", "type", "points", "feature", "detail", "final", "json")

#: The sentence a score event describes itself with (``grn.check.validate`` keeps final events only as text).
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
        else:
            # a plug-in's dataclass: its module loaded dataclasses (not imported here: grn archive add starts
            # without it, R325)
            dc = sys.modules.get("dataclasses")
            if dc is not None and dc.is_dataclass(event):
                names = tuple(f.name for f in dc.fields(event) if f.name != "span")
            else:
                names = None
        _FIELDS[cls] = names
    return names


_PLAIN = (int, str, bool, float)


def _shallow(event: Any) -> dict[str, Any]:
    """:func:`event_to_json` for the encoder of :data:`_EVENTS`: the fields as they are (the encoder turns
    tuples into lists itself and asks :func:`event_to_json` for a value object), no copy of each value."""
    own = getattr(event, "to_json", None)
    if own is not None:
        data = own()
        if type(data) is dict:
            return {"type": type(event).__name__, **data}
    return event_to_json(event)


def _value_json(value: Any) -> Any:
    """The :data:`_EVENTS` encoder's hook: a value object inside an event, as :func:`to_plain` makes it."""
    return to_plain(value)


#: The events of a game in one pass of the C encoder (R155): their values unconverted in Python.
_EVENTS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False, default=_value_json)


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
            # most values are plain already: test the type before calling to_plain (many events a game)
            return {"type": cls.__name__, **{k if type(k) is str else str(k): v if v is None or type(v) in _PLAIN
                                             else to_plain(v) for k, v in data.items()}}
    names = _field_names(cls, event)
    if names is None:
        return {"type": cls.__name__, "text": str(event)}
    out: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        value = getattr(event, name, None)
        out[name] = value if value is None or type(value) in _PLAIN else to_plain(value)
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


# no check for circular references: these are trees made here (the check costs about 10% of the encoding)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False)
#: Rows keep each object's own key order (only the dedup key needs sorted keys).
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def _canonical(obj: Any) -> str:
    return _CANONICAL.encode(obj)


def _head_options(record: Record) -> list[tuple[str, str]]:
    """The dedup key's options: names and values stripped and lower-cased, sorted."""
    try:
        return sorted((k.strip().lower(), v.strip().lower()) for k, v in record.options().items())
    except ValueError:
        return [("?", (record.tag("Options") or "").strip().lower())]


def _seat_name(name: str) -> str:
    return " ".join(name.split()).casefold()


def _dedup_head(record: Record, seats: list[Seat]) -> dict[str, Any]:
    """The dedup key's body without its turns."""
    return {
        "game": record.game,
        "seats": [[list(s.colours), _seat_name(s.name)] for s in seats],
        "options": _head_options(record),
    }


#: The dedup key's head by the tags it is made of (R324): a file's games mostly share their players and options.
_HEADS: dict[tuple[str, str | None, str | None], str] = {}
#: Heads remembered, at most.
HEADS_MAX: Final = 10_000


def _head_text(record: Record, seats: list[Seat]) -> str:
    """``_canonical(_dedup_head(record, seats))`` (``seats`` are the record's, :func:`_seats`), remembered by the
    three tags it is made of: ``Game``, ``Players`` and ``Options`` (R324)."""
    key = (record.game, record.tag("Players"), record.tag("Options"))
    text = _HEADS.get(key)
    if text is None:
        text = _written_head(record, seats)
        if len(_HEADS) >= HEADS_MAX:
            _HEADS.clear()
        _HEADS[key] = text
    return text


def _written_head(record: Record, seats: list[Seat]) -> str:
    """``_canonical(_dedup_head(record, seats))``, the same text (R317), written here with json's own C escaper
    of each string (``ensure_ascii=False``, as the canonical encoder's): no dict to build and walk, sorted keys
    written in their order (game, options, seats)."""
    game = record.game
    if type(game) is not str:
        return _canonical(_dedup_head(record, seats))
    parts = ['{"game":', encode_basestring(game), ',"options":[']
    for i, (k, v) in enumerate(_head_options(record)):
        parts.append(("[" if i == 0 else ",[") + encode_basestring(k) + "," + encode_basestring(v) + "]")
    parts.append('],"seats":[')
    for i, s in enumerate(seats):
        colours: list[str] = []
        for c in s.colours:
            if type(c) is not str:
                return _canonical(_dedup_head(record, seats))
            colours.append(encode_basestring(c))
        parts.append(("[[" if i == 0 else ",[[") + ",".join(colours) + "]," + encode_basestring(_seat_name(s.name))
                     + "]")
    parts.append("]}")
    return "".join(parts)


#: The version of :mod:`marshal`'s format the dedup key reads the main line in (R252, R286): version 2 writes every
#: value whole (no references to values written before, no marks of interned strings), so equal lines give
#: equal bytes whatever objects they are made of; its format has not changed since Python 2.5.
MARSHAL_VERSION: Final = 2


def _dedup_hash(head: str, line: bytes) -> str:
    # the head's canonical JSON (:func:`_head_text`), a line feed, the main line's bytes (:func:`_main_line`), R252
    h = hashlib.sha256((head + "\n").encode("utf-8"))
    h.update(line)
    return h.hexdigest()


def _plain_values(values: tuple[Any, ...]) -> bool:
    """Whether every field is a str, an int, a bool, None or a tuple of them: values whose ``repr`` is the
    same in every process and every Python 3."""
    for v in values:
        t = type(v)
        if not (t is str or t is int or v is None or t is bool or (t is tuple and _plain_key(v) is not _OTHER)):
            return False
    return True


#: Each command class's name as the dedup key writes it (R286): UTF-8 bytes, encoded once a class (marshal
#: writes bytes as they are, where a str is encoded anew each time).
_NAMES: dict[type, bytes] = {}


def _key_values(a: Any) -> tuple[Any, ...] | None:
    """What the dedup key reads of one command (R286): a :class:`grn.core.value.Value`'s ``_key()`` (the fields that
    make two commands equal, read natively: a compiled method), another command's constructor fields
    (``_fields`` less the span); None when it has neither or they are not all plain (its JSON text then)."""
    values: tuple[Any, ...]
    if isinstance(a, Value):
        try:
            values = a._key()
        except NotImplementedError:  # a value class without its own _key: its fields
            return _field_values(a)
        return values if _plain_values(values) else None
    return _field_values(a)


def _fields_of(value: Any) -> tuple[Any, ...] | None:
    """Every constructor field of a command or event, by its class's remembered getter (None: no getter)."""
    cls = type(value)
    get = _GETTERS.get(cls, _OTHER)
    if get is _OTHER:
        get = _getter(cls, value)
    if get is None:
        return None
    values: tuple[Any, ...] = get(value)
    return values


def _field_values(a: Any) -> tuple[Any, ...] | None:
    values = _fields_of(a)
    return values if values is not None and _plain_values(values) else None


def _main_line(record: Record, keys: dict[str, str], ruleset: Any) -> tuple[str | None, bytes]:
    """The first player's seat key, and the main line as the dedup key reads it (R286):
    ``marshal.dumps(line, 2)`` of one flat list, each turn its number (an int) and its player's seat key
    (UTF-8 bytes) followed by each of its commands as its class's name (UTF-8 bytes) and what makes two such
    commands equal (a tuple: :func:`_key_values`); a command with another kind of value as the canonical
    JSON text of its JSON form (a str) instead.  The kinds keep the list unambiguous: an int starts a turn,
    a str is one command, bytes after a command's place are a class whose values follow.  No JSON a
    command, no tuple or list a turn or command: marshal writes the values in C, in one pass."""
    first: str | None = None
    line: list[Any] = []
    players: dict[str, bytes] = {}
    names = _NAMES  # module globals are dict look-ups when compiled: once a game, not once a command
    for t in record.turns:
        player = keys.get(t.player, t.player)
        if first is None and t.number > 0:
            first = player
        who = players.get(player)
        if who is None:
            who = players[player] = player.encode("utf-8", "surrogatepass")
        line.append(t.number)
        line.append(who)
        for a in t.actions:
            values = _key_values(a)
            if values is None:
                line.append(_canonical(command_to_json(a, ruleset)))
                continue
            cls = type(a)
            name = names.get(cls)
            if name is None:
                name = names[cls] = cls.__name__.encode("utf-8")
            line.append(name)
            line.append(values)
    return first, marshal.dumps(line, MARSHAL_VERSION)


def dedup_key(record: Record) -> str:
    """The hash that says two records are the same game, whatever their text.

    SHA-256 of the canonical JSON of the game kind, the seats in order (each
    seat's colours and its name, case-folded with spaces collapsed) and the
    options (names and values lower-cased, sorted), a line feed, and the main
    line: every turn's number, player (as its seat's key) and commands, each
    command its class's name and what makes two such commands equal, in one
    flat list (:func:`_main_line`, R286; schema 4's key, R252, nested them).  Event,
    Date, Site and every other tag, comments, glyphs, checkpoints, diagram
    markup and variations do not count.
    """
    seats = _seats(record)
    keys = {c: s.key for s in seats for c in s.colours}
    ruleset = registry.find_ruleset(record.game) if registry.known(record.game) else None
    return _dedup_hash(_head_text(record, seats), _main_line(record, keys, ruleset)[1])


#: Zstandard's level for the per-turn JSON (R216): level 1 packs a game's two texts at less than half the
#: instructions of zlib's level 1, 10% smaller, and unpacks them in half the time.
PACK_LEVEL = 1
#: How every Zstandard frame starts; a packed text without it is zlib's (schema 2, R156), whose streams
#: cannot start so (a zlib header's first two bytes are a multiple of 31: 0x28B5 is not).
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: The ``points.feature`` of final-scoring points (the report keeps final events only as sentences).
FINAL: Final = "(final scoring)"


#: Values a row of ``games``, ``tags``, ``seats``, ``points`` and ``points_packed`` (:meth:`GameFacts.rows`).
GAME_WIDTH: Final = 22
TAG_WIDTH: Final = 4
SEAT_WIDTH: Final = 10
POINT_WIDTH: Final = 5
PACKED_WIDTH: Final = 2


class GameFacts(Struct):
    """The rows the archive stores for one game (but its text and file).

    A :class:`grn.core.value.Struct`, not a dataclass (R325): ``grn archive add`` starts without ``dataclasses``.
    """

    __slots__ = ("game", "players", "n_players", "date", "result", "valid", "complete", "turns_played", "errors",
                 "final_scores", "winners", "first_player", "dedup", "problems", "tags", "seats", "actions",
                 "events", "points")
    _fields = ("game", "players", "n_players", "date", "result", "valid", "complete", "turns_played", "errors",
               "final_scores", "winners", "first_player", "dedup", "problems", "tags", "seats", "actions",
               "events", "points")

    def __init__(self, game: str, players: list[str], n_players: int, date: str | None, result: str | None,
                 valid: bool, complete: bool, turns_played: int, errors: int, final_scores: dict[str, int] | None,
                 winners: list[str], first_player: str | None, dedup: str, problems: list[dict[str, object]],
                 tags: list[tuple[str, str]], seats: list[tuple[int, str, str, int | None, int]] | None = None,
                 actions: bytes | None = None, events: bytes | None = None,
                 points: list[tuple[str, str, int]] | None = None) -> None:
        self.game = game
        self.players = players
        self.n_players = n_players
        self.date = date
        self.result = result
        self.valid = valid
        self.complete = complete
        self.turns_played = turns_played
        self.errors = errors
        self.final_scores = final_scores
        self.winners = winners
        self.first_player = first_player
        self.dedup = dedup
        self.problems = problems
        self.tags = tags
        #: (seat, key, name, score, won)
        self.seats: list[tuple[int, str, str, int | None, int]] = [] if seats is None else seats
        #: The main line's commands, one JSON text a game, compressed (:func:`pack`):
        #: ``[[turn, seat key, [command, ...]], ...]``, each command in its JSON form (keys sorted);
        #: the ``actions`` view reads it (docs/archive.md).  None: not built (the per-turn rows are built
        #: when a reader first needs them, R250).
        self.actions = actions
        #: The engine's events, one JSON text a game, compressed: ``[[turn, [event, ...]], ...]``, the final
        #: scoring last with turn ``null``; the ``events`` view reads it.  None with ``actions``.
        self.events = events
        #: (seat key, feature kind, points): the sums of the events' points (what ``stats`` reads).
        self.points: list[tuple[str, str, int]] = [] if points is None else points

    def rows(self, game_id: int, file_id: int, index: int, fmt: str, text: str, tag_values: list[Any],
             seat_values: list[Any], point_values: list[Any], packed_values: list[Any]) -> tuple[Any, ...]:
        """The game's row of ``games`` (returned) and its rows of ``tags``, ``seats``, ``points`` and
        ``points_packed``, their values appended one after another to the flat lists given (:data:`TAG_WIDTH`,
        :data:`SEAT_WIDTH`, :data:`POINT_WIDTH`, :data:`PACKED_WIDTH` values a row: ``grn.archive.db`` writes
        many rows a statement, R294): built here, compiled, where ``grn.archive.db`` writes them.  A game's
        ``points`` rows are one ``points_packed`` row, expanded when ``stats`` first needs them (R310,
        :mod:`grn.archive.points`), but where a text holds a NUL, which SQLite's JSON cannot give back."""
        event = site = round_ = None
        for i, (n, v) in enumerate(self.tags):
            tag_values.append(game_id)
            tag_values.append(i)
            tag_values.append(n)
            tag_values.append(v)
            # the last of each, as the rows always held them
            if n == "Event":
                event = v
            elif n == "Site":
                site = v
            elif n == "Round":
                round_ = v
        done = int(self.valid and self.complete)
        names: dict[str, str] = {}
        first = self.first_player
        for seat, key, name, score, won in self.seats:
            seat_values.extend((game_id, seat, key, name, score, won, int(key == first), done, self.game,
                                self.n_players))
            names[key] = name
        if done and self.points:  # statistics count finished, valid games only
            data = _json_points(self.points, names)
            if data is not None:
                packed_values.append(game_id)
                packed_values.append(data)
            else:  # SQLite's JSON would not give them back as they are (a NUL): written as rows (R310)
                for p, feature, n_points in self.points:
                    point_values.append(game_id)
                    point_values.append(p)
                    point_values.append(names.get(p, p))
                    point_values.append(feature)
                    point_values.append(n_points)
        return (game_id, file_id, index, fmt, self.game, event, site, self.date, round_,
                _json_strings(self.players, False), self.n_players, self.result, _json_strings(self.winners, True),
                int(self.valid), int(self.complete), self.turns_played, self.errors,
                None if self.final_scores is None else _json_scores(self.final_scores), self.first_player,
                self.dedup, _UTF8_ROW.encode(self.problems) if self.problems else "[]", text)


#: The JSON columns of ``games`` as ``json.dumps`` wrote them (its separators; names and problems in UTF-8).
_ASCII_ROW = json.JSONEncoder()
_UTF8_ROW = json.JSONEncoder(ensure_ascii=False)


def _json_strings(items: list[Any], ascii: bool) -> str:
    """``json.dumps(items)`` of a list of strings (``ensure_ascii=ascii``), the same text, made here with the
    encoder's own C escaping of each string: ``JSONEncoder.encode`` runs Python code and makes a C encoder
    at each call, three times a game (R292)."""
    parts: list[str] = []
    for item in items:
        if type(item) is not str:
            return (_ASCII_ROW if ascii else _UTF8_ROW).encode(items)
        parts.append(encode_basestring_ascii(item) if ascii else encode_basestring(item))
    return "[" + ", ".join(parts) + "]"


def _json_scores(scores: dict[Any, Any]) -> str:
    """``json.dumps(scores)`` of seat keys to scores (str to int), the same text (:func:`_json_strings`)."""
    parts: list[str] = []
    for key, value in scores.items():
        if type(key) is not str or type(value) is not int:
            return _ASCII_ROW.encode(scores)
        parts.append(encode_basestring_ascii(key) + ": " + str(value))
    return "{" + ", ".join(parts) + "}"


def _json_points(points: list[tuple[str, str, int]], names: dict[str, str]) -> str | None:
    """A game's ``points`` rows as ``points_packed.data`` (R310): ``{player: {name: {feature: points, ...}}, ...}``,
    compact JSON that three ``json_each`` expand with no function call a row (each key and number comes out of
    ``json_each`` as it is); made with the encoder's C escaping of each string (:func:`_json_strings`) and one
    join (a concatenation a piece cost five times as much).  None where SQLite's JSON cannot give the rows back
    as they are (a text with a NUL, which it cuts; a number that is not an int): they are then written as rows."""
    seats: dict[str, list[str]] = {}  # a seat's pieces: four seats, a dozen rows
    for p, feature, n in points:
        parts = seats.get(p)
        if parts is None:
            name = names.get(p, p)
            if type(p) is not str or type(name) is not str:
                return None
            parts = [encode_basestring(p), ":{", encode_basestring(name), ":{"]
            seats[p] = parts
        if type(feature) is not str or type(n) is not int:
            return None
        parts.append(encode_basestring(feature))
        parts.append(":")
        parts.append(str(n))
        parts.append(",")
    if not seats:
        return "{}"
    out: list[str] = ["{"]
    for parts in seats.values():
        parts[-1] = "}},"  # the seat's last "," closes its two objects
        out += parts
    out[-1] = "}}}"  # the last seat's "}}," closes the whole
    text = "".join(out)
    return None if "\\u0000" in text else text


#: Each thread's compressor and decompressor (zstandard's are not for concurrent use: Dask runs tasks in threads).
_CODECS = threading.local()


def _zstd() -> tuple[zstandard.ZstdCompressor, zstandard.ZstdDecompressor]:
    pair: tuple[zstandard.ZstdCompressor, zstandard.ZstdDecompressor] | None = getattr(_CODECS, "pair", None)
    if pair is None:
        pair = _CODECS.pair = (zstandard.ZstdCompressor(level=PACK_LEVEL), zstandard.ZstdDecompressor())
    return pair


def pack(text: str) -> bytes:
    """A JSON text as the archive stores it: UTF-8, Zstandard-compressed (a game's per-turn JSON is 6 times
    smaller; R216)."""
    return _zstd()[0].compress(text.encode("utf-8"))


def unpack(data: bytes | None) -> str | None:
    """The JSON text of :func:`pack` (``grn_unpack`` in the archive's SQL); zlib's packing of schema 2 too."""
    if data is None:
        return None
    if data[:4] == ZSTD_MAGIC:
        return _zstd()[1].decompress(data).decode("utf-8")
    return zlib.decompress(data).decode("utf-8")


# ---------------------------------------------------------------------------
# The texts of commands and events, remembered (R196)
# ---------------------------------------------------------------------------

#: How many commands' (and, apart, events') JSON texts a process remembers; past it the memory starts again.
CACHE_SIZE = 1 << 16
#: Stand for True and False in a cache key: ``True == 1`` in a tuple, but their JSON differ.
_TRUE = object()
_FALSE = object()


#: Each class's fields (the span left out) read at once, as a tuple (None: a class without named fields).
_GETTERS: dict[type, Any] = {}


def _getter(cls: type, value: Any) -> Any:
    names = _field_names(cls, value)
    if names is None:
        get: Any = None
    elif len(names) == 1:
        one = operator.attrgetter(names[0])
        get = lambda v: (one(v),)  # noqa: E731  (attrgetter of one name gives the value, not a tuple)
    else:
        get = operator.attrgetter(*names)
    _GETTERS[cls] = get
    return get


def value_key(value: Any) -> tuple[Any, ...] | None:
    """What a command or event is, for remembering its JSON text: its class and every constructor field
    (``_fields``, the span left out), or None when a field is not a str, int, bool, None or a tuple of them.

    Every field, not :meth:`grn.core.value.Value._key` (a score's ``_key`` leaves out counts its JSON holds); a
    bool stands apart from 1 and 0, which compare equal to it.
    """
    values = _fields_of(value)
    if values is None:
        return None
    for v in values:
        t = type(v)
        if not (t is str or t is int or v is None):
            # a bool or a tuple: each field as _plain_key has it (a value gives the same key every time)
            mapped = _plain_key(values)
            return None if mapped is _OTHER else (type(value), mapped)
    return (type(value), values)


#: What :func:`_plain_key` gives for a value it cannot stand for.
_OTHER = object()


def _plain_key(v: Any) -> Any:
    """``v`` as a part of a key: a str, an int or None itself, a bool as a marker, a tuple of such parts."""
    t = type(v)
    if t is str or t is int or v is None:
        return v
    if t is bool:
        return _TRUE if v else _FALSE
    if t is tuple:
        parts: list[Any] = []
        for item in v:
            part = _plain_key(item)
            if part is _OTHER:
                return _OTHER
            parts.append(part)
        return tuple(parts)
    return _OTHER


#: (codec, its commands' texts by value_key), by id(codec): a codec's JSON of a command (R196).
_COMMAND_TEXTS: dict[int, tuple[Any, dict[tuple[Any, ...], str]]] = {}
#: An event's JSON text and what it counts (R196), by value_key.
_EVENT_ENTRIES: dict[tuple[Any, ...], tuple[str, str | None, int, str, str]] = {}


def _command_texts(codec: Any) -> dict[tuple[Any, ...], str]:
    entry = _COMMAND_TEXTS.get(id(codec))
    if entry is None or entry[0] is not codec:
        entry = _COMMAND_TEXTS[id(codec)] = (codec, {})
    return entry[1]


def _command_text(codec: Any, texts: dict[tuple[Any, ...], str], command: Any) -> str:
    """The canonical JSON text (keys sorted) of one command, remembered."""
    key = value_key(command)
    if key is not None:
        text = texts.get(key)
        if text is not None:
            return text
    text = _canonical(codec.to_json(command))
    if key is not None:
        if len(texts) >= CACHE_SIZE:
            texts.clear()
        texts[key] = text
    return text


def _event_entry_of(data: dict[str, Any]) -> tuple[str, str | None, int, str, str]:
    """An event's JSON object as (its text, seat, points, the feature it counts for in a turn, in the final
    scoring): how its points are summed, worked out once."""
    try:
        text = _EVENTS.encode(data)
    except (TypeError, ValueError):  # a key the encoder will not write: every value through to_plain
        text = _COMPACT.encode(to_plain(data))
    player, points = data.get("player"), data.get("points")
    if not isinstance(player, str) or type(points) is not int:
        return (text, None, 0, "", "")
    feature = data.get("feature")
    if isinstance(feature, str):
        return (text, player, points, feature, feature)
    kind = str(data.get("type"))
    return (text, player, points, FINAL if data.get("final", False) else kind,
            FINAL if data.get("final", True) else kind)


def _event_entry(event: Any) -> tuple[str, str | None, int, str, str]:
    key = value_key(event)
    if key is not None:
        entry = _EVENT_ENTRIES.get(key)
        if entry is not None:
            return entry
    entry = _event_entry_of(_shallow(event))
    if entry[1] is not None:
        names = _field_names(type(event), event)
        if names is not None and "points" not in names:  # points only from a points field (R285)
            entry = (entry[0], None, 0, "", "")
    if key is not None:
        if len(_EVENT_ENTRIES) >= CACHE_SIZE:
            _EVENT_ENTRIES.clear()
        _EVENT_ENTRIES[key] = entry
    return entry


def _events_group(number: str, entries: list[tuple[str, str | None, int, str, str]],
                  sums: dict[tuple[str, str], int], final: bool) -> str:
    """One turn's ``[number,[event,...]]`` (number: ``null`` for the final scoring), its points counted."""
    texts: list[str] = []
    for text, player, points, in_turn, in_final in entries:
        texts.append(text)
        if player is not None:
            key = (player, in_final if final else in_turn)
            sums[key] = sums.get(key, 0) + points
    return "[" + number + ",[" + ",".join(texts) + "]]"


class EventFacts:
    """A game's engine events as the archive keeps them, gathered while the validator replays it.

    A :class:`grn.check.validate.TurnObserver`: ``grn archive add`` hands one to
    :func:`grn.check.validate.validate_record` per game, so the events are encoded
    (from remembered texts, R196) and their points summed as each turn is
    played, with no :class:`~grn.check.validate.TurnReport` a turn (R215).
    """

    def __init__(self) -> None:
        #: Each turn's ``[number,[event,...]]`` text, turns without events left out; the final scoring last.
        self.groups: list[str] = []
        #: (seat key, feature kind) -> points.
        self.sums: dict[tuple[str, str], int] = {}
        #: True once the final scoring's events were given.
        self.ended = False

    def turn(self, number: int, events: Sequence[Any]) -> None:
        """One main-line turn's events."""
        if events:
            self.groups.append(_events_group(str(number), [_event_entry(e) for e in events], self.sums, False))

    def final(self, events: Sequence[Any]) -> None:
        """The final scoring's events (turn ``null``)."""
        self.ended = True
        if events:
            self.groups.append(_events_group("null", [_event_entry(e) for e in events], self.sums, True))

    def __repr__(self) -> str:
        return f"<EventFacts {len(self.groups)} turns with events{', ended' if self.ended else ''}>"


#: What an event counts, by value_key: (seat key or None, points, feature in a turn, in the final scoring),
#: worked out from its JSON object once, with no text (R251).
_EVENT_POINTS: dict[tuple[Any, ...], tuple[str | None, int, str, str]] = {}


def _event_points(event: Any) -> tuple[str | None, int, str, str]:
    key = value_key(event)
    if key is not None:
        entry = _EVENT_POINTS.get(key)
        if entry is not None:
            return entry
    data = _shallow(event)
    player, points = data.get("player"), data.get("points")
    if not isinstance(player, str) or type(points) is not int:
        entry = (None, 0, "", "")
    else:
        feature = data.get("feature")
        if isinstance(feature, str):
            entry = (player, points, feature, feature)
        else:
            kind = str(data.get("type"))
            entry = (player, points, FINAL if data.get("final", False) else kind,
                     FINAL if data.get("final", True) else kind)
    if key is not None:
        if len(_EVENT_POINTS) >= CACHE_SIZE:
            _EVENT_POINTS.clear()
        _EVENT_POINTS[key] = entry
    return entry


#: Per event class, how its points are read (R251, R285): :data:`_DIRECT` from its ``player`` and ``points``
#: fields, :data:`_NONE` it has none (no ``points`` field: an event's points are a field of its, R285),
#: :data:`_BY_JSON` from its JSON object (remembered by value: a ``points`` field without ``player``, or a
#: class without named fields).
_POINT_PLAN: dict[type, int] = {}
# Final: compiled, constants (not a look-up in the module's dict each event, R292)
_DIRECT: Final = 1
_NONE: Final = 0
_BY_JSON: Final = 2


def _point_plan(cls: type, event: Any) -> int:
    names = _field_names(cls, event)
    if names is not None and "points" not in names:
        # no points field: no points, whatever its own to_json writes (R285); most events of a game
        plan = _NONE
    elif names is not None and "player" in names:
        plan = _DIRECT
    else:
        plan = _BY_JSON
    _POINT_PLAN[cls] = plan
    return plan


def _add_planned(sums: dict[tuple[str, str], int], e: Any, cls: type, plan: int, final: bool) -> None:
    """Count one event's points into ``sums``, its class's plan known (and not :data:`_NONE`): from its fields
    when its class has ``player`` and ``points`` (as its JSON holds them), else from its JSON object,
    remembered by value (R251)."""
    if plan == _DIRECT:
        player = getattr(e, "player")
        points = getattr(e, "points")
        if type(player) is str and type(points) is int:
            feature = getattr(e, "feature", None)
            if isinstance(feature, str):
                kind = feature
            elif final:
                kind = FINAL if getattr(e, "final", True) else cls.__name__
            else:
                kind = FINAL if getattr(e, "final", False) else cls.__name__
            key = (player, kind)
            sums[key] = sums.get(key, 0) + points
            return
    who, n, in_turn, in_final = _event_points(e)
    if who is not None:
        key = (who, in_final if final else in_turn)
        sums[key] = sums.get(key, 0) + n


class PointSums:
    """A game's points by seat and feature kind, summed while the validator replays it: what ``stats``
    reads of the events, with no event's text (``grn archive add`` without ``--per-turn``, R251).

    A :class:`grn.check.validate.TurnObserver`; the sums are those :class:`EventFacts` makes of the same events.
    """

    def __init__(self) -> None:
        #: (seat key, feature kind) -> points.
        self.sums: dict[tuple[str, str], int] = {}
        #: True once the final scoring's events were given.
        self.ended = False
        # the plans by class, held here: a module global is a dict look-up a turn when compiled (R292, R324)
        self._plans = _POINT_PLAN

    def turn(self, number: int, events: Sequence[Any]) -> None:
        """One main-line turn's events."""
        self._add(events, False)

    def final(self, events: Sequence[Any]) -> None:
        """The final scoring's events."""
        self.ended = True
        self._add(events, True)

    def _add(self, events: Sequence[Any], final: bool) -> None:
        sums = self.sums
        plans = self._plans
        # the validator gives a list (TurnObserver): read by index when compiled, not through an iterator
        items = events if isinstance(events, list) else list(events)
        for e in items:
            cls = type(e)
            plan = plans.get(cls, -1)
            if plan < 0:
                plan = _point_plan(cls, e)
            if plan != _NONE:  # most events score nothing: no call for them
                _add_planned(sums, e, cls, plan, final)

    def __repr__(self) -> str:
        return f"<PointSums {len(self.sums)} sums{', ended' if self.ended else ''}>"


def _seating(record: Record) -> tuple[list[Seat], dict[str, str], Any]:
    """The record's seats, each colour's seat key, and its game's ruleset (None for a game grn does not know)."""
    seats = _seats(record)
    keys: dict[str, str] = {}
    for s in seats:
        for c in s.colours:
            keys[c] = s.key
    return seats, keys, registry.find_ruleset(record.game) if registry.known(record.game) else None


def game_summary(record: Record, report: GameReport, observed: PointSums) -> GameFacts:
    """The archive's game-level rows of a validated record, without its per-turn facts (``actions`` and
    ``events`` None: built when a reader first needs them, R250).

    What each reader of ``games``, ``tags``, ``seats`` and ``points`` needs: the dedup key over the
    commands' remembered texts (the key is unchanged, R252), the points summed by ``observed`` during the
    replay.  No text is packed and no event is encoded.
    """
    seats, keys, ruleset = _seating(record)
    first, line = _main_line(record, keys, ruleset)
    sums = observed.sums
    if not observed.ended and report.final_events:
        # the final scoring the replay did not give as events ([End "now"]): the report's sentences
        for text in report.final_events:
            m = _SCORES_RE.match(text)
            if m:
                key = (keys.get(m.group(1), m.group(1)), FINAL)
                sums[key] = sums.get(key, 0) + int(m.group(2))
    return _facts(record, report, seats, first, line, None, None, sums)


def _actions_text(record: Record, keys: dict[str, str], ruleset: Any) -> tuple[str | None, str, bytes]:
    """The first player's seat key, the canonical JSON text of the main line's commands (the ``actions``
    column unpacked) from the commands' remembered texts (R196), and the main line as the dedup key reads
    it (:func:`_main_line`'s bytes): both in one walk over the commands (``add --per-turn``, R288)."""
    first: str | None = None
    # each command class's codec and its remembered texts, looked up once a game
    codecs: dict[type, tuple[Any, dict[tuple[Any, ...], str]]] = {}
    players: dict[str, tuple[str, bytes]] = {}
    turn_texts: list[str] = []
    line: list[Any] = []
    for t in record.turns:
        player = keys.get(t.player, t.player)
        if first is None and t.number > 0:
            first = player
        seat = players.get(player)
        if seat is None:
            seat = players[player] = (_canonical(player), player.encode("utf-8", "surrogatepass"))
        line.append(t.number)
        line.append(seat[1])
        commands: list[str] = []
        for a in t.actions:
            cls = type(a)
            # the dedup key's item (as _main_line makes it)
            values = _key_values(a)
            plain = values is not None
            if plain:
                name = _NAMES.get(cls)
                if name is None:
                    name = _NAMES[cls] = cls.__name__.encode("utf-8")
                line.append(name)
                line.append(values)
            # the command's canonical JSON text
            found = codecs.get(cls)
            if found is None:
                codec = ruleset.codec_for(a) if ruleset is not None else None
                if codec is None:  # not the game's own command: the registry's codec, not remembered
                    text = _canonical(command_to_json(a, ruleset))
                    commands.append(text)
                    if not plain:
                        line.append(text)
                    continue
                found = codecs[cls] = (codec, _command_texts(codec))
            text = _command_text(found[0], found[1], a)
            commands.append(text)
            if not plain:  # the same text: command_to_json asks the ruleset for this codec
                line.append(text)
        # the canonical JSON of [number, player, [command, ...]], made from the commands' texts
        turn_texts.append("[" + str(t.number) + "," + seat[0] + ",[" + ",".join(commands) + "]]")
    return first, "[" + ",".join(turn_texts) + "]", marshal.dumps(line, MARSHAL_VERSION)


def _facts(record: Record, report: GameReport, seats: list[Seat], first: str | None, line: bytes,
           packed_actions: bytes | None, packed_events: bytes | None,
           sums: dict[tuple[str, str], int]) -> GameFacts:
    """A game's :class:`GameFacts` from what :func:`game_facts` and :func:`game_summary` worked out."""
    scores = report.final_scores
    winners: list[str] = []
    if report.complete and report.valid and scores:
        best = max(scores.values())
        winners = [k for k, v in scores.items() if v == best]
    errors = 0
    problems: list[dict[str, object]] = []
    for d in report.diagnostics:
        errors += d.severity == "error"
        problems.append(d.to_json())
    facts = GameFacts(
        game=record.game, players=[s.name for s in seats], n_players=len(seats),
        date=iso_date(record.tag("Date")), result=record.tag("Result"), valid=report.valid,
        complete=report.complete, turns_played=report.turns_played, errors=errors, final_scores=scores,
        winners=winners, first_player=first, dedup=_dedup_hash(_head_text(record, seats), line),
        problems=problems, tags=list(record.tags), actions=packed_actions, events=packed_events,
        points=[(p, f, n) for (p, f), n in sums.items()])
    for i, s in enumerate(seats):
        score = scores.get(s.key) if scores else None
        facts.seats.append((i, s.key, s.name, score, int(s.key in winners)))
    return facts


def game_facts(record: Record, report: GameReport, observed: EventFacts | None = None) -> GameFacts:
    """The archive's rows for a validated record: its events from ``observed`` (given to the validator as
    its observer), else from ``report``'s turns (made with ``keep_turns=True``).

    The per-turn facts become two JSON texts, each encoded once (R155): no row,
    no encoding per command or event.  Compiled with mypyc (R195): this is the
    archive's share of ``grn archive add``.
    """
    seats, keys, ruleset = _seating(record)
    first, actions, line = _actions_text(record, keys, ruleset)
    if observed is None:  # the report's turns (made with keep_turns=True): the same calls as in the replay
        observed = EventFacts()
        for tr in report.turns:
            observed.turn(tr.number, tr.raw_events)
        if report.final_raw_events:
            observed.final(report.final_raw_events)
    sums = observed.sums
    groups = observed.groups
    # the final scoring (turn null): its engine events where the replay gave them, else the report's sentences
    if not observed.ended and report.final_events:
        final: list[tuple[str, str | None, int, str, str]] = []
        for text in report.final_events:
            m = _SCORES_RE.match(text)
            sentence: dict[str, Any] = {"type": "final", "text": text}
            if m:
                sentence.update(player=keys.get(m.group(1), m.group(1)), points=int(m.group(2)), detail=m.group(3))
            final.append(_event_entry_of(sentence))
        groups.append(_events_group("null", final, sums, True))
    return _facts(record, report, seats, first, line, pack(actions), pack("[" + ",".join(groups) + "]"), sums)


def _with_piece(packed: bytes, piece: str) -> bytes:
    """A packed JSON list (:func:`pack`) with one more item, the JSON text ``piece``, at its end."""
    text = unpack(packed) or "[]"
    return pack(text[:-1] + ("," if text != "[]" else "") + piece + "]")


def appended_facts(record: Record, report: GameReport, actions: bytes, events: bytes,
                   turn_events: Sequence[Any]) -> GameFacts:
    """The rows of a game whose main line is a stored game's with one more turn, ``record``'s last (R460).

    ``report`` is the validation report of ``record`` (the stored game's, valid and unfinished, with the turn
    played: a turn more, the scores after it), ``actions`` and ``events`` the stored game's packed per-turn texts,
    ``turn_events`` the events the engine gave for the turn.  What :func:`game_facts` gives of the record and its
    report, with no replay: the turn's command and event texts are added to the stored ones, and the dedup key and
    the game's other facts are made as :func:`game_facts` makes them.
    """
    seats, keys, ruleset = _seating(record)
    turn = record.turns[-1]
    first, line = _main_line(record, keys, ruleset)
    _, one, _ = _actions_text(Record(record.tags, (turn,)), keys, ruleset)
    packed_actions = _with_piece(actions, one[1:-1])
    packed_events = events
    if turn_events:
        group = _events_group(str(turn.number), [_event_entry(e) for e in turn_events], {}, False)
        packed_events = _with_piece(events, group)
    return _facts(record, report, seats, first, line, packed_actions, packed_events, {})
