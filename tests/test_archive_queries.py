"""Hostile archive queries (issue 25, point 3; ruling R85): numbers past 64 bits, --sql that would
write a file, and a --sql query that never ends are each one line, and touch no disk."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grn.archive.db import connect
from grn.archive.sql import SqlRefused, SqlTimeout, run_query
from grn.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
BIG = "9" * 5000


def grn(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("archive") / "club.db"
    assert grn("archive", "add", path, ROOT / "examples" / "goldrush-2p.grn", "-q").exit_code == 0
    return path


def _one_line(result) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("args", [
    ["--score", "red>=99999999999999999999"], ["--score", f"red>={BIG}"], ["--score", f">={BIG}"],
    ["--event", "points>=99999999999999999999"], ["--event", f"points={BIG}"], ["--action", f"x<{BIG}"],
    ["--action", "x=-99999999999999999999"], ["--limit", "99999999999999999999"],
])
def test_a_number_past_64_bits_is_one_line(db: Path, args: list[str]):
    result = grn("archive", "search", db, *args)
    line = _one_line(result)
    assert result.exit_code == 2 and ("too large" in line or "--limit must be 0 to" in line)
    assert len(result.stderr) < 300  # the 5,000 digits are not echoed


def test_the_largest_numbers_sqlite_holds_still_work(db: Path):
    assert grn("archive", "search", db, "--score", f"red<={2**63 - 1}", "--count").stdout.strip() == "1"
    assert grn("archive", "search", db, "--score", f">={-(2**63 - 1)}", "--count").stdout.strip() == "1"


@pytest.mark.parametrize("sql", [
    "ATTACH DATABASE '{dir}/made.db' AS x",
    "VACUUM INTO '{dir}/made.db'",
    "PRAGMA query_only = OFF",
    "PRAGMA journal_mode = DELETE",
    "DETACH DATABASE main",
])
def test_sql_that_would_write_a_file_is_refused_before_it_runs(db: Path, tmp_path: Path, sql: str):
    before = sorted(os.listdir(db.parent))
    result = grn("archive", "search", db, "--sql", sql.format(dir=tmp_path))
    assert result.exit_code == 1
    assert _one_line(result).startswith(f"{db}: error: --sql is read-only:")
    assert os.listdir(tmp_path) == [] and sorted(os.listdir(db.parent)) == before


def test_reading_the_schema_is_allowed(db: Path):
    result = grn("archive", "search", db, "--sql", "PRAGMA table_info(games)")
    assert result.exit_code == 0 and result.stdout.startswith("cid\tname")
    result = grn("archive", "search", db, "--sql", "SELECT name FROM pragma_table_info('seats') LIMIT 1",
                 "--format", "json")
    assert result.exit_code == 0 and result.stdout.startswith('[\n {\n  "name": ')


def test_a_query_that_runs_too_long_is_stopped_with_its_limit(db: Path):
    endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    start = time.monotonic()
    result = grn("archive", "search", db, "--sql", endless, "--sql-timeout", "0.5")
    assert time.monotonic() - start < 10
    assert result.exit_code == 1 and "time limit of 0.5 s (--sql-timeout" in _one_line(result)
    result = grn("archive", "search", db, "--sql", "SELECT 1", "--sql-timeout", "0")
    assert result.exit_code == 2 and "--sql-timeout must be" in _one_line(result)


def test_rows_read_after_the_limit_are_stopped_too(db: Path):
    con = connect(db, readonly=True)
    try:
        names, rows = run_query(con, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                     "SELECT x FROM c", 0.3)
        assert names == ["x"]
        with pytest.raises(SqlTimeout):
            for _ in rows:
                pass
        with pytest.raises(SqlRefused):
            run_query(con, "ATTACH ':memory:' AS m")
    finally:
        con.close()


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("0123456789-+<>=!~ redADa_"), max_size=60))
def test_any_score_filter_is_a_result_or_one_line(db: Path, spec: str):
    result = grn("archive", "search", db, "--score", spec, "--count")
    assert result.exit_code in (0, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 2:
        _one_line(result)


def test_sqlite_itself_cannot_reach_the_disk_from_sql(tmp_path: Path, db: Path):
    """The authorizer's refusal happens while the statement is prepared: the file is never made."""
    con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        with pytest.raises(SqlRefused):
            run_query(con, f"VACUUM INTO '{tmp_path / 'copy.db'}'")
    finally:
        con.close()
    assert not (tmp_path / "copy.db").exists()


def test_a_huge_value_is_refused_and_a_blob_is_printed_as_hex(db: Path):
    result = grn("archive", "search", db, "--sql", "SELECT zeroblob(1000000000)")
    assert result.exit_code == 1 and _one_line(result) == f"{db}: error: SQL: string or blob too big"
    result = grn("archive", "search", db, "--sql", "SELECT x'0aff' AS b", "--format", "json")
    assert result.exit_code == 0 and '"b": "x\'0aff\'"' in result.stdout
    assert grn("archive", "search", db, "--sql", "SELECT x'0aff' AS b").stdout == "b\nx'0aff'\n"
