"""The archive's analyses: ``grn archive analyse`` and what ``stats`` and ``search`` read of them.

Three tables, made by the first ``archive analyse`` (an archive made before has
none and reads as "not analysed"):

* ``analysed``: one row per game analysed (its settings, when, the turn it
  stopped at when the game breaks the rules, or why it could not be analysed);
* ``analysis_turns``: one row per analysed turn (the figures of
  :class:`grn.analysis.judge.TurnAnalysis`);
* ``analysis_players``: one row per seat (:class:`grn.analysis.judge.PlayerSummary`,
  with the seat's name and the game's kind copied, so statistics read it alone);
* ``analysis_balance``: one row per seat, its margin as luck and skill (R336);
* ``analysis_review``: the game's review, the record annotated as ``grn analyse
  --format grn`` writes it, which the viewer shows beside the game (R430).

An analysis belongs to its game: the archive lists the game once, marked as
reviewed, and deleting the game deletes its analysis (:func:`grn.archive.db.delete_game`).

Each game is written in its own transaction once analysed: a stopped run keeps
every game it finished and the next run goes on with the others.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from grn.rules import registry
from grn.analysis.judge import GameAnalysis, Thresholds, analyse
from grn.analysis.annotate import annotate_record
from grn.archive.db import delete_analysis
from grn.archive.dedup import record_of
from grn.archive.transaction import write_transaction
from grn.core.record import Record
from grn.rules.world import NoBot
from grn.notation.writer import write_record

TABLES = """
CREATE TABLE IF NOT EXISTS analysed (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    settings TEXT NOT NULL,
    analysed TEXT NOT NULL,
    stopped INTEGER,
    problem TEXT
);
CREATE TABLE IF NOT EXISTS analysis_turns (
    game_id INTEGER NOT NULL REFERENCES games(id),
    turn INTEGER NOT NULL,
    player TEXT NOT NULL,
    played TEXT NOT NULL,
    best TEXT,
    expected_played REAL NOT NULL,
    expected_played_se REAL NOT NULL,
    expected_best REAL NOT NULL,
    expected_best_se REAL NOT NULL,
    points_lost REAL NOT NULL,
    lost_se REAL NOT NULL,
    judgement TEXT
);
CREATE INDEX IF NOT EXISTS analysis_turns_game ON analysis_turns (game_id);
CREATE INDEX IF NOT EXISTS analysis_turns_judgement ON analysis_turns (judgement, game_id);
CREATE TABLE IF NOT EXISTS analysis_players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    moves INTEGER NOT NULL,
    average_points_lost REAL NOT NULL,
    accuracy REAL NOT NULL,
    inaccuracies INTEGER NOT NULL,
    mistakes INTEGER NOT NULL,
    blunders INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS analysis_players_game ON analysis_players (game_id);
CREATE INDEX IF NOT EXISTS analysis_players_name ON analysis_players (name COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS analysis_balance (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    margin REAL NOT NULL,
    expected REAL NOT NULL,
    luck REAL NOT NULL,
    skill REAL NOT NULL,
    rest REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS analysis_balance_game ON analysis_balance (game_id);
CREATE TABLE IF NOT EXISTS analysis_review (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    text TEXT NOT NULL
);
"""

def has_analysis(con: sqlite3.Connection) -> bool:
    """Whether the archive has the analysis tables (an archive made before them has none: nothing analysed)."""
    return con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'analysed'").fetchone() is not None


@dataclass(slots=True)
class AnalyseSummary:
    """What ``grn archive analyse`` did."""

    analysed: int = 0
    skipped: int = 0
    left: int = 0
    problems: list[str] = field(default_factory=list)


def pending(con: sqlite3.Connection, limit: int | None = None) -> list[int]:
    """The ids of the archived games not analysed yet, in archive order."""
    sql = "SELECT id FROM games WHERE id NOT IN (SELECT game_id FROM analysed) ORDER BY id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [r[0] for r in con.execute(sql)]


def store_analysis(con: sqlite3.Connection, game_id: int, result: GameAnalysis | None, settings: str,
                   names: dict[str, str], kind: str, problem: str | None, review: str | None = None) -> None:
    """Keep game ``game_id``'s analysis (``result``, or the ``problem`` why there is none) and its ``review`` (the
    annotated record's GRN text), in place of any analysis it had; one transaction (R430)."""
    con.executescript(TABLES)
    with write_transaction(con):
        delete_analysis(con, game_id)
        if review is not None:
            con.execute("INSERT INTO analysis_review VALUES (?,?)", (game_id, review))
        con.execute("INSERT OR REPLACE INTO analysed VALUES (?,?,?,?,?)",
                    (game_id, settings, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                     result.stopped if result is not None else None, problem))
        if result is not None:
            con.executemany("INSERT INTO analysis_turns VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", [
                (game_id, t.turn, t.player, t.played, t.best, t.expected_played, t.played_se, t.expected_best,
                 t.best_se, t.points_lost, t.lost_se, t.judgement) for t in result.turns])
            con.executemany("INSERT INTO analysis_players VALUES (?,?,?,?,?,?,?,?,?,?)", [
                (game_id, p.player, names.get(p.player, p.player), kind, p.moves, p.average_points_lost, p.accuracy,
                 p.inaccuracies, p.mistakes, p.blunders) for p in result.players])
            # R336: each player's margin in expectation, luck of the draw, skill and the rest (R410: the rest column
            # holds what luck and skill leave, the edge with the noise, so the row still adds up to the margin)
            con.executemany("INSERT INTO analysis_balance VALUES (?,?,?,?,?,?,?,?,?)", [
                (game_id, b.player, names.get(b.player, b.player), kind, b.margin, b.expected, b.luck, b.skill,
                 b.edge + b.rest) for b in result.balances])


def analyse_archive(con: sqlite3.Connection, *, level: str | None = None, playouts: int | None = None,
                    seconds: float | None = None, seed: int = 0, thresholds: Thresholds | None = None,
                    runner: Any = None, parts: int = 1, limit: int | None = None, tileset: Any = None,
                    progress: Callable[[str], None] | None = None) -> AnalyseSummary:
    """Analyse the archived games not analysed yet (at most ``limit``), each committed when done.

    ``runner`` and ``parts`` spread each game's turns over processes or a Dask cluster, as
    ``grn analyse --jobs`` does.  A game of a kind that has no bot, or that cannot be read, is marked with
    its problem (and not tried again); a game that breaks the rules is analysed up to its first illegal turn.
    """
    con.executescript(TABLES)
    summary = AnalyseSummary()
    settings = json.dumps({"level": level, "playouts": playouts, "seconds": seconds, "seed": seed,
                           "thresholds": None if thresholds is None else
                           [thresholds.inaccuracy, thresholds.mistake, thresholds.blunder, thresholds.z]})
    todo = pending(con)
    summary.left = len(todo)
    for game_id in todo[:limit] if limit is not None else todo:
        text, fmt, kind = con.execute("SELECT text, format, game FROM games WHERE id = ?", (game_id,)).fetchone()
        names = {key: name for key, name in con.execute("SELECT key, name FROM seats WHERE game_id = ?", (game_id,))}
        result: GameAnalysis | None = None
        problem: str | None = None
        try:
            record = record_of(text, fmt)
            result = analyse(record, level=level, playouts=playouts, seconds=seconds, seed=seed,
                             thresholds=thresholds, tileset=tileset, runner=runner, parts=parts)
        except NoBot as exc:
            problem = f"not analysed: {exc}"
        except (ValueError, KeyError) as exc:
            problem = f"cannot be analysed: {exc}"
        store_analysis(con, game_id, result, settings, names, kind, problem,
                       None if result is None else _review_text(record, result))
        summary.left -= 1
        if problem is not None:
            summary.skipped += 1
            summary.problems.append(f"game {game_id}: {problem}")
        else:
            summary.analysed += 1
        if progress is not None:
            progress(f"game {game_id} ({kind}): {'analysed' if problem is None else problem}; {summary.left} left")
    return summary


def _review_text(record: Record, result: GameAnalysis) -> str | None:
    """The review of ``record``: the record annotated with ``result``, as GRN (None: the game cannot be written)."""
    try:
        return write_record(annotate_record(record, result, registry.find_ruleset(record.game)))
    except (ValueError, KeyError):
        return None


def review_of(con: sqlite3.Connection, game_id: int) -> str | None:
    """Game ``game_id``'s review, the annotated record's GRN text (None: not reviewed)."""
    if not has_analysis(con) or not _has_table(con, "analysis_review"):
        return None
    row = con.execute("SELECT text FROM analysis_review WHERE game_id = ?", (game_id,)).fetchone()
    return None if row is None else str(row[0])


def reviewed(con: sqlite3.Connection, ids: list[int]) -> set[int]:
    """Which of the games ``ids`` have a review."""
    if not ids or not _has_table(con, "analysis_review"):
        return set()
    marks = ",".join("?" * len(ids))
    return {r[0] for r in con.execute(f"SELECT game_id FROM analysis_review WHERE game_id IN ({marks})", ids)}


def _has_table(con: sqlite3.Connection, name: str) -> bool:
    return con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


@dataclass(slots=True)
class Accuracy:
    """Analysed moves of one player or one game kind: games, moves, average points lost, accuracy, counts."""

    name: str
    games: int
    moves: int
    average_points_lost: float | None
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--format json``."""
        return {"name": self.name, "games": self.games, "moves": self.moves,
                "average_points_lost": None if self.average_points_lost is None else round(self.average_points_lost, 2),
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
                "inaccuracies": self.inaccuracies, "mistakes": self.mistakes, "blunders": self.blunders}


def accuracy_stats(con: sqlite3.Connection, cond: str, params: list[Any]) -> tuple[list[Accuracy], list[Accuracy]]:
    """Per player (by name) and per game kind, over the analysed games that ``cond`` on ``games g`` selects:
    averages weighted by moves (each move counts once, however many games)."""
    if not has_analysis(con):
        return [], []
    some = "" if cond == "1" else f" WHERE game_id IN (SELECT g.id FROM games g WHERE {cond})"
    # a seat that made no analysed move has no average and no accuracy (NULL), not 0
    select = ("count(DISTINCT game_id), sum(moves), sum(average_points_lost * moves) / nullif(sum(moves), 0), "
              "sum(accuracy * moves) / nullif(sum(moves), 0), sum(inaccuracies), sum(mistakes), sum(blunders)")
    players = [Accuracy(*row) for row in con.execute(
        f"SELECT min(name), {select} FROM analysis_players{some} GROUP BY lower(name) "
        "ORDER BY sum(moves) DESC, lower(name)", params)]
    kinds = [Accuracy(*row) for row in con.execute(
        f"SELECT game, {select} FROM analysis_players{some} GROUP BY game ORDER BY game", params)]
    return players, kinds


@dataclass(slots=True)
class LuckSkill:
    """One player's analysed whole games of one game kind (by name): their mean final margin, luck (of what the
    game hides: a tile drawn, a face turned) and skill a game (R336; R456: each game kind apart, its points its
    own)."""

    name: str
    games: int
    margin: float
    luck: float
    skill: float
    #: The game kind (the record's Game tag).
    game: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--format json``."""
        return {"name": self.name, "game": self.game, "games": self.games, "margin": round(self.margin, 2),
                "luck": round(self.luck, 2), "skill": round(self.skill, 2)}


def luck_stats(con: sqlite3.Connection, cond: str, params: list[Any]) -> list[LuckSkill]:
    """Per player (by name) and game kind, over the analysed whole games that ``cond`` on ``games g`` selects: the
    mean final margin, luck and skill a game (an archive analysed before R336 has none).  A game kind's points are
    its own (one game's margins are tens of points, another's can be a hundred), so a player of two kinds has a
    row for each (R456)."""
    if con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'analysis_balance'").fetchone() is None:
        return []
    some = "" if cond == "1" else f" WHERE game_id IN (SELECT g.id FROM games g WHERE {cond})"
    return [LuckSkill(*row) for row in con.execute(
        f"SELECT min(name), count(DISTINCT game_id), avg(margin), avg(luck), avg(skill), game FROM analysis_balance{some} "
        "GROUP BY game, lower(name) ORDER BY game, count(DISTINCT game_id) DESC, lower(name)", params)]


def luck_table(rows: list[LuckSkill]) -> str:
    """The players' luck and skill as a plain text table (nothing when no game has them)."""
    if not rows:
        return ""
    lines = ["", "luck and skill, per player and game (points of final margin a game; the luck is what each game "
             "hides: the tile drawn, the face turned):",
             f"  {'player':<20} {'game':<12} {'games':>6} {'margin':>7} {'luck':>6} {'skill':>6}"]
    lines += [f"  {r.name[:20]:<20} {r.game[:12]:<12} {r.games:>6} {r.margin:>+7.1f} {r.luck:>+6.1f} {r.skill:>+6.1f}"
              for r in rows]
    return "\n".join(lines) + "\n"


def accuracy_table(players: list[Accuracy], kinds: list[Accuracy]) -> str:
    """The analysed moves as plain text tables (a line saying so when nothing is analysed)."""
    if not players and not kinds:
        return "\nanalysis: no game analysed (grn archive analyse DB)\n"
    head = (f"{'games':>6} {'moves':>6} {'lost/move':>9} {'accuracy':>8} {'?!':>5} {'?':>5} {'??':>5}")
    lines = ["", "analysis, per player:", f"  {'player':<20} {head}"]

    def row(a: Accuracy) -> str:
        lost = "-" if a.average_points_lost is None else f"{a.average_points_lost:.2f}"
        acc = "-" if a.accuracy is None else f"{a.accuracy:.1f}%"
        return (f"{a.games:>6} {a.moves:>6} {lost:>9} {acc:>8} "
                f"{a.inaccuracies:>5} {a.mistakes:>5} {a.blunders:>5}")

    lines += [f"  {a.name[:20]:<20} {row(a)}" for a in players]
    lines += ["", "analysis, per game:", f"  {'game':<20} {head}"]
    lines += [f"  {a.name[:20]:<20} {row(a)}" for a in kinds]
    return "\n".join(lines) + "\n"


__all__ = ["TABLES", "has_analysis", "analyse_archive", "pending", "store_analysis", "review_of", "reviewed", "AnalyseSummary", "Accuracy", "accuracy_stats",
           "accuracy_table", "LuckSkill", "luck_stats", "luck_table"]
