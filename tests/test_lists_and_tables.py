"""Lists and tables (issue 22, point 7): the archive's search table stays in line, says "unfinished"
only when a game is, and the Parquet score events carry the counts the SQLite archive has."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from grn.archive.db import register
from grn.cli.app import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FILES = [str(EXAMPLES / "goldrush-2p.grn"), str(EXAMPLES / "gold-2p.grn"),
         str(EXAMPLES / "carcassonne" / "carcassonne-2p.grn"), str(EXAMPLES / "carcassonne" / "carcassonne-3p-goldmines.grn")]


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def archive(tmp_path: Path, *files: str) -> str:
    db = str(tmp_path / "games.sqlite")
    result = run("archive", "add", db, *files)
    assert result.exit_code in (0, 1), result.output
    return db


def test_the_search_table_stays_in_line_with_long_game_names(tmp_path):
    db = archive(tmp_path, *FILES)
    lines = run("archive", "search", db).stdout.splitlines()
    head, rows, total = lines[0], lines[1:-1], lines[-1]
    assert {r.split()[1] for r in rows} >= {"goldrush", "gold", "carcassonne"}
    start = head.index("date")
    for row in rows:  # every date begins under its heading
        assert row[start - 1] == " " and row[start] != " ", row
    assert total == f"{len(rows)} games"  # nothing unfinished: no legend for it


def test_the_unfinished_legend_shows_when_a_game_is_unfinished(tmp_path):
    text = (EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8")
    short = tmp_path / "short.grn"
    cut = text.index("\n20. ")
    short.write_text(text[:cut].replace('[Result "red 33, yellow 42"]\n', "") + "\n", encoding="utf-8")
    db = archive(tmp_path, str(short), FILES[0])
    lines = run("archive", "search", db).stdout.splitlines()
    assert lines[-1] == "2 games (1 unfinished, marked *)"
    assert sum(1 for line in lines[1:-1] if "valid*" in line) == 1


def test_the_parquet_score_events_carry_the_counts(tmp_path):
    import pyarrow.parquet as pq

    db = archive(tmp_path, *FILES)
    out = tmp_path / "pq"
    assert run("archive", "export", db, "--to", "parquet", "-o", str(out)).exit_code == 0
    events = pq.read_table(out / "score_events.parquet").to_pylist()
    with sqlite3.connect(db) as con:
        register(con)
        stored = {(g, t, s): json.loads(j) for g, t, s, j in
                  con.execute("SELECT game_id, turn, seq, json FROM events WHERE points IS NOT NULL")}
    with_counts = 0
    for e in events:
        counts = dict(e["counts"])
        want = {k: v for k, v in stored[(e["game_id"], e["turn"], e["seq"])].items()
                if k not in ("type", "player", "points", "feature", "detail", "final")
                and isinstance(v, int) and not isinstance(v, bool)}
        assert counts == want
        with_counts += bool(counts)
    assert with_counts > 10
    assert any("tiles" in dict(e["counts"]) for e in events) and any("nuggets" in dict(e["counts"]) for e in events)
