"""The archive's SQLite file: schema, opening, and adding record files.

One file, no server: WAL journal, indexes on what searches filter on, JSON1
for the rest.  ``docs/archive.md`` describes every table.

Adding twice changes nothing: a file is known by the SHA-256 of its bytes, and a file
already archived whole is skipped.  A file's games are written in one
transaction; a large file commits every :data:`BATCH` games with its progress
in ``files.done``, so a killed ``grn archive add`` leaves a usable archive
and the next run goes on where it stopped.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from grn.archive.facts import GAME_WIDTH, PACKED_WIDTH, POINT_WIDTH, SEAT_WIDTH, TAG_WIDTH, GameFacts, unpack
from grn.archive.migrate import cluster_child_tables, rekey, remove_orphan_analysis, upgrade_1_to_2
from grn.archive.indexer import indexing_validator
from grn.archive.transaction import write_transaction
from grn.check.batch import GameResult, Problem, Validator
from grn.core.errors import no_game
from grn.core.value import Struct

#: 2: the per-turn facts in ``game_turns``, one row a game (schema 1 had a row per command and event).
#: 3: new per-turn facts packed with Zstandard (R216); schema 2's zlib rows are read as they are.
#: 4: a game may have no ``game_turns`` row yet: its per-turn facts are built when a reader first needs them
#: (R250); an older grn, which would read such a game as one without commands or events, is refused.  The
#: dedup key reads the commands' fields, not their JSON (R252): an upgrade makes every game's key anew.
#: 5: the dedup key reads the main line as one flat list (R286): an upgrade makes every game's key anew.
#: 6: ``tags``, ``seats`` and ``points`` are ``WITHOUT ROWID`` tables clustered on their game (R300): no
#: ``game_id`` index beside them; an upgrade copies their rows into the new tables.
#: 7: ``add`` writes a game's ``points`` rows as one ``points_packed`` row, expanded into ``points`` when
#: ``stats`` first needs them (R310); an older grn, whose stats would miss the packed games, is refused.
#: 8: deleting a game deletes its analysis (R430); the upgrade removes the analysis rows an older grn left behind
#: for deleted games, and an older grn, which would leave them again, is refused.
SCHEMA_VERSION = 8
#: Seconds a connection waits for a lock another process holds (making the archive, or writing it).
BUSY_SECONDS = 30.0
#: The page size of a new archive (SQLite's default is 4096).
PAGE_SIZE = 8192
#: Games per transaction within one large file.
BATCH = 5000
#: Games written to SQLite at a time (one executemany per table).
WRITE_EVERY = 200

#: Per-turn facts, one row a game (R155): the JSON texts of ``GameFacts.actions`` and ``.events``.
GAME_TURNS = """CREATE TABLE IF NOT EXISTS game_turns (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    actions BLOB NOT NULL,
    events BLOB NOT NULL
)"""

#: A game's rows of ``tags``, ``seats`` and ``points``, clustered on the game (R300): ``WITHOUT ROWID`` tables
#: whose primary key starts with ``game_id``, so that one b-tree holds a game's rows together, in the order
#: ``add`` appends them, and reads of a game's rows need no ``game_id`` index beside the table (schema 5 had
#: ``tags_game``, ``seats_game`` and ``points_game``).  A points row is a sum by seat and feature kind: one a
#: (game, seat key, feature kind).
CHILD_TABLES = """
CREATE TABLE IF NOT EXISTS tags (
    game_id INTEGER NOT NULL REFERENCES games(id),
    pos INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, pos)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    score INTEGER,
    won INTEGER NOT NULL,
    -- copies of the game's facts, so that statistics read this table alone
    first INTEGER NOT NULL,
    done INTEGER NOT NULL,
    game TEXT NOT NULL,
    n_players INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS points (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    feature TEXT NOT NULL,
    points INTEGER NOT NULL,
    PRIMARY KEY (game_id, player, feature)
) WITHOUT ROWID;
"""
#: Their secondary indexes, what the tag and player searches and ``stats`` read (an entry of an index of a
#: ``WITHOUT ROWID`` table carries the row's primary key: the searches' ``game_id`` comes from the index alone).
CHILD_INDEXES = """
CREATE INDEX IF NOT EXISTS tags_name_value ON tags (name, value COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS seats_name ON seats (name COLLATE NOCASE);
-- covering: statistics group by player and feature kind without sorting
CREATE INDEX IF NOT EXISTS points_name ON points (name COLLATE NOCASE, feature, points);
"""

#: A game's ``points`` rows as ``add`` writes them (R310): one row a game, ``data`` its rows as JSON objects,
#: ``{player: {name: {feature: points, ...}}, ...}``, expanded into ``points`` (:mod:`grn.archive.points`)
#: before ``stats`` reads them.  Only finished valid games with points have one, as only they have ``points``
#: rows.
POINTS_PACKED = """CREATE TABLE IF NOT EXISTS points_packed (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    data TEXT NOT NULL
)"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    complete INTEGER NOT NULL DEFAULT 0,
    problem TEXT,
    added TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id),
    file_index INTEGER NOT NULL,
    format TEXT NOT NULL,
    game TEXT NOT NULL,
    event TEXT,
    site TEXT,
    date TEXT,
    round TEXT,
    players TEXT NOT NULL,
    n_players INTEGER NOT NULL,
    result TEXT,
    winners TEXT NOT NULL,
    valid INTEGER NOT NULL,
    complete INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    final_scores TEXT,
    first_player TEXT,
    dedup TEXT NOT NULL,
    problems TEXT NOT NULL,
    -- last: a long text in the middle of a row would be read by every scan of the columns after it
    text TEXT NOT NULL,
    UNIQUE (file_id, file_index)
);
CREATE INDEX IF NOT EXISTS games_game_date ON games (game, date);
CREATE INDEX IF NOT EXISTS games_date ON games (date);
CREATE INDEX IF NOT EXISTS games_dedup ON games (dedup);
""" + CHILD_TABLES + CHILD_INDEXES + GAME_TURNS + ";\n" + POINTS_PACKED + """;
CREATE TABLE IF NOT EXISTS merged (
    id INTEGER PRIMARY KEY,
    into_id INTEGER NOT NULL REFERENCES games(id),
    file_id INTEGER NOT NULL,
    file_index INTEGER NOT NULL,
    format TEXT NOT NULL,
    text TEXT NOT NULL
);
"""

#: The per-turn facts as rows, read from ``game_turns`` on demand (R155): the tables of schema 1, now views.
#: ``grn_unpack`` is grn's SQL function (:func:`register`): the views need a connection made by :func:`connect`.
VIEWS = """
CREATE VIEW IF NOT EXISTS actions (game_id, turn, seq, player, type, tile, x, y, json) AS
SELECT d.game_id, t.value ->> 0, c.key, t.value ->> 1, c.value ->> '$.type', c.value ->> '$.tile',
       c.value ->> '$.x', c.value ->> '$.y', c.value
FROM game_turns d, json_each(grn_unpack(d.actions)) t, json_each(t.value, '$[2]') c;
CREATE VIEW IF NOT EXISTS events (game_id, turn, seq, player, type, points, feature, detail, final, json) AS
SELECT d.game_id, t.value ->> 0, e.key, e.value ->> '$.player', e.value ->> '$.type', e.value ->> '$.points',
       e.value ->> '$.feature', e.value ->> '$.detail', coalesce(e.value ->> '$.final', t.value ->> 0 IS NULL),
       e.value
FROM game_turns d, json_each(grn_unpack(d.events)) t, json_each(t.value, '$[1]') e;
"""


class ArchiveError(Exception):
    """A problem with the archive file itself (not an archive, newer schema, cannot be written)."""


def connect(path: str | os.PathLike[str], *, create: bool = False, readonly: bool = False) -> sqlite3.Connection:
    """Open an archive; ``create`` makes it when missing, ``readonly`` opens it with ``mode=ro``."""
    p = Path(path)
    if not create and not p.exists():
        raise ArchiveError("no such archive (make one with grn archive add)")
    if p.is_dir():
        raise ArchiveError("is a directory, not an archive")
    try:
        if readonly:
            con = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_SECONDS)
            con.execute("PRAGMA query_only = ON")
        else:
            # transactions are explicit; a lock another process holds (making the archive, writing) is waited for
            con = sqlite3.connect(p, isolation_level=None, timeout=BUSY_SECONDS)
        register(con)
        version = con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() if _has_meta(con) else None
    except sqlite3.DatabaseError as exc:
        raise ArchiveError(f"not an archive ({exc})") from None
    if version is None:
        if not create:
            raise ArchiveError("not a grn archive (no schema)")
        try:
            _create(con)
        except sqlite3.DatabaseError as exc:
            raise ArchiveError(f"cannot make an archive here ({exc})") from None
    elif int(version[0]) > SCHEMA_VERSION:
        raise ArchiveError(f"archive schema {version[0]} is newer than this grn ({SCHEMA_VERSION}): upgrade grn")
    elif int(version[0]) < SCHEMA_VERSION and not readonly:
        try:
            _upgrade(con)
        except sqlite3.DatabaseError as exc:
            raise ArchiveError(f"cannot bring the archive to schema {SCHEMA_VERSION} ({exc})") from None
    if not readonly:
        con.execute("PRAGMA synchronous = NORMAL")
        con.execute("PRAGMA foreign_keys = OFF")  # rows are written parent first; checking costs time
    return con


def _create(con: sqlite3.Connection) -> None:
    """Make the archive's schema in the empty file ``con`` opened, safe when other processes make it at the
    same moment (R345): the schema and its version are written in one transaction of statements that make
    only what is missing, so a second maker waits for the first and then finds the archive made."""
    # 8 KiB pages hold three game rows of 2.5 KiB where 4 KiB pages hold one (R157); only an empty file takes
    # a page size, and before WAL (in a file another process made first, both are what it has already)
    _when_free(lambda: con.execute(f"PRAGMA page_size = {PAGE_SIZE}"))
    _when_free(lambda: con.execute("PRAGMA journal_mode = WAL").fetchone())
    with write_transaction(con):
        if _has_meta(con):
            return  # another process made it meanwhile
        if con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise ArchiveError("not a grn archive: the database holds other tables")
    # executescript commits what is open before it: the script is its own transaction, and each of its
    # statements makes only what is missing (another maker may have got there between the two)
    con.executescript("BEGIN IMMEDIATE;\n" + SCHEMA + VIEWS + "\nINSERT OR IGNORE INTO meta VALUES ('schema', '"
                      + str(SCHEMA_VERSION) + "');\nCOMMIT;")


def _when_free(work: Callable[[], Any]) -> Any:
    """Run ``work``, again while another process holds the lock it needs (a change of journal mode takes
    the whole file, and SQLite's busy timeout does not wait for that), for up to :data:`BUSY_SECONDS`."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            return work()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def register(con: sqlite3.Connection) -> None:
    """Give ``con`` grn's SQL function ``grn_unpack(blob)``: a packed per-turn column as its JSON text."""
    con.create_function("grn_unpack", 1, unpack, deterministic=True)


def _upgrade(con: sqlite3.Connection) -> None:
    """Bring an archive of an older schema to :data:`SCHEMA_VERSION` (one transaction; another process
    that got there first leaves nothing to do)."""
    with write_transaction(con):
        version = int(con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0])
        if version == 1:
            upgrade_1_to_2(con, GAME_TURNS, VIEWS)
        if version <= 4:
            # schema 2 to 3: nothing to rewrite (unpack reads zlib and Zstandard alike); an older grn, which
            # reads zlib only, is now told the archive is newer than it.  3 to 4: nothing to rewrite either
            # (every game of an older archive has its per-turn rows, and keeps them); an older grn is refused
            # an archive whose games may lack them (R250).  4 to 5: the rows stay.  Every game's dedup key is
            # made anew from its text: schema 5's key reads the main line as one flat list (R286; schema 4's,
            # R252, nested it; schema 3's read the commands' JSON), and an older grn, which would key new
            # games apart from these, is refused
            rekey(con)
        if version <= 5:
            # 5 to 6: the rows of tags, seats and points copied into tables clustered on their game (R300);
            # the keys, the texts and the per-turn rows stay
            cluster_child_tables(con, CHILD_TABLES, CHILD_INDEXES)
        if version <= 6:
            # 6 to 7: the table of packed points rows, empty: an older archive's points rows are all expanded
            # (R310); an older grn, whose stats would not read the packed rows, is refused
            con.execute(POINTS_PACKED)
        if version <= 7:
            # 7 to 8: the analysis rows of games no longer archived go (R430)
            remove_orphan_analysis(con, ANALYSIS_TABLES)
        if version < SCHEMA_VERSION:
            con.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))


def _has_meta(con: sqlite3.Connection) -> bool:
    return con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is not None


def file_sha256(path: str) -> tuple[str, int]:
    """SHA-256 and size of a file's bytes, read in blocks."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
            size += len(block)
    return h.hexdigest(), size


class AddSummary(Struct):
    """What ``grn archive add`` did (a :class:`grn.core.value.Struct`: ``add`` starts without ``dataclasses``, R325)."""

    __slots__ = ("files", "skipped", "games", "invalid", "problems")
    _fields = ("files", "skipped", "games", "invalid", "problems")

    def __init__(self, files: int = 0, skipped: int = 0, games: int = 0, invalid: int = 0,
                 problems: list[str] | None = None) -> None:
        self.files = files
        self.skipped = skipped
        self.games = games
        self.invalid = invalid
        self.problems: list[str] = [] if problems is None else problems


def insert_games(con: sqlite3.Connection, games: list[tuple[int, int, GameResult]]) -> None:
    """Write validated games (id, file id, result) and their facts, inside the caller's transaction.

    Many rows a statement (:func:`insert_rows`, R294): far fewer calls into SQLite than a row at a time.
    """
    game_values: list[Any] = []
    tag_values: list[Any] = []
    seat_values: list[Any] = []
    point_values: list[Any] = []
    packed_points: list[Any] = []
    turn_rows: list[tuple[Any, ...]] = []
    for game_id, file_id, res in games:
        f: GameFacts = res.facts
        game_values += f.rows(game_id, file_id, res.index, res.fmt, res.text, tag_values, seat_values,
                              point_values, packed_points)
        if f.actions is not None and f.events is not None:  # else built when a reader needs them (R250)
            turn_rows.append((game_id, f.actions, f.events))
    insert_rows(con, "games", GAME_WIDTH, game_values)
    insert_rows(con, "tags", TAG_WIDTH, tag_values)
    insert_rows(con, "seats", SEAT_WIDTH, seat_values)
    if turn_rows:
        con.executemany("INSERT INTO game_turns VALUES (?,?,?)", turn_rows)
    # a game's points rows packed in one row, expanded when stats first reads them (R310); a text with a NUL
    # cannot be packed: such a game's rows (none, mostly) go in as they are
    insert_rows(con, "points_packed", PACKED_WIDTH, packed_points)
    insert_rows(con, "points", POINT_WIDTH, point_values)


#: The most rows one INSERT writes (a power of two; fewer when SQLite allows fewer parameters a statement).
ROWS_AT_ONCE = 64


@functools.lru_cache(maxsize=256)
def _values_sql(table: str, width: int, rows: int) -> str:
    # OR ROLLBACK (R315): a statement of many rows that may abort on a constraint needs a statement journal
    # (the first image of every page it changes, kept so that the statement alone can be undone), which
    # spills to a temporary file past 64 KiB: about 160,000 small writes a 9,000-game add.  grn never goes on
    # with a transaction after a failed insert (every writer rolls it back), so a violation may as well end it
    row = "(" + ",".join("?" * width) + ")"
    return f"INSERT OR ROLLBACK INTO {table} VALUES " + ",".join([row] * rows)


def insert_rows(con: sqlite3.Connection, table: str, width: int, values: list[Any]) -> None:
    """Insert rows of ``width`` columns given as one flat list of values, in their order, many rows a
    statement (R294): the first in statements of :data:`ROWS_AT_ONCE` rows, the rest in statements of
    32, 16, ..., 1 rows, so that a table is written by at most seven distinct statements, each prepared
    once (the connection's statement cache).  The same rows, in the same order (the same rowids), as an
    ``executemany`` of one row a statement, which pays SQLite's and Python's cost of a statement run per row."""
    if len(values) % width:
        raise ValueError(f"{len(values)} values are not rows of {width} for {table}")
    limit = con.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    at_once = ROWS_AT_ONCE
    while at_once > 1 and at_once * width > limit:
        at_once //= 2
    start, end = 0, len(values)
    while start < end:
        rows = min(at_once, (end - start) // width)
        if rows < at_once:
            rows = 1 << (rows.bit_length() - 1)  # the largest power of two not above what is left
        stop = start + rows * width
        con.execute(_values_sql(table, width, rows), values[start:stop] if (start, stop) != (0, end) else values)
        start = stop


def insert_game(con: sqlite3.Connection, game_id: int, file_id: int, res: GameResult) -> None:
    """Write one validated game and its facts (inside the caller's transaction)."""
    insert_games(con, [(game_id, file_id, res)])


#: The tables of a game's analysis (:mod:`grn.archive.review`), made by the first analysis: none in an archive
#: never analysed.
ANALYSIS_TABLES = ("analysed", "analysis_turns", "analysis_players", "analysis_balance", "analysis_review")


def delete_analysis(con: sqlite3.Connection, game_id: int) -> None:
    """Remove one game's analysis, if it has one (inside the caller's transaction)."""
    marks = ",".join("?" * len(ANALYSIS_TABLES))
    for (table,) in con.execute(f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({marks})",
                                ANALYSIS_TABLES).fetchall():
        con.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))


def delete_game(con: sqlite3.Connection, game_id: int, *, analysis: bool = True) -> None:
    """Remove one game and its facts, and its analysis unless ``analysis`` is false (the game is written again
    at once with the same id, and the caller decides whether the analysis still holds: R430); inside the
    caller's transaction."""
    for table in ("tags", "seats", "game_turns", "points", "points_packed"):
        con.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
    if analysis:
        delete_analysis(con, game_id)
    con.execute("DELETE FROM games WHERE id = ?", (game_id,))


#: The secondary indexes of the tables ``add`` writes (``games``, ``tags``, ``seats``): what a first bulk add
#: drops inside its transaction and makes again before it commits (R287).  ``points`` is not among them: ``add``
#: writes ``points_packed`` (no secondary index), and the first expansion drops and makes ``points_name`` (R311).
BULK_TABLES = ("games", "tags", "seats")


def drop_indexes(con: sqlite3.Connection, tables: tuple[str, ...] = BULK_TABLES) -> list[str]:
    """Drop the secondary indexes of ``tables`` (inside the caller's transaction) and return the statements
    that make them again (:func:`make_indexes`).  Only for tables with no row yet: the rows are then written
    without index upkeep and each index is built once, sorted, at the end (R287; the points expansion, R311)."""
    marks = ",".join("?" * len(tables))
    found = con.execute(f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                        f"AND tbl_name IN ({marks}) ORDER BY name", tables).fetchall()
    for name, _ in found:
        con.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in found]


def make_indexes(con: sqlite3.Connection, statements: list[str]) -> None:
    """Make again the indexes :func:`drop_indexes` dropped (inside the same transaction, before its commit:
    no reader or writer ever sees the archive without them, R287)."""
    for sql in statements:
        con.execute(sql)


def _next_id(con: sqlite3.Connection) -> int:
    row = con.execute("SELECT max(id) FROM games").fetchone()
    return (row[0] or 0) + 1


def add_files(con: sqlite3.Connection, paths: Iterable[str], validator: Validator | None = None, *,
              progress: Callable[[str], None] | None = None, batch: int = BATCH) -> AddSummary:
    """Validate and index every game of ``paths``; files already archived whole are skipped.

    A file's games are committed every ``batch`` games (with the file's progress).

    ``validator`` (an indexing one: :func:`grn.archive.indexer.indexing_validator`) says where
    the work runs; by default in this process.
    """
    summary = AddSummary()
    own = validator is None
    v = validator or indexing_validator()
    try:
        for path in paths:
            _add_file(con, v, path, summary, progress, batch)
    finally:
        if own:
            v.runner.close()
    return summary


def _add_file(con: sqlite3.Connection, validator: Validator, path: str, summary: AddSummary,
              progress: Callable[[str], None] | None, batch: int = BATCH) -> None:
    """Add the games of one file (``-``: standard input) to the archive, ``batch`` games a transaction, unless
    the archive holds that file already (by its SHA-256); what happened goes into ``summary``.

    Kept whole: the file's hash, its games and the resumption point share one transaction's state, and the
    steps read in the order they happen."""
    if path == "-":
        from grn.notation.sources import stdin_bytes

        data = stdin_bytes()
        sha, size = hashlib.sha256(data).hexdigest(), len(data)
    else:
        try:
            sha, size = file_sha256(path)
        except FileNotFoundError:
            summary.problems.append(f"{path}: error: no such file")
            return
        except IsADirectoryError:
            summary.problems.append(f"{path}: error: is a directory, not a record file")
            return
        except PermissionError:
            summary.problems.append(f"{path}: error: permission denied")
            return
    row = con.execute("SELECT id, done, complete FROM files WHERE sha256 = ?", (sha,)).fetchone()
    if row is not None and row[2]:
        summary.skipped += 1
        return
    con.execute("BEGIN IMMEDIATE")
    try:
        # read again under the write lock: another process adding the same file may have got there first
        row = con.execute("SELECT id, done, complete FROM files WHERE sha256 = ?", (sha,)).fetchone()
        if row is not None and row[2]:
            con.execute("ROLLBACK")
            summary.skipped += 1
            return
        if row is None:
            cur = con.execute("INSERT INTO files (sha256, path, size, added) VALUES (?,?,?,?)",
                              (sha, path, size, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
            file_id, done = int(cur.lastrowid or 0), 0
        else:
            file_id, done = int(row[0]), int(row[1])
        next_id = _next_id(con)
        # a first bulk add (no game yet): rows without index upkeep, each index made once before the commit
        dropped = drop_indexes(con) if next_id == 1 else []
        count = done
        in_batch = 0
        problem = None
        pending: list[tuple[int, int, GameResult]] = []
        for item in validator.run(path, skip=done):
            if isinstance(item, Problem):
                problem = item.problem.one_line()
                continue
            pending.append((next_id, file_id, item))
            if len(pending) >= WRITE_EVERY:
                insert_games(con, pending)
                pending = []
            next_id += 1
            count += 1
            in_batch += 1
            summary.games += 1
            summary.invalid += not item.report.valid
            if in_batch >= batch:
                # a large file: keep what is done, so that a killed run loses at most one batch
                insert_games(con, pending)
                pending = []
                con.execute("UPDATE files SET done = ?, games = ? WHERE id = ?", (count, count, file_id))
                make_indexes(con, dropped)
                dropped = []
                con.execute("COMMIT")
                if progress:
                    progress(f"{path}: {count} games")
                con.execute("BEGIN IMMEDIATE")
                in_batch = 0
        if count == 0 and problem is None:
            # a file with no game is refused, as grn validate refuses it, and not kept as archived (R328)
            con.execute("ROLLBACK")
            summary.problems.append(no_game(path).one_line())
            return
        insert_games(con, pending)
        con.execute("UPDATE files SET done = ?, games = ?, complete = 1, problem = ? WHERE id = ?",
                    (count, count, problem, file_id))
        make_indexes(con, dropped)
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
    if problem:
        summary.problems.append(problem)
    summary.files += 1


def print_progress(message: str) -> None:
    """Progress of a long add, on standard error."""
    print(message, file=sys.stderr)
