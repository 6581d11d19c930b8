"""A game's ``points`` rows, kept packed by ``archive add`` and expanded when ``stats`` first needs them (R310).

``points`` (a row a seat and feature kind, 12 or 13 a game) and its covering
index ``points_name`` have one reader: the points by player and feature kind
of ``grn archive stats``.  Writing them cost ``add`` about a twentieth of its
instructions, so ``add`` (and every other writer of a game's rows) writes a
game's rows as one row of ``points_packed``, JSON objects that SQLite's
``json_each`` expands, and the rows are expanded into ``points``, all pending
games in one transaction, when ``stats`` first reads them, or up front by
``grn archive index``.

A connection that cannot write (``connect(readonly=True)``), or a writer that
cannot have the write lock soon, expands nothing: ``stats`` then reads the
pending rows as they are, expanded within its query (R312): the same figures,
only slower.  An expansion and ``add`` at once lose nothing and count nothing
twice: each takes the write lock, and an expansion moves the rows it reads
out of ``points_packed`` in the same transaction (R313).
"""

from __future__ import annotations

import os
import sqlite3
from typing import Callable

from grn.archive.db import ArchiveError, connect, drop_indexes, make_indexes
from grn.archive.transaction import write_transaction

#: Seconds a stats waits for the write lock to expand (``archive add`` holds it for a batch of games at a
#: time): past that it reads the pending rows as they are (R312) rather than wait for the writer.
LOCK_WAIT = 1.0

#: The rows of ``points`` the packed rows stand for, ``data`` being ``{player: {name: {feature: points}}}``:
#: each column straight from a ``json_each`` (an object's key, a number's value), no JSON function called a
#: row (``e.value ->> 0`` and the like on an array a row took 60% more time to expand, R311).
EXPANDED = ("SELECT p.game_id, s.key, n.key, f.key, f.value "
            "FROM points_packed p, json_each(p.data) s, json_each(s.value) n, json_each(n.value) f")


def has_packed(con: sqlite3.Connection) -> bool:
    """Whether the archive has the table of packed rows (schema 7; an older one read as it is has not)."""
    return con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'points_packed'"
                       ).fetchone() is not None


def pending(con: sqlite3.Connection) -> int:
    """How many games' points rows are still packed."""
    if not has_packed(con):
        return 0
    return int(con.execute("SELECT count(*) FROM points_packed").fetchone()[0])


def any_pending(con: sqlite3.Connection) -> bool:
    """Whether any game's points rows are still packed (cheaper than :func:`pending`: the first row only)."""
    return has_packed(con) and con.execute("SELECT EXISTS (SELECT 1 FROM points_packed)").fetchone()[0] == 1


def expand(con: sqlite3.Connection) -> int:
    """Expand every pending packed row into ``points`` in one transaction, ``con`` writable and outside a
    transaction; returns the games expanded.  Into an empty ``points`` (the first expansion after a bulk
    add) the ``points_name`` index is dropped and made again once, sorted, before the commit (R311, as R287)."""
    if not has_packed(con):
        return 0
    # the write lock first: no other expansion or add between the read and the delete
    with write_transaction(con):
        if not con.execute("SELECT EXISTS (SELECT 1 FROM points_packed)").fetchone()[0]:
            return 0
        empty = not con.execute("SELECT EXISTS (SELECT 1 FROM points)").fetchone()[0]
        remade = drop_indexes(con, ("points",)) if empty else []
        con.execute("INSERT INTO points " + EXPANDED)
        games = con.execute("DELETE FROM points_packed").rowcount
        make_indexes(con, remade)
    return int(games)


def try_expand(con: sqlite3.Connection) -> int:
    """:func:`expand` where ``con`` can: nothing for a read-only connection, inside a transaction, or when the
    write lock is not had within the connection's busy timeout (the pending rows are then read as they are,
    R312).  Returns the games expanded."""
    if con.in_transaction or con.execute("PRAGMA query_only").fetchone()[0]:
        return 0
    try:
        return expand(con)
    except sqlite3.OperationalError:  # locked, or a file this process cannot write: read the rows as they are
        return 0


#: Pending games from which :func:`ensure` says what it is doing before it starts (about a quarter of a
#: second of expanding: a command that stays silent longer looks stuck).
NOTICE_GAMES = 10_000


def ensure(con: sqlite3.Connection, path: str | os.PathLike[str],
           progress: Callable[[str], None] | None = None) -> int:
    """Expand the pending packed rows that ``con`` (a read-only connection to the archive at ``path``, outside a
    transaction) sees, through a writable connection of its own that waits at most :data:`LOCK_WAIT` for the
    write lock.  Returns the games expanded; 0 too when the archive cannot be written now: its readers then
    read the pending rows as they are (R312).  ``progress`` is told first when :data:`NOTICE_GAMES` or more
    games are pending."""
    if con.in_transaction or not any_pending(con):
        return 0
    if progress is not None and (waiting := pending(con)) >= NOTICE_GAMES:
        progress(f"expanding the points of {waiting:,} games added since the last stats, once "
                 "(grn archive index does it right after an add)")
    try:
        writer = connect(path)
    except (ArchiveError, sqlite3.Error):
        return 0
    try:
        writer.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT * 1000)}")
        return try_expand(writer)
    finally:
        writer.close()


def source(some: str) -> str:
    """What ``stats`` reads its points rows from, ``some`` the condition on their game (``""`` or ``" WHERE
    game_id IN (...)"``) applied to each part (``json_each`` has no ``game_id``: it is the packed row's):
    ``points`` and, beside it, the expansion of the pending packed rows (R312)."""
    return (f"(SELECT name, feature, points FROM points{some} UNION ALL "
            f"SELECT n.key, f.key, f.value FROM points_packed p, json_each(p.data) s, json_each(s.value) n, "
            f"json_each(n.value) f{some})")


__all__ = ["EXPANDED", "LOCK_WAIT", "any_pending", "ensure", "expand", "has_packed", "pending", "source",
           "try_expand"]
