"""Archive, round twelve (issue 26 item 4, R310-R314): ``archive add`` keeps a game's points rows packed in one
``points_packed`` row, expanded into ``points`` when ``stats`` first needs them (or by ``archive index``); a
read-only stats reads them as they are; the figures are the same whichever way, and the same as when ``add``
wrote the rows itself (schema 6)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from grn.archive import db as archive_db
from grn.archive import points as archive_points
from grn.archive.db import connect, delete_game
from grn.archive.facts import _json_points
from grn.archive.indexer import indexing_validator
from grn.archive.points import any_pending, expand, pending
from grn.archive.search import Filters
from grn.archive.stats import compute
from grn.check.batch import Problem
from grn.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SCHEMA5 = ROOT / "tests" / "data" / "archive-schema5.db"
#: The example files of archive-schema5.db, in its order: the first three added with ``add``, the last with
#: ``add --per-turn`` (tests/test_archive_clustered_rows.py).
SCHEMA5_FILES = ("goldrush-2p.grn", "gold-2p.grn", "carcassonne/carcassonne-3p-goldmines.grn",
                 "goldrush-4p-farmers.grn")
FILTERS = [Filters(), Filters(players=["Ada"]), Filters(game="gold"), Filters(winners=["red"]),
           Filters(tags=["Event~selfplay"])]


def _grn(*args: object) -> Result:
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Self-played games of three kinds, one unfinished and one invalid among them, and two examples."""
    d = tmp_path_factory.mktemp("round12")
    out: list[Path] = []
    for name, args in (("four", ["--players", "4", "--seed", "121", "--games", "5"]),
                       ("three", ["--players", "3", "--seed", "122", "--games", "4"]),
                       ("gold", ["--game", "gold", "--players", "2", "--seed", "123", "--games", "3"])):
        result = runner.invoke(app, ["selfplay", *args])
        assert result.exit_code == 0, result.output
        (d / f"{name}.grn").write_text(result.stdout, encoding="utf-8")
        out.append(d / f"{name}.grn")
    game = (d / "four.grn").read_text(encoding="utf-8").split('[Game "')[1]
    lines = ('[Game "' + game).splitlines()
    # unfinished: the first 20 turns; invalid: turn 3 a tile nowhere near the others
    (d / "unfinished.grn").write_text("\n".join(line for line in lines if not line[:1].isdigit()
                                                or int(line.split(".")[0]) <= 20) + "\n", encoding="utf-8")
    illegal = [(line.split(" ")[0] + " " + line.split(" ")[1] + " 17@9,9" if line.startswith("3. ") else line)
               for line in lines]
    (d / "invalid.grn").write_text("\n".join(illegal) + "\n", encoding="utf-8")
    out += [d / "unfinished.grn", d / "invalid.grn", EXAMPLES / "goldrush-2p.grn", EXAMPLES / "gold-3p-match.grn"]
    return out


def _legacy_points(paths: list[Path]) -> list[tuple[Any, ...]]:
    """The ``points`` rows schema 6's ``add`` wrote for these files' games (numbered as ``add`` numbers them):
    a row a seat and feature kind of every finished valid game."""
    rows: list[tuple[Any, ...]] = []
    game_id = 0
    with indexing_validator() as v:
        for path in paths:
            for res in v.run(str(path)):
                if isinstance(res, Problem):
                    continue
                game_id += 1
                f = res.facts
                if f.valid and f.complete:
                    names = {key: name for _, key, name, _, _ in f.seats}
                    rows += [(game_id, p, names.get(p, p), feature, n) for p, feature, n in f.points]
    return sorted(rows)


def _points(db: Path) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT * FROM points ORDER BY game_id, player, feature").fetchall()
    finally:
        con.close()


def _packed(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM points_packed").fetchone()[0])
    finally:
        con.close()


def _stats(con: sqlite3.Connection) -> list[str]:
    """Each filter's statistics as ``--format json`` writes them: the order of every dict counts."""
    return [json.dumps(compute(con, f).to_json()) for f in FILTERS]


@pytest.fixture(scope="module")
def archive(files: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("round12db") / "a.db"
    added = _grn("archive", "add", "-q", db, *files)
    assert added.exit_code == 0, added.output
    return db


@pytest.fixture(scope="module")
def legacy(archive: Path, files: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same archive with its points rows as schema 6's ``add`` wrote them (and none packed)."""
    db = tmp_path_factory.mktemp("round12legacy") / "legacy.db"
    shutil.copy(archive, db)
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM points_packed")
    raw.executemany("INSERT INTO points VALUES (?,?,?,?,?)", _legacy_points(files))
    raw.commit()
    raw.close()
    return db


# R310: add packs, and the packed rows are the rows add wrote
# ---------------------------------------------------------------------------

def test_add_writes_one_packed_row_a_finished_valid_game_and_no_points_row(archive: Path, files: list[Path]) -> None:
    con = connect(archive, readonly=True)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8"
    assert con.execute("SELECT count(*) FROM points").fetchone()[0] == 0
    finished = {i for (i,) in con.execute("SELECT id FROM games WHERE valid = 1 AND complete = 1")}
    packed = {i for (i,) in con.execute("SELECT game_id FROM points_packed")}
    con.close()
    # the games schema 6 gave points rows: finished valid games with points (Gold's have none); the unfinished
    # and the invalid game (13 and 14) have none
    assert packed == {g for g, *_ in _legacy_points(files)} and packed <= finished
    assert 13 not in finished and 14 not in finished and {1, 2, 3, 4, 5, 6, 7, 8, 9, 15} <= packed


def test_the_packed_rows_expand_to_the_rows_schema_6s_add_wrote(archive: Path, files: list[Path],
                                                                 tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    con = connect(db)
    games = pending(con)
    assert expand(con) == games > 0
    assert pending(con) == 0 and not any_pending(con)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    assert _points(db) == _legacy_points(files)


@settings(max_examples=80, deadline=None)
@given(rows=st.dictionaries(st.tuples(st.text(max_size=8), st.text(max_size=8)), st.integers(-10**12, 10**12),
                            max_size=12),
       names=st.dictionaries(st.text(max_size=8), st.text(max_size=12), max_size=6))
def test_any_names_and_features_come_back_from_json_each_as_they_went_in(rows: dict[tuple[str, str], int],
                                                                          names: dict[str, str]) -> None:
    # quotes, backslashes, control characters, any script (lone surrogates cannot be written as text at all)
    points = [(p, f, n) for (p, f), n in rows.items() if not any(0xD800 <= ord(c) <= 0xDFFF for c in p + f)]
    names = {k: v for k, v in names.items() if not any(0xD800 <= ord(c) <= 0xDFFF for c in k + v)}
    want = sorted((p, names.get(p, p), f, n) for p, f, n in points)
    data = _json_points(points, names)
    if data is None:  # SQLite's JSON would cut a text at its NUL: GameFacts.rows writes such rows as they are
        assert any("\x00" in p + name + f or "\\u0000" in p + name + f for p, name, f, _ in want)
        return
    con = sqlite3.connect(":memory:")
    got = con.execute("SELECT s.key, n.key, f.key, f.value FROM json_each(?) s, json_each(s.value) n, "
                      "json_each(n.value) f", (data,)).fetchall()
    assert sorted(got) == want
    assert sorted((p, name, f, n) for p, seat in json.loads(data).items() for name, kinds in seat.items()
                  for f, n in kinds.items()) == want


def test_a_game_whose_player_name_holds_a_nul_has_its_points_rows_written_as_they_are(files: list[Path],
                                                                                    tmp_path: Path) -> None:
    game = files[0].read_text(encoding="utf-8").split('[Game "')[1]
    path = tmp_path / "nul.grn"
    path.write_text('[Game "' + game.replace("Ada (red)", "A\x00da (red)", 1), encoding="utf-8")
    db = tmp_path / "nul.db"
    assert _grn("archive", "add", "-q", db, path).exit_code == 0
    assert _packed(db) == 0 and _points(db) == _legacy_points([path])
    assert any(name == "A\x00da" for _, _, name, _, _ in _points(db))
    con = connect(db, readonly=True)
    ada = [p for p in compute(con).players if p.name == "A\x00da"]
    con.close()
    assert ada and ada[0].points


# R310, R312: stats the same whichever way its rows are read
# ---------------------------------------------------------------------------

def test_stats_are_the_same_read_on_the_fly_expanded_and_as_schema_6_wrote_them(archive: Path, legacy: Path,
                                                                                 tmp_path: Path) -> None:
    old = connect(legacy, readonly=True)
    want = _stats(old)
    old.close()
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    before = db.read_bytes()
    # a read-only connection: nothing expanded, the pending rows read within the query
    ro = connect(db, readonly=True)
    assert _stats(ro) == want
    assert any_pending(ro)
    ro.close()
    assert db.read_bytes() == before
    # a writable one: expanded first, then read from points alone
    con = connect(db)
    assert _stats(con) == want
    assert not any_pending(con)
    con.close()
    assert _points(db) == _points(legacy)
    # and the command, table and JSON alike
    for fmt in ("table", "json"):
        assert _grn("archive", "stats", db, "--format", fmt).stdout == _grn("archive", "stats", legacy,
                                                                            "--format", fmt).stdout


def test_stats_with_some_games_expanded_and_some_pending_reads_both(archive: Path, legacy: Path,
                                                                     tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    con = connect(db)
    half = con.execute("SELECT game_id, data FROM points_packed WHERE game_id > 6").fetchall()
    con.execute("DELETE FROM points_packed WHERE game_id > 6")
    expand(con)
    con.execute("INSERT INTO points_packed VALUES " + ",".join("(?,?)" for _ in half), [v for r in half for v in r])
    con.close()
    ro = connect(db, readonly=True)
    old = connect(legacy, readonly=True)
    assert any_pending(ro) and ro.execute("SELECT count(*) FROM points").fetchone()[0] > 0
    assert _stats(ro) == _stats(old)
    ro.close()
    old.close()


def test_the_first_stats_expands_and_a_second_expands_nothing(archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    first = _grn("archive", "stats", db, "--format", "json")
    assert first.exit_code == 0 and first.stderr == ""
    assert _packed(db) == 0 and _points(db)
    rows = _points(db)
    con = connect(db)
    statements: list[str] = []
    con.set_trace_callback(statements.append)
    compute(con)
    con.close()
    assert not [s for s in statements if "INSERT" in s or "DELETE" in s]
    # the query of points alone, no expansion beside it: the covering index in its order (R301)
    assert any("FROM points GROUP BY" in s for s in statements)
    assert not any("json_each" in s for s in statements)
    again = _grn("archive", "stats", db, "--format", "json")
    assert again.stdout == first.stdout and _points(db) == rows


def test_the_first_expansion_makes_points_name_once_and_a_later_one_keeps_it(archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    con = connect(db)
    statements: list[str] = []
    con.set_trace_callback(statements.append)
    expand(con)
    assert [s for s in statements if s.startswith(("DROP INDEX", "CREATE INDEX"))] == [
        'DROP INDEX "points_name"', "CREATE INDEX points_name ON points (name COLLATE NOCASE, feature, points)"]
    statements.clear()
    more = _grn("archive", "add", "-q", db, EXAMPLES / "goldrush-4p-farmers.grn")
    assert more.exit_code == 0 and any_pending(con)
    expand(con)
    assert not [s for s in statements if s.startswith(("DROP INDEX", "CREATE INDEX"))]
    assert {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'points' AND type = 'index' "
                                      "AND sql IS NOT NULL")} == {"points_name"}
    con.close()


def test_a_stats_that_cannot_have_the_write_lock_soon_reads_the_packed_rows(archive: Path, legacy: Path,
                                                                           tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    monkeypatch.setattr(archive_points, "LOCK_WAIT", 0.05)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, in the middle of a long add
    try:
        result = _grn("archive", "stats", db, "--format", "json")
        direct = connect(db)
        direct.execute("PRAGMA busy_timeout = 50")
        old = connect(legacy, readonly=True)
        assert json.dumps(compute(direct).to_json()) == json.dumps(compute(old).to_json())
        direct.close()
        old.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == _grn("archive", "stats", legacy, "--format", "json").stdout
    assert _packed(db) > 0 and not _points(db)  # nothing expanded: the next stats will


# R313: writers at once
# ---------------------------------------------------------------------------

def test_expansions_beside_an_add_lose_nothing_and_count_nothing_twice(files: list[Path], tmp_path: Path) -> None:
    db = tmp_path / "busy.db"
    assert _grn("archive", "add", "-q", db, files[0]).exit_code == 0
    big = tmp_path / "big.grn"
    big.write_text("\n".join(p.read_text(encoding="utf-8") for p in files[1:3]), encoding="utf-8")
    add = subprocess.Popen([sys.executable, "-m", "grn", "archive", "add", "-q", "--batch", "1", str(db), str(big)])
    con = connect(db)
    expanded = 0
    try:
        while add.poll() is None:
            expanded += expand(con)
        assert add.wait(timeout=300) == 0
        expanded += expand(con)
    finally:
        con.close()
    assert expanded == len({g for g, *_ in _legacy_points([files[0], big])})
    assert _points(db) == _legacy_points([files[0], big])


def test_two_stats_at_once_expand_each_game_once(archive: Path, legacy: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    cmd = [sys.executable, "-m", "grn", "archive", "stats", str(db), "--format", "json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    want = _grn("archive", "stats", legacy, "--format", "json").stdout
    assert [p.returncode for p in procs] == [0, 0] and [o for o, _ in outs] == [want, want]
    assert _points(db) == _points(legacy) and _packed(db) == 0


# delete, index, --sql
# ---------------------------------------------------------------------------

def test_delete_game_removes_its_packed_row_and_its_expanded_rows(archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    con = connect(db)
    packed_ids = [i for (i,) in con.execute("SELECT game_id FROM points_packed ORDER BY game_id")]
    con.execute("BEGIN IMMEDIATE")
    delete_game(con, packed_ids[0])  # pending
    con.execute("COMMIT")
    expand(con)
    con.execute("BEGIN IMMEDIATE")
    delete_game(con, packed_ids[1])  # expanded
    con.execute("COMMIT")
    for gid in packed_ids[:2]:
        assert con.execute("SELECT count(*) FROM points WHERE game_id = ?", (gid,)).fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM points_packed WHERE game_id = ?", (gid,)).fetchone()[0] == 0
    assert con.execute("SELECT count(DISTINCT game_id) FROM points").fetchone()[0] == len(packed_ids) - 2
    con.close()


def test_archive_index_expands_the_points_rows_too(archive: Path, legacy: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    games = _packed(db)
    first = _grn("archive", "index", db)
    assert first.exit_code == 0 and f"points rows expanded for {games} games" in first.stdout
    assert _packed(db) == 0 and _points(db) == _points(legacy)
    again = _grn("archive", "index", db)
    assert again.exit_code == 0 and "points rows expanded" not in again.stdout


def test_a_sql_query_of_points_reads_them_expanded(archive: Path, legacy: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    sql = "SELECT game_id, player, name, feature, points FROM points ORDER BY 1, 2, 4"
    got = _grn("archive", "search", db, "--sql", sql)
    assert got.exit_code == 0 and got.stderr == ""
    assert got.stdout == _grn("archive", "search", legacy, "--sql", sql).stdout
    assert _packed(db) == 0


# R314: the upgrade from schema 6 (and the chain from 5)
# ---------------------------------------------------------------------------

def test_a_schema6_archive_upgrades_with_an_empty_packed_table_and_its_rows_kept(legacy: Path, tmp_path: Path) -> None:
    db = tmp_path / "six.db"
    shutil.copy(legacy, db)
    raw = sqlite3.connect(db)  # schema 6 as main wrote it: every points row written by add, no packed table
    raw.execute("DROP TABLE points_packed")
    raw.execute("UPDATE meta SET value = '6' WHERE key = 'schema'")
    raw.commit()
    raw.close()
    ro = connect(db, readonly=True)  # read as it is, not upgraded
    want = _stats(ro)
    ro.close()
    rows = _points(db)
    con = connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(
        archive_db.SCHEMA_VERSION) == "8"
    assert pending(con) == 0 and _points(db) == rows
    assert _stats(con) == want
    con.close()


def test_a_schema5_archive_comes_through_to_7_with_the_rows_a_new_add_expands_to(tmp_path: Path) -> None:
    old = tmp_path / "five.db"
    shutil.copy(SCHEMA5, old)
    con = connect(old)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8"
    assert pending(con) == 0
    old_stats = _stats(con)
    con.close()
    new = tmp_path / "new.db"
    paths = [EXAMPLES / f for f in SCHEMA5_FILES]
    assert _grn("archive", "add", "-q", new, *paths[:3]).exit_code == 0
    assert _grn("archive", "add", "-q", "--per-turn", new, paths[3]).exit_code == 0
    ro = connect(new, readonly=True)
    assert any_pending(ro) and _stats(ro) == old_stats
    ro.close()
    con = connect(new)
    expand(con)
    con.close()
    assert _points(new) == _points(old)


def test_an_upgrade_to_7_that_fails_leaves_the_archive_at_its_schema(legacy: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "six.db"
    shutil.copy(legacy, db)
    raw = sqlite3.connect(db)
    raw.execute("DROP TABLE points_packed")
    raw.execute("UPDATE meta SET value = '6' WHERE key = 'schema'")
    raw.commit()
    raw.close()
    monkeypatch.setattr(archive_db, "POINTS_PACKED", "CREATE TABLE points_packed (game_id REFERENCES no such")
    with pytest.raises(archive_db.ArchiveError, match="cannot bring the archive to schema 8"):
        connect(db)
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "6"
    assert raw.execute("SELECT count(*) FROM sqlite_master WHERE name = 'points_packed'").fetchone()[0] == 0
    raw.close()


def test_a_long_first_stats_says_what_it_is_doing_and_a_short_one_stays_quiet(
        archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "a.db"
    shutil.copy(archive, db)
    waiting = _packed(db)
    # as if these few games were the ten thousand from which the expansion takes long enough to look stuck
    monkeypatch.setattr(archive_points, "NOTICE_GAMES", waiting)
    first = _grn("archive", "stats", db, "--format", "json")
    assert first.exit_code == 0, first.output
    assert first.stderr == f"{db}: expanding the points of {waiting:,} games added since the last stats, once " \
                           "(grn archive index does it right after an add)\n"
    json.loads(first.stdout)  # the report itself is untouched
    again = _grn("archive", "stats", db, "--format", "json")
    assert again.exit_code == 0 and again.stderr == ""  # nothing pending: nothing said
