"""Search filters: from command-line words to one SQL ``WHERE`` over the ``games`` table.

Every filter narrows the set (they are ANDed); a filter given twice must hold
twice (two ``--player`` filters: games both played).  Per-turn filters hold
when one row matches all their terms:

* ``--event "type=ScoreEvent feature=X points>=10"``: one engine event of the game
* ``--action "type=place tile=33 x>=2"``: one command of the main line
* ``--beside A,B``: a command with tile ``A`` at x,y and one with tile ``B``
  orthogonally next to it (|dx| + |dy| = 1)

A term is ``KEY OP VALUE`` with OP one of ``= != < <= > >= ~`` (``~``: the
text contains VALUE, case-insensitive).  Keys other than the table's columns
are read from the row's JSON (``json_extract(json, '$.KEY')``).
"""

from __future__ import annotations

import re
import shlex
import sqlite3
from dataclasses import dataclass, field
from typing import Any

EVENT_COLUMNS = ("turn", "seq", "player", "type", "points", "feature", "detail", "final")
ACTION_COLUMNS = ("turn", "seq", "player", "type", "tile", "x", "y")

_TERM_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|!=|=|<|>|~)(.*)$", re.S)
_SCORE_RE = re.compile(r"^\s*([^<>=!~]*?)\s*(>=|<=|!=|=|<|>)\s*(-?\d+)\s*$")
_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class FilterError(ValueError):
    """A filter that cannot be read (a usage error)."""


@dataclass(slots=True)
class Filters:
    """The filters of ``grn archive search`` (and ``export``); empty lists filter nothing."""

    game: str | None = None
    players: list[str] = field(default_factory=list)
    date_from: str | None = None
    date_to: str | None = None
    tags: list[str] = field(default_factory=list)
    result: str | None = None
    winners: list[str] = field(default_factory=list)
    scores: list[str] = field(default_factory=list)
    valid: bool | None = None
    complete: bool | None = None
    events: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    beside: list[str] = field(default_factory=list)
    duplicates: bool = False
    #: ``[PLAYER:]COUNT OP N`` on the analysis (``blunders>=1``): see :func:`judgement_condition`.
    judgements: list[str] = field(default_factory=list)
    #: Only games analysed (True) or not analysed yet (False) by ``grn archive analyse``.
    analysed: bool | None = None
    #: Whether the archive has the analysis tables (an archive made before them: nothing is analysed).
    analysis_tables: bool = True


#: The largest number a filter compares (SQLite's integers are 64-bit).
MAX_NUMBER = 2**63 - 1
_NUMBER_RE = re.compile(r"[+-]?\d+")


def shown(spec: str) -> str:
    """A filter as a message quotes it: at most 40 characters of it."""
    return repr(spec if len(spec) <= 40 else spec[:37] + "...")


def number(text: str, what: str) -> int:
    """A whole number of a filter, or a FilterError for one SQLite cannot hold (R85)."""
    digits = text.strip().lstrip("+-")
    if len(digits) > 18 and int(digits[:30]) > MAX_NUMBER:  # never int() of 5,000 digits
        raise FilterError(f"{what}: the number {digits[:12]}... is too large (at most {MAX_NUMBER})")
    n = int(text)
    if not -MAX_NUMBER <= n <= MAX_NUMBER:
        raise FilterError(f"{what}: the number {text.strip()} is too large (at most {MAX_NUMBER})")
    return n


def _value(text: str, what: str = "filter") -> int | str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if _NUMBER_RE.fullmatch(text):
        return number(text, what)
    return text


def terms(spec: str, what: str) -> list[tuple[str, str, int | str]]:
    """``"type=place tile=33"`` -> ``[("type", "=", "place"), ("tile", "=", "33")]``."""
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise FilterError(f"{what} {shown(spec)}: {exc}") from None
    out: list[tuple[str, str, int | str]] = []
    for word in words:
        m = _TERM_RE.match(word)
        if m is None:
            raise FilterError(f"{what} {shown(spec)}: cannot read {shown(word)}: write KEY=VALUE, KEY>=N or KEY~TEXT")
        key, op, raw = m.group(1), m.group(2), m.group(3)
        value = _value(raw, f"{what} {shown(spec)}")
        if raw[:1] in ("<", ">", "=", "!", "~") or (op in ("<", "<=", ">", ">=") and not isinstance(value, int)):
            raise FilterError(f"{what} {shown(spec)}: cannot read {shown(word)}: <, <=, >, >= compare whole numbers")
        out.append((key, op, value))
    if not out:
        raise FilterError(f"{what} is empty: give at least one KEY=VALUE")
    return out


def _term_sql(alias: str, columns: tuple[str, ...], key: str, op: str, value: int | str,
              params: list[Any], text_keys: tuple[str, ...] = ()) -> str:
    if key in columns:
        col = f"{alias}.{key}"
    else:
        col = f"json_extract({alias}.json, '$.{key}')"
    if op == "~":
        params.append(str(value))
        return f"instr(lower({col}), lower(?)) > 0"
    if key in text_keys:
        value = str(value)  # tile ids are text even when they look like numbers
    params.append(value)
    sql_op = "<>" if op == "!=" else op
    return f"{col} {sql_op} ?"


def _player_term(alias: str, op: str, value: int | str, params: list[Any]) -> str:
    """An event's or command's player, given as a colour or as the seat's name."""
    if op not in ("=", "!="):
        raise FilterError("player takes = or != (a colour or a player's name)")
    params += [str(value), str(value)]
    cond = (f"({alias}.player = ? OR {alias}.player IN (SELECT key FROM seats s WHERE s.game_id = {alias}.game_id "
            f"AND s.name = ? COLLATE NOCASE))")
    return cond if op == "=" else f"NOT {cond}"


def _rows_filter(table: str, alias: str, columns: tuple[str, ...], spec: str, what: str,
                 params: list[Any], text_keys: tuple[str, ...] = ()) -> str:
    conds = []
    for key, op, value in terms(spec, what):
        if key == "player":
            conds.append(_player_term(alias, op, value, params))
        else:
            conds.append(_term_sql(alias, columns, key, op, value, params, text_keys))
    return f"g.id IN (SELECT {alias}.game_id FROM {table} {alias} WHERE {' AND '.join(conds)})"


def _date_bound(text: str, what: str) -> str:
    m = re.match(r"^\s*(\d{4})(?:[-./](\d{1,2})(?:[-./](\d{1,2}))?)?\s*$", text)
    if m is None:
        raise FilterError(f"{what} {text!r}: write a date as 2026-11-19, 2026-11 or 2026")
    year, month, day = m.groups()
    return year + (f"-{int(month):02d}" if month else "") + (f"-{int(day):02d}" if day else "")


#: The judgement counts a search can ask for, by their plural (the columns of ``analysis_players``).
COUNTS = ("inaccuracies", "mistakes", "blunders")


def judgement_condition(spec: str) -> tuple[str, list[Any]]:
    """The SQL condition on ``games g`` of ``--judgement`` ``[PLAYER:]COUNT OP N`` (``blunders>=2``,
    ``Ada:mistakes>=1``, ``inaccuracies=0``): a seat of the game (that player's, when named) has so many.

    Raises :class:`FilterError` in plain words for anything else.
    """
    m = re.fullmatch(r"\s*(?:([^:]+?)\s*:)?\s*([a-z]+)\s*(>=|<=|!=|=|>|<)\s*(\d{1,6})\s*", spec)
    if m is None or m.group(2) not in COUNTS:
        raise FilterError(f"--judgement {spec!r}: write COUNT>=N with COUNT one of {', '.join(COUNTS)} "
                         "(Ada:blunders>=1 for one player)")
    who, column, op, n = m.group(1), m.group(2), m.group(3), int(m.group(4))
    sql_op = "<>" if op == "!=" else op
    cond = f"g.id IN (SELECT game_id FROM analysis_players WHERE {column} {sql_op} ?"
    params: list[Any] = [n]
    if who:
        cond += " AND (name = ? COLLATE NOCASE OR player = ?)"
        params += [who.strip(), who.strip()]
    return cond + ")", params


def where(f: Filters) -> tuple[str, list[Any]]:
    """The SQL condition on ``games g`` that the filters mean, and its parameters."""
    conds, params = conditions(f)
    return (" AND ".join(conds) or "1"), params


#: A condition that only asks which games a tags or seats row names: these rows go with their game
#: (``db.delete_game``), so the ids can be read from them without the ``games`` table (R289).
_ID_ONLY = re.compile(r"g\.id IN \((SELECT game_id FROM (?:tags|seats) WHERE [^()]*(?:\([^()]*\)[^()]*)*)\)")


def conditions(f: Filters) -> tuple[list[str], list[Any]]:
    """The SQL conditions on ``games g`` that the filters mean, one a filter, and their parameters."""
    conds: list[str] = []
    params: list[Any] = []
    if f.game:
        conds.append("g.game = ?")
        params.append(f.game.strip().lower())
    for name in f.players:
        conds.append("g.id IN (SELECT game_id FROM seats WHERE name = ? COLLATE NOCASE)")
        params.append(name.strip())
    if f.date_from:
        conds.append("g.date >= ?")
        params.append(_date_bound(f.date_from, "--from"))
    if f.date_to:
        # a partial upper bound (2026-11) takes in every day of it
        conds.append("g.date < ?")
        params.append(_date_bound(f.date_to, "--to-date") + "\uffff")
    for spec in f.tags:
        m = re.match(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*(=|~)(.*)$", spec, re.S)
        if m is None:
            raise FilterError(f"--tag {shown(spec)}: write NAME=VALUE or NAME~TEXT")
        name, op, value = m.group(1), m.group(2), m.group(3).strip()
        if op == "=":
            conds.append("g.id IN (SELECT game_id FROM tags WHERE name = ? AND value = ? COLLATE NOCASE)")
        else:
            conds.append("g.id IN (SELECT game_id FROM tags WHERE name = ? AND instr(lower(value), lower(?)) > 0)")
        params += [name, value]
    if f.result is not None:
        conds.append("instr(lower(g.result), lower(?)) > 0")
        params.append(f.result)
    for who in f.winners:
        conds.append("g.id IN (SELECT game_id FROM seats WHERE won = 1 AND (name = ? COLLATE NOCASE OR key = ?))")
        params += [who.strip(), who.strip()]
    for spec in f.scores:
        m = _SCORE_RE.match(spec)
        if m is None:
            raise FilterError(f"--score {shown(spec)}: write >=60, Ada>=60 or red<40")
        who, op, n = m.group(1), m.group(2), number(m.group(3), f"--score {shown(spec)}")
        sql_op = "<>" if op == "!=" else op
        if who:
            conds.append(f"g.id IN (SELECT game_id FROM seats WHERE score {sql_op} ? "
                         "AND (name = ? COLLATE NOCASE OR key = ?))")
            params += [n, who, who]
        else:
            conds.append(f"g.id IN (SELECT game_id FROM seats WHERE score {sql_op} ?)")
            params.append(n)
    if f.valid is not None:
        conds.append("g.valid = ?")
        params.append(int(f.valid))
    if f.complete is not None:
        conds.append("g.complete = ?")
        params.append(int(f.complete))
    for spec in f.events:
        conds.append(_rows_filter("events", "e", EVENT_COLUMNS, spec, "--event", params))
    for spec in f.actions:
        conds.append(_rows_filter("actions", "a", ACTION_COLUMNS, spec, "--action", params, ("tile",)))
    for spec in f.beside:
        parts = [p.strip() for p in spec.split(",")]
        if len(parts) != 2 or not all(parts):
            raise FilterError(f"--beside {shown(spec)}: write two tiles, e.g. 33,66")
        # per game: its commands with either tile, once (the actions of an archive are unpacked on demand,
        # R156), then the pairs among those few
        conds.append("EXISTS (WITH p(tile, x, y) AS MATERIALIZED (SELECT a.tile, a.x, a.y FROM actions a "
                     "WHERE a.game_id = g.id AND a.tile IN (?, ?) AND a.x IS NOT NULL) "
                     "SELECT 1 FROM p a JOIN p b ON abs(a.x - b.x) + abs(a.y - b.y) = 1 WHERE a.tile = ? AND b.tile = ?)")
        params += parts + parts
    if f.duplicates:
        conds.append("g.dedup IN (SELECT dedup FROM games GROUP BY dedup HAVING count(*) > 1)")
    for spec in f.judgements:
        cond, more = judgement_condition(spec)
        conds.append(cond if f.analysis_tables else "0")
        params += more if f.analysis_tables else []
    if f.analysed is not None:
        if f.analysis_tables:
            conds.append(("" if f.analysed else "NOT ") +
                         "g.id IN (SELECT game_id FROM analysed WHERE problem IS NULL)")
        elif f.analysed:
            conds.append("0")
    return conds, params


def game_ids(con: sqlite3.Connection, f: Filters, limit: int | None = None) -> list[int]:
    """The ids of the games that match, in archive order."""
    conds, params = conditions(f)
    subqueries = [m.group(1) for m in map(_ID_ONLY.fullmatch, conds) if m is not None]
    if conds and len(subqueries) == len(conds):
        # tag and player filters alone: their indexes give the ids, and the rows of ``games`` (three to a page
        # with their texts) need not be read only to return the id each already names (R289)
        # (INTERSECT gives each id once; one filter alone needs DISTINCT: a game has many tags and seats)
        sql = " INTERSECT ".join(q.replace("SELECT game_id", "SELECT DISTINCT game_id", 1) for q in subqueries)
        sql += " ORDER BY 1"
    else:
        sql = f"SELECT g.id FROM games g WHERE {' AND '.join(conds) or '1'} ORDER BY g.id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [r[0] for r in con.execute(sql, params)]


def count(con: sqlite3.Connection, f: Filters) -> int:
    """How many games match."""
    cond, params = where(f)
    return int(con.execute(f"SELECT count(*) FROM games g WHERE {cond}", params).fetchone()[0])
