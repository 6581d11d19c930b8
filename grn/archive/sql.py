"""``grn archive search --sql``: a user's SQL, run read-only and within a time limit (issue 25, R85).

The archive is opened read-only (``mode=ro``, ``PRAGMA query_only``), but SQLite
still lets a read-only connection create files: ``ATTACH DATABASE '/any/path'``
makes an empty database anywhere, and ``VACUUM INTO`` writes a copy.  An
authorizer therefore lets a statement do only what a query does (read tables,
call functions, recurse, read a few schema pragmas) and refuses everything else
while the statement is *prepared*, before SQLite touches the disk.  A progress
handler stops a statement that runs past the time limit.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any, Iterator

__all__ = ["SqlRefused", "SqlTimeout", "run_query", "shown_value", "DEFAULT_TIMEOUT", "MAX_VALUE_BYTES"]

#: Seconds a ``--sql`` statement may run (``--sql-timeout``).
DEFAULT_TIMEOUT = 30.0
#: The largest string or blob a statement may make (``zeroblob(1e9)`` would take a gigabyte): 64 MiB, room
#: for the text of the largest game grn reads.
MAX_VALUE_BYTES = 64 * 1024 * 1024

#: What a query may do: read, select, call a function, recurse in a WITH.
_ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
#: Pragmas that only read the schema, whatever their argument.
_READING_PRAGMAS = {"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
                    "foreign_key_list", "collation_list", "function_list", "pragma_list", "database_list"}
#: What a refused action is, in words.
_ACTIONS = {
    sqlite3.SQLITE_ATTACH: "ATTACH (it can create a file anywhere)",
    sqlite3.SQLITE_DETACH: "DETACH",
    sqlite3.SQLITE_PRAGMA: "this PRAGMA",
    sqlite3.SQLITE_TRANSACTION: "a transaction (VACUUM INTO writes a file)",
    sqlite3.SQLITE_INSERT: "INSERT",
    sqlite3.SQLITE_UPDATE: "UPDATE",
    sqlite3.SQLITE_DELETE: "DELETE",
}


class SqlRefused(Exception):
    """A statement that does more than read: refused before it ran."""


class SqlTimeout(Exception):
    """A statement that ran past its time limit, and was stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the query ran past the time limit of {seconds:g} s (--sql-timeout SECONDS)")
        self.seconds = seconds


def run_query(con: sqlite3.Connection, sql: str, timeout: float = DEFAULT_TIMEOUT) -> tuple[list[str], Iterator[Any]]:
    """Run ``sql`` on ``con`` as a read-only query: its column names and its rows (read as they are iterated).

    Raises :class:`SqlRefused` for a statement that would write or reach another
    file (before it runs), :class:`SqlTimeout` when the statement (or reading its
    rows) takes more than ``timeout`` seconds, and ``sqlite3`` errors for bad SQL.
    """
    refused: list[str] = []

    def authorize(action: int, arg1: str | None, arg2: str | None, db: str | None, trigger: str | None) -> int:
        if action in _ALLOWED:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in _READING_PRAGMAS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master" and trigger is None and not refused:
            # SQLite asks this while it reads the schema for a table-valued pragma (pragma_table_info);
            # the connection is read-only (mode=ro, query_only), so no statement can write it
            return sqlite3.SQLITE_OK
        refused.append(_ACTIONS.get(action, f"SQLite action {action}"))
        return sqlite3.SQLITE_DENY

    deadline = time.monotonic() + timeout
    stopped: list[bool] = []

    def progress() -> int:
        if time.monotonic() > deadline:
            stopped.append(True)
            return 1
        return 0

    con.set_authorizer(authorize)
    con.set_progress_handler(progress, 10_000)
    con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    try:
        cur = con.execute(sql)
    except sqlite3.DatabaseError:
        if refused:
            raise SqlRefused(f"--sql is read-only: {refused[0]} is refused") from None
        if stopped:
            raise SqlTimeout(timeout) from None
        raise
    names = [d[0] for d in cur.description or ()]

    def rows() -> Iterator[Any]:
        try:
            for row in cur:  # not ``yield from``: closing the generator must not close a cursor of a closed link
                yield row
        except sqlite3.OperationalError:
            if stopped:
                raise SqlTimeout(timeout) from None
            raise

    return names, rows()


def shown_value(value: Any) -> Any:
    """A value of a row as ``--sql`` prints it: a blob as ``x'0a1b'`` (its first 32 bytes, then its size)."""
    if isinstance(value, bytes):
        head = value[:32].hex()
        return f"x'{head}'" + (f"... ({len(value):,} bytes)" if len(value) > 32 else "")
    return value
