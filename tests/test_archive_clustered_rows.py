"""Archive indexing, round eleven (issue 26 item 4, R300-R304): schema 6 clusters a game's tags, seats and
points rows on the game (``WITHOUT ROWID`` tables, no ``*_game`` index), the upgrade of a schema-5 archive
keeps every row, and each reader's SQL reads an index or the tables' own key."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grn.archive import db as archive_db
from grn.archive.db import connect
from grn.archive.indexer import indexing_validator
from grn.archive.points import expand
from grn.archive.search import Filters, game_ids
from grn.archive.stats import compute
from grn.archive.stored import record_of
from grn.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: Made by main's schema-5 code (round ten, 8fec559) from the same four example files as archive-schema4.db:
#: the first three with ``add``, the fourth (goldrush-4p-farmers.grn) with ``add --per-turn``.
SCHEMA5 = ROOT / "tests" / "data" / "archive-schema5.db"
#: Every table of an archive and the order that lists its rows whatever the table's kind.
TABLES = {"meta": "key", "files": "id", "games": "id", "tags": "game_id, pos", "seats": "game_id, seat",
          "points": "game_id, player, feature", "game_turns": "game_id", "merged": "id"}
CLUSTERED = ("tags", "seats", "points")


def _rows(con: sqlite3.Connection) -> dict[str, list[Any]]:
    return {t: con.execute(f"SELECT * FROM {t} ORDER BY {order}").fetchall() for t, order in TABLES.items()
            if t != "meta"}


def _without_rowid(con: sqlite3.Connection, table: str) -> bool:
    # a WITHOUT ROWID table has no rowid to select
    try:
        con.execute(f"SELECT rowid FROM {table} LIMIT 1")
    except sqlite3.OperationalError:
        return True
    return False


def _indexes(con: sqlite3.Connection) -> set[str]:
    return {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}


def _plan(con: sqlite3.Connection, sql: str, params: tuple[Any, ...] = ()) -> str:
    return " | ".join(r[-1] for r in con.execute("EXPLAIN QUERY PLAN " + sql, params))


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("round11")
    games = runner.invoke(app, ["selfplay", "--players", "3", "--seed", "111", "--games", "6"])
    assert games.exit_code == 0, games.output
    (d / "six.grn").write_text(games.stdout, encoding="utf-8")
    db = d / "a.db"
    added = runner.invoke(app, ["archive", "add", "-q", str(db), str(d / "six.grn"),
                                str(EXAMPLES / "goldrush-4p-farmers.grn"), str(EXAMPLES / "gold-2p.grn")])
    assert added.exit_code == 0, added.output
    return db


# R300: tags, seats and points clustered on their game
# ---------------------------------------------------------------------------

def test_a_new_archive_clusters_each_games_rows_and_has_no_game_id_index(archive: Path) -> None:
    con = connect(archive, readonly=True)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8" == str(
        archive_db.SCHEMA_VERSION)
    for table in CLUSTERED:
        assert _without_rowid(con, table), table
    assert not _without_rowid(con, "games")
    assert _indexes(con) == {"games_game_date", "games_date", "games_dedup", "tags_name_value", "seats_name",
                             "points_name"}
    # every game that has seats has them all, in seat order, and its points one a seat and feature kind
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 8
    assert con.execute("SELECT count(*) FROM seats").fetchone()[0] == 6 * 3 + 4 + 2
    # the points rows packed, one row a game, until stats first reads them (R310)
    assert con.execute("SELECT count(*) FROM points").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM points_packed p, json_each(p.data)").fetchone()[0] > 0
    con.close()


def test_a_game_deleted_and_written_again_in_the_middle_keeps_its_rows(archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    con = connect(db)
    expand(con)  # the points rows add kept packed (R310)
    before = _rows(con)
    # dedup's merge and the server rewrite a game under its id, between others (not at the b-trees' end)
    fmt, text, file_id, index = con.execute("SELECT format, text, file_id, file_index FROM games WHERE id = 3").fetchone()
    assert record_of(text, fmt).game
    with indexing_validator() as v:
        path = tmp_path / "one.grn"
        path.write_text(text, encoding="utf-8")
        [res] = [r for r in v.run(str(path))]
    con.execute("BEGIN IMMEDIATE")
    archive_db.delete_game(con, 3)
    assert con.execute("SELECT count(*) FROM tags WHERE game_id = 3").fetchone()[0] == 0
    res.index = index
    archive_db.insert_game(con, 3, file_id, res)
    con.execute("COMMIT")
    assert expand(con) == 1  # game 3's points rows, packed again
    after = _rows(con)
    for table in ("games", "tags", "seats", "points"):
        assert after[table] == before[table], table
    con.close()


# R300: the upgrade from schema 5
# ---------------------------------------------------------------------------

def test_a_schema5_archive_reads_as_it_is_and_upgrades_keeping_every_row(tmp_path: Path) -> None:
    db = tmp_path / "five.db"
    shutil.copy(SCHEMA5, db)
    before = db.read_bytes()
    ro = connect(db, readonly=True)
    assert ro.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "5"
    old_rows = _rows(ro)
    old_stats = compute(ro)
    filters = [Filters(), Filters(players=["Ada"]), Filters(tags=["Event~"]), Filters(game="gold"),
               Filters(winners=["red"])]
    old_found = [game_ids(ro, f) for f in filters]
    ro.close()
    assert db.read_bytes() == before  # reading does not upgrade
    assert all(old_rows[t] for t in ("games", "tags", "seats", "points", "game_turns"))
    con = connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8"
    assert _rows(con) == old_rows  # row for row, column for column, the keys unchanged
    for table in CLUSTERED:
        assert _without_rowid(con, table), table
    assert _indexes(con) == {"games_game_date", "games_date", "games_dedup", "tags_name_value", "seats_name",
                             "points_name"}
    assert compute(con) == old_stats
    assert [game_ids(con, f) for f in filters] == old_found
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    # the per-turn views still read, and a game added now lands beside the upgraded ones
    more = runner.invoke(app, ["archive", "add", "-q", str(db), str(EXAMPLES / "goldrush-first-game.grn")])
    assert more.exit_code == 0, more.output
    count = runner.invoke(app, ["archive", "search", str(db), "--count"])
    assert count.exit_code == 0 and int(count.stdout) == len(old_rows["games"]) + 1


def test_an_older_archives_duplicate_points_rows_are_summed_as_stats_counted_them(tmp_path: Path) -> None:
    db = tmp_path / "five.db"
    shutil.copy(SCHEMA5, db)
    raw = sqlite3.connect(db)
    game_id, player, name, feature, points = raw.execute("SELECT * FROM points LIMIT 1").fetchone()
    raw.execute("INSERT INTO points VALUES (?,?,?,?,?)", (game_id, player, name, feature, 5))
    raw.commit()
    ro = connect(db, readonly=True)
    old_stats = compute(ro)
    ro.close()
    raw.close()
    con = connect(db)
    assert con.execute("SELECT points FROM points WHERE game_id = ? AND player = ? AND feature = ?",
                       (game_id, player, feature)).fetchall() == [(points + 5,)]
    assert compute(con) == old_stats
    con.close()


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tags=st.dictionaries(st.tuples(st.integers(1, 50), st.integers(0, 20)), st.tuples(_TEXT, _TEXT), max_size=30),
       seats=st.dictionaries(st.tuples(st.integers(1, 50), st.integers(0, 5)),
                             st.tuples(_TEXT, _TEXT, st.none() | st.integers(-5, 300), st.booleans()), max_size=30),
       points=st.dictionaries(st.tuples(st.integers(1, 50), _TEXT, _TEXT), st.tuples(_TEXT, st.integers(-50, 99)),
                              max_size=30))
def test_any_rows_of_a_schema5_archive_come_through_the_upgrade(tmp_path: Path, tags: dict[Any, Any],
                                                                seats: dict[Any, Any], points: dict[Any, Any]) -> None:
    db = tmp_path / "rows.db"
    db.unlink(missing_ok=True)
    shutil.copy(SCHEMA5, db)
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM tags")
    raw.execute("DELETE FROM seats")
    raw.execute("DELETE FROM points")
    raw.executemany("INSERT INTO tags VALUES (?,?,?,?)", [(g, p, n, v) for (g, p), (n, v) in tags.items()])
    raw.executemany("INSERT INTO seats VALUES (?,?,?,?,?,?,?,?,?,?)",
                    [(g, s, k, n, sc, int(w), int(s == 0), 1, "goldrush", 4)
                     for (g, s), (k, n, sc, w) in seats.items()])
    raw.executemany("INSERT INTO points VALUES (?,?,?,?,?)",
                    [(g, p, n, f, v) for (g, p, f), (n, v) in points.items()])
    raw.commit()
    before = {t: raw.execute(f"SELECT * FROM {t} ORDER BY {TABLES[t]}").fetchall() for t in CLUSTERED}
    raw.close()
    con = connect(db)
    assert {t: con.execute(f"SELECT * FROM {t} ORDER BY {TABLES[t]}").fetchall() for t in CLUSTERED} == before
    con.close()


def test_an_upgrade_that_fails_half_way_leaves_schema5_whole(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "five.db"
    shutil.copy(SCHEMA5, db)
    ro = connect(db, readonly=True)
    old_rows = _rows(ro)
    ro.close()
    monkeypatch.setattr(archive_db, "CHILD_INDEXES", "CREATE INDEX broken ON no_such_table (x);")
    with pytest.raises(archive_db.ArchiveError, match="cannot bring the archive to schema 8"):
        connect(db)
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "5"
    assert not _without_rowid(raw, "tags")
    raw.close()
    ro = connect(db, readonly=True)
    assert _rows(ro) == old_rows
    ro.close()


# R301: what each reader's SQL reads
# ---------------------------------------------------------------------------

def test_each_readers_sql_reads_an_index_or_the_tables_key(archive: Path) -> None:
    con = connect(archive, readonly=True)
    # the tag and player searches: the index alone (it carries the game's id)
    assert "COVERING INDEX tags_name_value" in _plan(
        con, "SELECT game_id FROM tags WHERE name = ? AND value = ? COLLATE NOCASE", ("Event", "x"))
    assert "COVERING INDEX seats_name" in _plan(
        con, "SELECT game_id FROM seats WHERE name = ? COLLATE NOCASE", ("Ada",))
    # a game's own rows (export, list, review, delete): the table's primary key, no other index
    for table in CLUSTERED:
        plan = _plan(con, f"SELECT * FROM {table} WHERE game_id IN (?, ?)", (1, 2))
        assert "PRIMARY KEY" in plan and "SCAN" not in plan, (table, plan)
    # stats' points by player and kind: the covering index, no sort
    plan = _plan(con, "SELECT lower(min(name)), feature, sum(points) FROM points GROUP BY name COLLATE NOCASE, "
                      "feature")
    assert "COVERING INDEX points_name" in plan and "TEMP B-TREE" not in plan
    # dates without a game, dates within a game, duplicates
    assert "games_date" in _plan(con, "SELECT id FROM games g WHERE g.date >= ?", ("2026",))
    assert "games_game_date" in _plan(con, "SELECT id FROM games g WHERE g.game = ? AND g.date >= ?",
                                      ("goldrush", "2026"))
    assert "games_dedup" in _plan(con, "SELECT group_concat(id) FROM (SELECT id, dedup FROM games ORDER BY id) "
                                       "GROUP BY dedup HAVING count(*) > 1") or \
        "games_dedup" in _plan(con, "SELECT dedup FROM games GROUP BY dedup HAVING count(*) > 1")
    con.close()


def test_the_list_of_found_games_shows_each_ones_players(archive: Path) -> None:
    listed = runner.invoke(app, ["archive", "search", str(archive), "--player", "Ada"])
    assert listed.exit_code == 0, listed.output
    con = connect(archive, readonly=True)
    ada = con.execute("SELECT DISTINCT game_id FROM seats WHERE name = 'Ada' COLLATE NOCASE ORDER BY game_id").fetchall()
    con.close()
    assert ada and len([line for line in listed.stdout.splitlines() if "Ada" in line]) == len(ada)
