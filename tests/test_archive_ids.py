"""Tag and player searches answered from their indexes (issue 26 item 4, R289): the ids a search finds are the
ones the ``games`` table gives, whatever tag, player, winner and score filters are combined, and a removed game
is never found."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grn.archive import search as s
from grn.archive.db import connect, delete_game
from grn.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("archive") / "club.db"
    files = sorted(str(p) for p in (ROOT / "examples").glob("*.grn"))
    result = runner.invoke(app, ["archive", "add", str(path), *files, "-q"])
    assert result.exit_code in (0, 1), result.output  # some examples are illegal on purpose
    return path


def _by_games_table(con: sqlite3.Connection, f: s.Filters) -> list[int]:
    cond, params = s.where(f)
    return [r[0] for r in con.execute(f"SELECT g.id FROM games g WHERE {cond} ORDER BY g.id", params)]


def _values(con: sqlite3.Connection, sql: str) -> list[str]:
    return sorted({str(r[0]) for r in con.execute(sql)})


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_the_ids_are_the_games_tables(db: Path, data: st.DataObject):
    con = connect(db)
    try:
        tags = _values(con, "SELECT name || '=' || value FROM tags")
        names = _values(con, "SELECT name FROM seats WHERE name IS NOT NULL") + ["Nobody"]
        keys = _values(con, "SELECT key FROM seats")
        pick = st.sampled_from
        f = s.Filters(
            tags=data.draw(st.lists(pick(tags + ["Event~gold", "Site=nowhere"]), max_size=2)),
            players=data.draw(st.lists(pick(names), max_size=2)),
            winners=data.draw(st.lists(pick(names + keys), max_size=1)),
            scores=data.draw(st.lists(pick([">=10", "<40", "red>=5", "Ada>=1", "!=0"]), max_size=2)),
            valid=data.draw(st.sampled_from([None, True, False])),
        )
        ids = s.game_ids(con, f)
        assert ids == _by_games_table(con, f)
        assert s.game_ids(con, f, limit=2) == ids[:2]
        assert s.count(con, f) == len(ids)
    finally:
        con.close()


def test_a_tag_search_reads_no_row_of_games(db: Path):
    con = connect(db)
    try:
        game, name = con.execute("SELECT game_id, name FROM seats WHERE name IS NOT NULL LIMIT 1").fetchone()
        tag = con.execute("SELECT name || '=' || value FROM tags WHERE game_id = ? LIMIT 1", (game,)).fetchone()[0]
        f = s.Filters(tags=[tag], players=[name])
        seen: list[str] = []
        con.set_trace_callback(seen.append)
        ids = s.game_ids(con, f)
        con.set_trace_callback(None)
        assert seen and "games" not in seen[-1]
        assert "games" not in " ".join(str(r[-1]) for r in con.execute("EXPLAIN QUERY PLAN " + seen[-1]))
        assert game in ids and ids == _by_games_table(con, f)
    finally:
        con.close()


def test_a_removed_game_is_not_found(tmp_path: Path):
    path = tmp_path / "club.db"
    assert runner.invoke(app, ["archive", "add", str(path), str(ROOT / "examples" / "goldrush-2p.grn"),
                               str(ROOT / "examples" / "gold-2p.grn"), "-q"]).exit_code == 0
    con = connect(path)
    try:
        first = con.execute("SELECT min(id) FROM games").fetchone()[0]
        name = con.execute("SELECT name FROM seats WHERE game_id = ? AND name IS NOT NULL", (first,)).fetchone()[0]
        f = s.Filters(players=[name])
        assert first in s.game_ids(con, f)
        with con:
            delete_game(con, first)
        assert first not in s.game_ids(con, f)
        assert s.game_ids(con, f) == _by_games_table(con, f)
    finally:
        con.close()
