"""How ``archive add`` writes (issue 26 item 4, round twelve): multi-row inserts without a statement
journal (R315)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from grn.archive.db import connect, insert_games
from grn.archive.indexer import indexing_validator
from grn.batch import GameResult

ROOT = Path(__file__).resolve().parent.parent


def test_a_failed_insert_ends_the_transaction_and_leaves_nothing(tmp_path: Path) -> None:
    # OR ROLLBACK (R315): a constraint that fails inside a multi-row insert rolls the whole transaction back
    games = ROOT / "examples" / "goldrush-2p.grn"
    con = connect(tmp_path / "a.db", create=True)
    with indexing_validator() as v:
        results = [r for r in v.run(str(games)) if isinstance(r, GameResult)]
    assert results
    con.execute("BEGIN IMMEDIATE")
    con.execute("INSERT INTO files (id, sha256, path, size, added) VALUES (1, 'x', 'p', 0, 'now')")
    insert_games(con, [(1, 1, results[0])])
    with pytest.raises(sqlite3.IntegrityError):
        insert_games(con, [(1, 1, results[0])])  # the same game id again
    assert not con.in_transaction
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM files").fetchone()[0] == 0
    con.close()
