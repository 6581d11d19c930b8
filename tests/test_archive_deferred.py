"""Per-turn rows built when a reader first needs them (R250-R254): ``archive add`` keeps the game-level rows,
the first per-turn search (or ``archive index``) builds the rest once, and builders at once build nothing twice."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import Result
from typer.testing import CliRunner

from grn.archive.db import connect
from grn.archive.turns import build, missing
from grn.cli.app import app
from grn.notation.read import parse
from grn.serve.store import Store

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SCHEMA2 = ROOT / "tests" / "data" / "archive-schema2.db"
PER_TURN_SEARCHES = [["--event", "type=ScoreEvent points>=6"], ["--action", "type=place x>=1"],
                     ["--beside", "17,08"], ["--event", "type=ScoreEvent feature=gold"]]
GAME_TABLES = ("games", "tags", "seats", "points")


def _grn(*args: object) -> Result:
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("deferred")
    out = {}
    for name, args in (("a", ["--players", "3", "--seed", "41", "--games", "6"]),
                       ("b", ["--players", "2", "--seed", "42", "--games", "6"]),
                       ("c", ["--game", "gold", "--players", "2", "--seed", "43", "--games", "3"]),
                       ("d", ["--game", "carcassonne", "--players", "2", "--seed", "44", "--games", "2"])):
        result = runner.invoke(app, ["selfplay", *args])
        assert result.exit_code == 0, result.output
        (d / f"{name}.grn").write_text(result.stdout, encoding="utf-8")
        out[name] = d / f"{name}.grn"
    return out


def _rows(db: Path, table: str) -> list[tuple[object, ...]]:
    con = sqlite3.connect(db)
    try:
        return sorted(con.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
    finally:
        con.close()


def _turn_rows(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM game_turns").fetchone()[0])
    finally:
        con.close()


def _ids(db: Path, args: list[str]) -> tuple[list[str], str]:
    result = runner.invoke(app, ["archive", "search", str(db), "--format", "table", *args])
    assert result.exit_code == 0, result.output
    return [line.split()[0] for line in result.stdout.splitlines()[1:-1]], result.stderr


def test_add_keeps_the_game_level_rows_of_add_per_turn_and_no_per_turn_rows(games: dict[str, Path],
                                                                            tmp_path: Path) -> None:
    lazy, eager = tmp_path / "lazy.db", tmp_path / "eager.db"
    paths = list(games.values())
    assert _grn("archive", "add", "-q", lazy, *paths).exit_code == 0
    assert _grn("archive", "add", "-q", "--per-turn", eager, *paths).exit_code == 0
    for table in GAME_TABLES:  # the same dedup keys, final scores, points by feature kind: what stats reads
        assert _rows(lazy, table) == _rows(eager, table), table
    assert _turn_rows(lazy) == 0 and _turn_rows(eager) == 17
    assert (_grn("archive", "stats", "--format", "json", lazy).stdout
            == _grn("archive", "stats", "--format", "json", eager).stdout)
    # the built rows are those add --per-turn writes, byte for byte
    con = connect(lazy)
    assert build(con).built == 17
    con.close()
    assert _rows(lazy, "game_turns") == _rows(eager, "game_turns")


def test_the_first_per_turn_search_builds_the_rows_once_and_finds_what_add_per_turn_finds(
        games: dict[str, Path], tmp_path: Path) -> None:
    lazy, eager = tmp_path / "lazy.db", tmp_path / "eager.db"
    paths = list(games.values())
    assert _grn("archive", "add", "-q", lazy, *paths).exit_code == 0
    assert _grn("archive", "add", "-q", "--per-turn", eager, *paths).exit_code == 0
    # a search that reads no per-turn row builds nothing
    assert _ids(lazy, ["--player", "Ada"])[0] and _turn_rows(lazy) == 0
    first, said = _ids(lazy, PER_TURN_SEARCHES[0])
    assert "building the per-turn rows of 17 games" in said
    assert first == _ids(eager, PER_TURN_SEARCHES[0])[0] and first
    assert _turn_rows(lazy) == 17
    for args in PER_TURN_SEARCHES[1:]:
        found, said = _ids(lazy, args)
        assert found == _ids(eager, args)[0]
        assert "building" not in said
    # games added later are built by the next per-turn search, and only they
    more = tmp_path / "more.grn"
    more.write_text(games["a"].read_text(encoding="utf-8").replace('[Round "', '[Round "again '), encoding="utf-8")
    assert _grn("archive", "add", "-q", lazy, more).exit_code == 0
    assert "building the per-turn rows of 6 games" in _ids(lazy, PER_TURN_SEARCHES[0])[1]
    # --sql on the views, --count and a Parquet-free export read the rows as built
    count = _grn("archive", "search", lazy, "--sql", "SELECT count(DISTINCT game_id) FROM actions")
    assert count.stdout.split()[-1] == "23"


def test_archive_index_builds_every_missing_row_and_then_nothing(games: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    assert _grn("archive", "add", "-q", db, games["a"], games["c"]).exit_code == 0
    first = _grn("archive", "index", db)
    assert first.exit_code == 0 and "per-turn rows built for 9 games" in first.stdout
    again = _grn("archive", "index", db)
    assert "per-turn rows built for 0 games" in again.stdout
    con = connect(db, readonly=True)
    assert missing(con) == 0
    con.close()
    assert _grn("archive", "index", "--jobs", "0", db).exit_code == 2


def test_a_per_turn_search_of_an_archive_that_cannot_be_written_says_so_in_one_line(
        games: dict[str, Path], tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes a read-only file: the refusal cannot be shown")
    db = tmp_path / "ro.db"
    assert _grn("archive", "add", "-q", db, games["b"]).exit_code == 0
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    db.chmod(0o444)
    result = runner.invoke(app, ["archive", "search", str(db), *PER_TURN_SEARCHES[0]])
    assert result.exit_code == 1
    assert "lack their per-turn rows and the archive cannot be written" in result.stderr
    assert "Traceback" not in result.output


def test_a_schema2_archive_upgraded_keeps_its_per_turn_rows_and_builds_nothing(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    shutil.copy(SCHEMA2, db)
    before = _turn_rows(db)
    assert before > 0
    con = connect(db)  # upgraded to schema 8
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8"
    assert missing(con) == 0
    assert build(con).built == 0
    con.close()
    assert _turn_rows(db) == before


def test_two_builders_at_once_build_each_game_once(games: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    assert _grn("archive", "add", "-q", db, *games.values()).exit_code == 0
    cmd = [sys.executable, "-m", "grn", "archive", "index", str(db)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    built = sum(int(o.split("built for ")[1].split()[0]) for o in outs)
    assert built == 17  # between them, every game once
    assert _turn_rows(db) == 17


def test_a_build_beside_the_serve_recorder_and_an_add_loses_nothing(games: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "busy.db"
    assert _grn("archive", "add", "-q", db, games["a"], games["b"]).exit_code == 0
    store = Store(db)
    record = parse((EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8"))[0]
    recorded: list[int] = []

    def recorder() -> None:
        for _ in range(5):
            recorded.append(store.create(record))

    add = subprocess.Popen([sys.executable, "-m", "grn", "archive", "add", "-q", str(db), str(games["c"])])
    index = subprocess.Popen([sys.executable, "-m", "grn", "archive", "index", "-q", str(db)])
    t = threading.Thread(target=recorder)
    t.start()
    t.join(timeout=300)
    assert add.wait(timeout=300) == 0 and index.wait(timeout=300) == 0
    assert len(recorded) == 5
    con = connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 12 + 3 + 5
    build(con)  # whatever the index did not see yet
    assert missing(con) == 0
    # one row a game: none written twice
    assert con.execute("SELECT count(*) FROM game_turns").fetchone()[0] == 20
    con.close()
