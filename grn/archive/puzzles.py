"""The archive's puzzles and their ratings: ``grn puzzles --archive DB --keep`` and the Puzzles page of ``grn serve``.

Three tables, made when the first puzzle is kept (an archive made before has none and reads as "no puzzle",
as the analyses' tables are made by the first ``archive analyse``, R403):

* ``puzzles``: one row a puzzle (its id, game, the JSON of ``grn puzzles --json`` and its Glicko-2 rating);
* ``puzzle_solvers``: one row a solver (a name) and their Glicko-2 rating;
* ``puzzle_attempts``: one row an attempt: who, which puzzle, solved or missed, the seconds taken, when.

Each attempt is a Glicko-2 game between the solver and the puzzle (:func:`grn.core.glicko.attempt`); the next
puzzle a solver gets is the one, of those they have not tried, whose rating is nearest theirs (R404).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any, Iterable

from grn.archive.transaction import write_transaction
from grn.core.glicko import Rating, attempt

TABLES = """
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    data TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    added TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_solvers (
    name TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    id INTEGER PRIMARY KEY,
    solver TEXT NOT NULL REFERENCES puzzle_solvers(name),
    puzzle TEXT NOT NULL REFERENCES puzzles(id),
    solved INTEGER NOT NULL,
    seconds REAL,
    answer TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_solver ON puzzle_attempts (solver, puzzle);
CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles (rating);
"""

#: A new puzzle's rating: the gap its solution stands clear by says little of how hard it is to see, so every
#: puzzle starts where a new solver does, unsure (R404).
NEW = Rating()


def has_tables(con: sqlite3.Connection) -> bool:
    """Whether the archive has the puzzles' tables."""
    return con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'puzzles'").fetchone() is not None


def ensure_tables(con: sqlite3.Connection) -> None:
    """Make the puzzles' tables when the archive has none."""
    if not has_tables(con):
        with write_transaction(con):
            for statement in TABLES.split(";"):
                if statement.strip():
                    con.execute(statement)


def keep(con: sqlite3.Connection, puzzles: Iterable[Any]) -> int:
    """Keep ``puzzles`` (:class:`grn.analysis.puzzles.Puzzle`, or their JSON) in the archive; one already kept keeps its
    rating.  Returns how many were new."""
    ensure_tables(con)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    new = 0
    with write_transaction(con):
        for p in puzzles:
            doc = p if isinstance(p, dict) else p.to_json()
            cur = con.execute("INSERT OR IGNORE INTO puzzles (id, game, data, rating, deviation, volatility, added) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (doc["id"], doc["game"], json.dumps(doc, ensure_ascii=False), NEW.rating,
                               NEW.deviation, NEW.volatility, now))
            new += cur.rowcount
    return new


def solver_rating(con: sqlite3.Connection, name: str) -> Rating:
    """``name``'s rating (a new solver's when they have none)."""
    row = con.execute("SELECT rating, deviation, volatility FROM puzzle_solvers WHERE name = ?", (name,)).fetchone()
    return NEW if row is None else Rating(*row)


def next_puzzle(con: sqlite3.Connection, solver: str) -> dict[str, Any] | None:
    """The puzzle ``solver`` has not tried whose rating is nearest theirs (its JSON, with ``rating``); None when
    they have tried every one."""
    if not has_tables(con):
        return None
    own = solver_rating(con, solver)
    row = con.execute("SELECT data, rating, deviation FROM puzzles WHERE id NOT IN "
                      "(SELECT puzzle FROM puzzle_attempts WHERE solver = ?) ORDER BY abs(rating - ?), id LIMIT 1",
                      (solver, own.rating)).fetchone()
    if row is None:
        return None
    doc: dict[str, Any] = json.loads(row[0])
    doc["rating"] = round(row[1])
    doc["deviation"] = round(row[2])
    return doc


@dataclass(frozen=True, slots=True)
class Attempt:
    """What an attempt did: solved or not, the puzzle (its JSON), and both ratings before and after."""

    solved: bool
    puzzle: dict[str, Any]
    solver_before: Rating
    solver_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


def record_attempt(con: sqlite3.Connection, solver: str, puzzle_id: str, answer: str,
                   seconds: float | None = None) -> Attempt:
    """Judge ``solver``'s ``answer`` to the puzzle, keep the attempt and both new ratings (one transaction).

    Raises KeyError for an unknown puzzle.  A second attempt at a puzzle is kept but rates nothing (R404: the
    solution was shown after the first).
    """
    ensure_tables(con)
    with write_transaction(con):
        row = con.execute("SELECT data, rating, deviation, volatility FROM puzzles WHERE id = ?",
                          (puzzle_id,)).fetchone()
        if row is None:
            raise KeyError(puzzle_id)
        doc: dict[str, Any] = json.loads(row[0])
        solved = answer == doc.get("answer", doc["solution"])
        before_p = Rating(row[1], row[2], row[3])
        before_s = solver_rating(con, solver)
        tried = con.execute("SELECT 1 FROM puzzle_attempts WHERE solver = ? AND puzzle = ?",
                            (solver, puzzle_id)).fetchone() is not None
        after_s, after_p = (before_s, before_p) if tried else attempt(before_s, before_p, solved)
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        con.execute("INSERT INTO puzzle_solvers (name, rating, deviation, volatility, attempts) VALUES (?, ?, ?, ?, 1) "
                    "ON CONFLICT(name) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
                    "volatility = excluded.volatility, attempts = attempts + 1",
                    (solver, after_s.rating, after_s.deviation, after_s.volatility))
        con.execute("UPDATE puzzles SET rating = ?, deviation = ?, volatility = ?, attempts = attempts + 1 "
                    "WHERE id = ?", (after_p.rating, after_p.deviation, after_p.volatility, puzzle_id))
        con.execute("INSERT INTO puzzle_attempts (solver, puzzle, solved, seconds, answer, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (solver, puzzle_id, int(solved), seconds, answer, now))
    return Attempt(solved, doc, before_s, after_s, before_p, after_p)


__all__ = ["TABLES", "ensure_tables", "has_tables", "keep", "next_puzzle", "record_attempt", "solver_rating",
           "Attempt"]
