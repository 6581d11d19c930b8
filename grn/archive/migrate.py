"""Bringing an archive of an older schema to the current one, in place, in one transaction.

Schema 1 kept a row per command (``actions``) and per engine event
(``events``), with the fields no column held as JSON; schema 2 keeps one row a
game in ``game_turns`` (R155) and reads the rows through views of the same
names and columns.  The rows are turned back into the JSON objects they came
from, so the views show what the tables held.  The file does not shrink by
itself: SQLite reuses the freed pages (``VACUUM`` gives them back, R158).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from typing import Any, Iterator

from grn.archive.facts import dedup_key, pack
from grn.archive.stored import record_of

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _by_game(cur: sqlite3.Cursor) -> Iterator[tuple[int, list[tuple[Any, ...]]]]:
    for game_id, rows in itertools.groupby(cur, key=lambda r: r[0]):
        yield int(game_id), list(rows)


def _actions_json(rows: list[tuple[Any, ...]]) -> bytes:
    turns: list[list[Any]] = []
    for _, turn, seq, player, kind, tile, x, y, rest in rows:
        command: dict[str, Any] = json.loads(rest) if rest else {}
        for name, value in (("type", kind), ("tile", tile), ("x", x), ("y", y)):
            if value is not None:
                command[name] = value
        if seq == 0 or not turns or turns[-1][0] != turn:
            turns.append([turn, player, []])
        turns[-1][2].append(command)
    return pack(_CANONICAL.encode(turns))


def _events_json(rows: list[tuple[Any, ...]]) -> bytes:
    groups: list[list[Any]] = []
    for _, turn, seq, player, kind, points, feature, detail, final, rest in rows:
        event: dict[str, Any] = {"type": kind} if kind is not None else {}
        for name, value in (("player", player), ("points", points), ("feature", feature), ("detail", detail)):
            if value is not None:
                event[name] = value
        if bool(final) != (turn is None):  # the view's default: final in the final scoring only
            event["final"] = bool(final)
        if rest:
            event.update(json.loads(rest))
        if seq == 0 or not groups or groups[-1][0] != turn:
            groups.append([turn, []])
        groups[-1][1].append(event)
    return pack(_COMPACT.encode(groups))


def upgrade_1_to_2(con: sqlite3.Connection, create_sql: str, views_sql: str) -> None:
    """Move schema 1's ``actions`` and ``events`` rows into ``game_turns`` (made by ``create_sql``), drop the
    tables, make the views (``views_sql``) and set the schema to 2; inside the caller's transaction."""
    con.execute(create_sql)
    actions = _by_game(con.execute(
        "SELECT game_id, turn, seq, player, type, tile, x, y, json FROM actions ORDER BY game_id, rowid"))
    events = _by_game(con.cursor().execute(
        "SELECT game_id, turn, seq, player, type, points, feature, detail, final, json FROM events "
        "ORDER BY game_id, rowid"))
    next_a, next_e = next(actions, None), next(events, None)
    rows: list[tuple[int, bytes, bytes]] = []
    empty = pack("[]")
    for (game_id,) in con.cursor().execute("SELECT id FROM games ORDER BY id").fetchall():
        a = e = empty
        while next_a is not None and next_a[0] < game_id:  # rows of a game no longer archived
            next_a = next(actions, None)
        if next_a is not None and next_a[0] == game_id:
            a, next_a = _actions_json(next_a[1]), next(actions, None)
        while next_e is not None and next_e[0] < game_id:
            next_e = next(events, None)
        if next_e is not None and next_e[0] == game_id:
            e, next_e = _events_json(next_e[1]), next(events, None)
        rows.append((game_id, a, e))
        if len(rows) >= 1000:
            con.executemany("INSERT INTO game_turns VALUES (?,?,?)", rows)
            rows = []
    con.executemany("INSERT INTO game_turns VALUES (?,?,?)", rows)
    con.execute("DROP TABLE actions")
    con.execute("DROP TABLE events")
    _execute_each(con, views_sql)
    con.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")


def rekey(con: sqlite3.Connection) -> int:
    """Give every game the dedup key of this schema (R252, R286), read from its stored text; inside the caller's
    transaction.  A text that no longer reads as one game keeps its old key (it matches no new one).
    Returns the games re-keyed."""
    rows: list[tuple[str, int]] = []
    done = 0
    for game_id, fmt, text in con.cursor().execute("SELECT id, format, text FROM games ORDER BY id"):
        try:
            rows.append((dedup_key(record_of(text, fmt)), game_id))
        except ValueError:
            continue
        if len(rows) >= 1000:
            con.executemany("UPDATE games SET dedup = ? WHERE id = ?", rows)
            done += len(rows)
            rows = []
    con.executemany("UPDATE games SET dedup = ? WHERE id = ?", rows)
    return done + len(rows)


#: The tables schema 6 clusters on their game (R300), each with the columns it copies and, for ``points``, the
#: grouping that makes its primary key (a row per seat and feature kind: schema 5 wrote them so, and a
#: duplicate an older grn might have left is summed, as ``stats`` counted it).
_CLUSTERED: tuple[tuple[str, str], ...] = (
    ("tags", "SELECT game_id, pos, name, value FROM old_tags ORDER BY game_id, pos"),
    ("seats", "SELECT game_id, seat, key, name, score, won, first, done, game, n_players FROM old_seats "
              "ORDER BY game_id, seat"),
    ("points", "SELECT game_id, player, min(name), feature, sum(points) FROM old_points GROUP BY game_id, player, "
               "feature ORDER BY game_id, player, feature"),
)


def cluster_child_tables(con: sqlite3.Connection, tables_sql: str, indexes_sql: str) -> None:
    """Schema 5 to 6 (R300): copy the rows of ``tags``, ``seats`` and ``points`` into the ``WITHOUT ROWID``
    tables of ``tables_sql``, clustered on their game, drop the old tables (and their indexes with them) and
    make ``indexes_sql``'s; inside the caller's transaction.  Every row is kept, column for column."""
    for table, _ in _CLUSTERED:
        con.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
    _execute_each(con, tables_sql)
    for table, select in _CLUSTERED:
        con.execute(f"INSERT INTO {table} {select}")
        con.execute(f"DROP TABLE old_{table}")
    _execute_each(con, indexes_sql)


def remove_orphan_analysis(con: sqlite3.Connection, tables: tuple[str, ...]) -> int:
    """Schema 7 to 8 (R430): delete the rows of the analysis ``tables`` (those the archive has) whose game is no
    longer archived (an older grn's ``delete_game`` left them); inside the caller's transaction.  Returns the
    rows deleted."""
    marks = ",".join("?" * len(tables))
    present = [t for (t,) in con.execute(f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({marks})",
                                         tables).fetchall()]
    deleted = 0
    for table in present:
        deleted += con.execute(f"DELETE FROM {table} WHERE game_id NOT IN (SELECT id FROM games)").rowcount
    return deleted


def _execute_each(con: sqlite3.Connection, script: str) -> None:
    """Run each statement of ``script`` inside the caller's transaction (``executescript`` would commit it
    first: an upgrade is all or nothing)."""
    for statement in script.split(";"):
        if statement.strip():
            con.execute(statement)
