"""The archive's write transactions: the write lock first, all or nothing.

Every writer of an archive (``add``'s upgrade, the per-turn build, the points
expansion, the merge of duplicates, the analysis, the serve recorder) holds its
changes in one ``BEGIN IMMEDIATE`` transaction, committed when its block ends
and rolled back on any error, unless SQLite ended it already: the inserts say
``OR ROLLBACK`` (R315), so a failed constraint ends its transaction itself.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def write_transaction(con: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``with write_transaction(con):`` one write transaction on ``con`` (opened with ``isolation_level=None``):
    the write lock taken at once, committed at the block's end, rolled back if the block raises."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:  # an insert's failed constraint ends it itself (OR ROLLBACK, R315)
            con.execute("ROLLBACK")
        raise


__all__ = ["write_transaction"]
