"""``grn archive analyse`` and what ``archive stats`` and ``archive search`` make of it (issue 21, item 9).

Tiny budgets (a few playouts a move): these tests check what is kept and found, not the analysis's quality.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

import grn
from grn.archive import review as archive_review
from grn.archive import db as archive_db
from grn.archive.db import connect
from grn.check.validate import validate_record
from grn.cli.app import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FILES = ["gold-2p.grn", "rulebook-city-6.grn", "rulebook-gold-16.grn"]
BUDGET = ["--playouts", "3", "--seed", "5"]
runner = CliRunner()


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """An archive of three games made the ordinary way, not analysed."""
    db = tmp_path_factory.mktemp("archive") / "club.db"
    result = runner.invoke(app, ["archive", "add", str(db), *[str(EXAMPLES / f) for f in FILES], "-q"])
    assert result.exit_code == 0, result.output
    return db


def copy(db: Path, tmp_path: Path) -> Path:
    out = tmp_path / "copy.db"
    shutil.copy(db, out)
    return out


def rows(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_an_archive_made_before_reads_as_not_analysed(archive):
    assert rows(archive, "SELECT name FROM sqlite_master WHERE name = 'analysed'") == []
    assert runner.invoke(app, ["archive", "search", str(archive), "--blunders", "--count"]).stdout.strip() == "0"
    assert runner.invoke(app, ["archive", "search", str(archive), "--not-analysed", "--count"]).stdout.strip() == "3"
    text = runner.invoke(app, ["archive", "stats", str(archive)])
    assert text.exit_code == 0 and "no game analysed" in text.stdout
    data = json.loads(runner.invoke(app, ["archive", "stats", str(archive), "--format", "json"]).stdout)
    assert data["analysis"] == {"players": [], "games": [], "luck": []}


def test_analyse_keeps_each_game_and_goes_on_where_it_stopped(archive, tmp_path):
    db = copy(archive, tmp_path)
    first = runner.invoke(app, ["archive", "analyse", str(db), *BUDGET, "--limit", "1", "-q"])
    assert first.exit_code == 0, first.output
    assert rows(db, "SELECT game_id FROM analysed") == [(1,)]
    assert runner.invoke(app, ["archive", "search", str(db), "--not-analysed", "--count"]).stdout.strip() == "2"
    second = runner.invoke(app, ["archive", "analyse", str(db), *BUDGET])
    assert second.exit_code == 0, second.output
    assert "2 games analysed" in second.stdout and "0 left" in second.stdout
    again = runner.invoke(app, ["archive", "analyse", str(db), *BUDGET])
    assert "0 games analysed" in again.stdout
    # one row per analysed turn, the figures grn analyse gives for the same record and budget
    record = grn.parse((EXAMPLES / "gold-2p.grn").read_text())[0]
    fresh = grn.analyse(record, playouts=3, seed=5)
    kept = rows(db, "SELECT turn, player, played, points_lost, judgement FROM analysis_turns WHERE game_id = 1 "
                    "ORDER BY turn")
    assert kept == [(t.turn, t.player, t.played, t.points_lost, t.judgement) for t in fresh.turns]
    players = rows(db, "SELECT name, moves, accuracy, blunders FROM analysis_players WHERE game_id = 1")
    assert players == [(n, p.moves, p.accuracy, p.blunders) for n, p in zip(["Ines", "Paul"], fresh.players)]


def test_a_run_stopped_in_the_middle_of_a_game_loses_only_that_game(archive, tmp_path, monkeypatch):
    db = copy(archive, tmp_path)
    real = archive_review.analyse
    calls = []

    def stop_on_the_second(record, **options):
        calls.append(record.game)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the user presses Ctrl-C during the second game
        return real(record, **options)

    monkeypatch.setattr(archive_review, "analyse", stop_on_the_second)
    con = connect(db)
    with pytest.raises(KeyboardInterrupt):
        archive_review.analyse_archive(con, playouts=3, seed=5)
    con.close()
    assert rows(db, "SELECT game_id FROM analysed") == [(1,)]
    assert rows(db, "SELECT DISTINCT game_id FROM analysis_turns") == [(1,)]
    monkeypatch.setattr(archive_review, "analyse", real)
    con = connect(db)
    summary = archive_review.analyse_archive(con, playouts=3, seed=5)
    con.close()
    assert summary.analysed == 2
    assert rows(db, "SELECT count(*), count(DISTINCT game_id) FROM analysed") == [(3, 3)]


@pytest.fixture(scope="module")
def analysed(archive, tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("analysed") / "club.db"
    shutil.copy(archive, db)
    result = runner.invoke(app, ["archive", "analyse", str(db), *BUDGET, "--thresholds", "0.5,1,2", "-q"])
    assert result.exit_code == 0, result.output
    return db


def test_stats_show_accuracy_and_points_lost_per_player_and_per_game(analysed):
    data = json.loads(runner.invoke(app, ["archive", "stats", str(analysed), "--format", "json"]).stdout)
    per_player = {p["name"]: p for p in data["analysis"]["players"]}
    ines = rows(analysed, "SELECT moves, average_points_lost, accuracy, blunders FROM analysis_players "
                          "WHERE name = 'Ines'")
    assert per_player["Ines"]["moves"] == ines[0][0]
    assert per_player["Ines"]["accuracy"] == round(ines[0][2], 1)
    assert per_player["Ines"]["blunders"] == ines[0][3]
    # the game kinds: gold's moves are the two players' moves
    kinds = {k["name"]: k for k in data["analysis"]["games"]}
    assert set(kinds) == {"gold", "goldrush"}
    assert kinds["gold"]["moves"] == per_player["Ines"]["moves"] + per_player["Paul"]["moves"]
    # the rulebook city's red never moved: no accuracy, not 0 %
    assert per_player["red"]["moves"] == 0 and per_player["red"]["accuracy"] is None
    text = runner.invoke(app, ["archive", "stats", str(analysed)]).stdout
    assert "analysis, per player:" in text and "analysis, per game:" in text
    assert any(line.split()[0] == "Ines" and line.rstrip().endswith(str(ines[0][3]))
               for line in text.splitlines() if line.strip().startswith("Ines") and "%" in line)


def test_search_finds_games_by_their_judgements(analysed):
    blundered = {r[0] for r in rows(analysed, "SELECT DISTINCT game_id FROM analysis_turns "
                                              "WHERE judgement = 'blunder'")}
    assert blundered  # the city's forgotten cowboy loses 18 points at any budget
    out = runner.invoke(app, ["archive", "search", str(analysed), "--blunders", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert len(json.loads(out.stdout)["games"]) == len(blundered)
    count = rows(analysed, "SELECT count(*) FROM analysis_players WHERE name = 'Paul' AND mistakes >= 1")[0][0]
    found = runner.invoke(app, ["archive", "search", str(analysed), "--judgement", "Paul:mistakes>=1", "--count"])
    assert found.stdout.strip() == str(count)
    none = runner.invoke(app, ["archive", "search", str(analysed), "--judgement", "blunders>=999", "--count"])
    assert none.stdout.strip() == "0"


@pytest.mark.parametrize("args, words", [
    (["search", "--judgement", "blunder>=1"], "--judgement 'blunder>=1'"),
    (["analyse", "--level", "huge"], "--level must be one of"),
    (["analyse", "--playouts", "0"], "--playouts must be from 1"),
    (["analyse", "--jobs", "0"], "--jobs must be 1 or more"),
    (["analyse", "--thresholds", "1,2"], "--thresholds takes three numbers"),
])
def test_bad_options_are_one_line_usage_errors(archive, args, words):
    result = runner.invoke(app, ["archive", args[0], str(archive), *args[1:]])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


def test_jobs_spread_the_turns_and_keep_the_same_figures(archive, tmp_path):
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    for db, jobs in ((one, "1"), (two, "2")):
        shutil.copy(archive, db)
        result = runner.invoke(app, ["archive", "analyse", str(db), *BUDGET, "--jobs", jobs, "--limit", "1", "-q"])
        assert result.exit_code == 0, result.output
    query = "SELECT turn, played, best, points_lost, judgement FROM analysis_turns ORDER BY turn"
    assert rows(one, query) == rows(two, query) and len(rows(one, query)) > 20


# R430: an analysis belongs to its game
# ---------------------------------------------------------------------------

ANALYSIS_TABLES = ("analysed", "analysis_turns", "analysis_players", "analysis_balance", "analysis_review")


def analysis_rows(db: Path, game_id: int) -> dict[str, int]:
    return {t: rows(db, f"SELECT count(*) FROM {t} WHERE game_id = {game_id}")[0][0] for t in ANALYSIS_TABLES}


def test_r430_an_analysed_game_is_listed_once_marked_with_its_review(analysed):
    assert rows(analysed, "SELECT count(*) FROM games") == [(3,)]  # no second game
    reviewed = [r[0] for r in rows(analysed, "SELECT game_id FROM analysis_review ORDER BY game_id")]
    assert reviewed == [r[0] for r in rows(analysed, "SELECT game_id FROM analysed WHERE problem IS NULL "
                                                     "ORDER BY game_id")] and reviewed
    review = archive_review.review_of(connect(analysed, readonly=True), reviewed[0])
    assert review is not None and "[%eval played=" in review
    assert validate_record(grn.notation.read.parse(review)[0]).valid
    table = runner.invoke(app, ["archive", "search", str(analysed)]).stdout.splitlines()
    assert sum(line.endswith("[reviewed]") for line in table) == len(reviewed)
    assert table[-1].endswith(f"{len(reviewed)} with a review, marked [reviewed])")


def test_r430_deleting_a_game_deletes_its_analysis(analysed, tmp_path):
    db = copy(analysed, tmp_path)
    gid = rows(db, "SELECT min(game_id) FROM analysis_balance")[0][0]
    assert all(analysis_rows(db, gid).values())
    con = connect(db)
    con.execute("BEGIN IMMEDIATE")
    archive_db.delete_game(con, gid)
    con.execute("COMMIT")
    con.close()
    assert analysis_rows(db, gid) == dict.fromkeys(ANALYSIS_TABLES, 0)
    assert rows(db, "SELECT count(*) FROM analysed")[0][0] == 2  # the other games keep theirs


def test_r430_the_upgrade_to_schema_8_removes_the_analysis_of_deleted_games(analysed, tmp_path):
    db = copy(analysed, tmp_path)
    gid = rows(db, "SELECT min(game_id) FROM analysis_balance")[0][0]
    kept = {t: rows(db, f"SELECT count(*) FROM {t} WHERE game_id != {gid}")[0][0] for t in ANALYSIS_TABLES}
    raw = sqlite3.connect(db)  # what an older grn did: the game deleted, its analysis left behind
    for table in ("tags", "seats", "game_turns", "points", "points_packed"):
        raw.execute(f"DELETE FROM {table} WHERE game_id = ?", (gid,))
    raw.execute("DELETE FROM games WHERE id = ?", (gid,))
    raw.execute("UPDATE meta SET value = '7' WHERE key = 'schema'")
    raw.commit()
    raw.close()
    con = connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8"
    con.close()
    assert analysis_rows(db, gid) == dict.fromkeys(ANALYSIS_TABLES, 0)
    assert {t: rows(db, f"SELECT count(*) FROM {t}")[0][0] for t in ANALYSIS_TABLES} == kept
