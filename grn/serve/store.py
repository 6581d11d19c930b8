"""The games ``grn serve`` records, kept in ``grn archive``'s SQLite file with its own code.

A game being recorded is one archived game with a file row of its own (path
``grn serve``, a random key instead of the text's SHA-256: the text changes
every turn).  A turn recorded at the end of the main line is stored as that
turn: its line appended to the canonical text and the rows it changes updated,
with no replay (:meth:`Store._append`, R458-R461: the rows a full save would
write); any other edit writes the record again as canonical GRN, validated and
indexed (:func:`grn.archive.db.insert_game`).  Either way ``grn archive
search`` finds the game at once.  A write is checked against the text
the client edited (``base``, its SHA-256): two phones editing one game cannot
overwrite each other's turns; the loser is told to reload.  The work is done
before the write transaction, which holds only the short ``BEGIN IMMEDIATE``
... ``COMMIT`` of the rows (SQLite WAL: readers never wait).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from grn.analysis.judge import GameAnalysis
from grn.archive.db import connect, delete_analysis, delete_game, insert_game
from grn.archive.facts import appended_facts, dedup_key, game_facts
from grn.archive.review import review_of, reviewed, store_analysis
from grn.check.files import GameResult
from grn.archive.search import Filters, game_ids
from grn.archive.transaction import write_transaction
from grn.archive.turns import build, needs_turns
from grn.core.record import Record
from grn.serve.views import record_for, remember_record
from grn.check.validate import GameReport, validate_record
from grn.notation.writer import write_record
from grn.serve.append import Appended, appended_text, remember_canonical

#: The ``files.path`` of games recorded by ``grn serve``.
SERVED = "grn serve"
#: Seconds a writer waits for another's transaction (many phones, one archive).
BUSY_SECONDS = 30.0


def _unchanged(row: Any, game_id: int, base: str) -> Any:
    """``row`` (the game's, its text first) when the stored text is still the page's ``base``; else the store's
    refusal: 404 for a game gone, 409 for a game another phone changed (checked inside the write transaction)."""
    if row is None:
        raise StoreError(f"no game {game_id} in the archive", 404)
    if digest(row[0]) != base:
        raise StoreError("the game was changed meanwhile (another phone?): reload it", 409)
    return row


class StoreError(Exception):
    """A request the archive cannot answer: ``status`` is the HTTP status to give."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def digest(text: str) -> str:
    """The SHA-256 of a game's stored text: what a client names as the version it edited."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Store:
    """One archive file; each thread has its own connection, so threads never share one."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        with self.connection(create=True) as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'serve_secret'").fetchone()
            if row is None:
                con.execute("INSERT OR IGNORE INTO meta VALUES ('serve_secret', ?)", (secrets.token_hex(32),))
                row = con.execute("SELECT value FROM meta WHERE key = 'serve_secret'").fetchone()
        #: The key of read-only share links (kept in the archive, so links survive a restart).
        self.secret = str(row[0])

    class _Conn:
        def __init__(self, con: sqlite3.Connection) -> None:
            self.con = con

        def __enter__(self) -> sqlite3.Connection:
            return self.con

        def __exit__(self, *exc: object) -> None:
            if self.con.in_transaction:
                self.con.execute("ROLLBACK")

    def connection(self, *, create: bool = False) -> "Store._Conn":
        """This thread's connection to the archive (kept open: closing the last one checkpoints the WAL,
        which would cost every request several milliseconds)."""
        con: sqlite3.Connection | None = getattr(self._local, "con", None)
        if con is None:
            con = connect(self.path, create=create)
            con.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            self._local.con = con
        return Store._Conn(con)

    # -- reading ---------------------------------------------------------------------------------
    def load(self, game_id: int) -> tuple[Record, str]:
        """A game's record and its stored text (the record of a text read lately is not read again)."""
        with self.connection() as con:
            row = con.execute("SELECT text, format FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in the archive", 404)
        try:
            record = record_for(row[0], row[1])
        except ValueError as exc:
            raise StoreError(f"game {game_id} cannot be read: {exc}", 422) from None
        return record, str(row[0])

    def search(self, filters: Filters, limit: int = 200) -> list[dict[str, Any]]:
        """The games the filters select (newest first, at most ``limit``), as rows for the page."""
        with self.connection() as con:
            if needs_turns(filters):  # games archive add gave no per-turn rows get them now (R250)
                build(con)
            ids = game_ids(con, filters)[-limit:][::-1]
            if not ids:
                return []
            marks = ",".join("?" * len(ids))
            rows = con.execute(
                f"SELECT g.id, g.game, g.date, g.event, g.players, g.result, g.turns, g.valid, g.complete, "
                f"f.path FROM games g JOIN files f ON f.id = g.file_id WHERE g.id IN ({marks})", ids).fetchall()
            marked = reviewed(con, ids)
        by_id = {r[0]: r for r in rows}
        out = []
        for i in ids:
            r = by_id[i]
            out.append({"id": r[0], "game": r[1], "date": r[2], "event": r[3], "players": json.loads(r[4]),
                        "result": r[5], "turns": r[6], "valid": bool(r[7]), "complete": bool(r[8]),
                        "recorded": r[9] == SERVED, "reviewed": r[0] in marked})
        return out

    # -- writing ---------------------------------------------------------------------------------
    @staticmethod
    def _result(record: Record) -> tuple[GameResult, str]:
        text = write_record(record)
        # the stored text is what is read back: spans then point into it
        again = record_for(text, "grn")
        report = validate_record(again, file="<archive>", index=0, keep_turns=True)
        remember_canonical(text)
        return GameResult(0, report, None, text, "grn", game_facts(again, report)), text

    def create(self, record: Record, source: str = SERVED) -> int:
        """Add a game (a new one to record, or one imported); its id."""
        result, text = self._result(record)
        with self.connection() as con, write_transaction(con):
            cur = con.execute("INSERT INTO files (sha256, path, size, games, done, complete, added) "
                              "VALUES (?,?,?,1,1,1,?)",
                              (secrets.token_hex(32), source, len(text.encode()), _now()))
            file_id = int(cur.lastrowid or 0)
            game_id = int(con.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0])
            insert_game(con, game_id, file_id, result)
        return game_id

    def save(self, game_id: int, record: Record, base: str, appended: Appended | None = None) -> str:
        """Replace game ``game_id`` by ``record`` if its text is still ``base`` (a digest); the new text.

        One transaction: the game's rows are all old or all new, whoever reads.  ``appended``: ``record`` is the
        stored game with a turn the recorder played at the end of its main line, and what the recorder knows of
        it; such a turn is stored as one turn (:meth:`_append`, R458), the same text and rows as the full save.
        """
        if appended is not None:
            text = self._append(game_id, record, base, appended)
            if text is not None:
                return text
        result, text = self._result(record)
        with self.connection() as con, write_transaction(con):
            row = _unchanged(con.execute("SELECT text, file_id, file_index FROM games WHERE id = ?",
                                         (game_id,)).fetchone(), game_id, base)
            result.index = int(row[2])
            before = con.execute("SELECT dedup FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            delete_game(con, game_id, analysis=False)
            insert_game(con, game_id, int(row[1]), result)
            if con.execute("SELECT dedup FROM games WHERE id = ?", (game_id,)).fetchone()[0] != before:
                delete_analysis(con, game_id)  # the main line changed: its review no longer holds (R430)
            con.execute("UPDATE files SET size = ? WHERE id = ?", (len(text.encode()), row[1]))
        return text

    def _append(self, game_id: int, record: Record, base: str, appended: Appended) -> str | None:
        """Store ``record``, game ``game_id`` with one more turn at the end of its main line, as that turn: its line
        after the stored text, and the rows it changes updated (R458-R460); the new text.  None where the turn is not
        stored so (:func:`grn.serve.append.appended_text`, or a stored game not valid and unfinished without a
        problem, or without its per-turn rows): the full save stores it.  The checks of ``base`` are the full
        save's, under the same write transaction."""
        made = appended_text(record, appended)
        if made is None:
            return None
        text, stored = made
        with self.connection() as con:
            row = con.execute("SELECT text, file_id, file_index, turns, valid, complete, errors, problems, dedup "
                              "FROM games WHERE id = ?", (game_id,)).fetchone()
            per_turn = con.execute("SELECT actions, events FROM game_turns WHERE game_id = ?",
                                   (game_id,)).fetchone()
        if (row is None or row[0] != appended.text or digest(row[0]) != base or not row[4] or row[5] or row[6]
                or row[7] != "[]" or per_turn is None):
            return None
        file_id, index = int(row[1]), int(row[2])
        report = GameReport(index, "<archive>", stored.game, stored.tags, turns_played=int(row[3]) + 1,
                            final_scores=dict(appended.after.scores))
        facts = appended_facts(stored, report, per_turn[0], per_turn[1], appended.events)
        seats: list[Any] = []
        values = facts.rows(game_id, file_id, index, "grn", text, [], seats, [], [])
        with self.connection() as con, write_transaction(con):
            _unchanged(con.execute("SELECT text FROM games WHERE id = ?", (game_id,)).fetchone(), game_id, base)
            columns = [c[1] for c in con.execute("PRAGMA table_info(games)")][1:]
            con.execute(f"UPDATE games SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
                        (*values[1:], game_id))
            con.executemany("UPDATE seats SET key = ?, name = ?, score = ?, won = ?, first = ?, done = ?, game = ?, "
                            "n_players = ? WHERE game_id = ? AND seat = ?",
                            [(*seats[i + 2:i + 10], game_id, seats[i + 1]) for i in range(0, len(seats), 10)])
            con.execute("UPDATE game_turns SET actions = ?, events = ? WHERE game_id = ?",
                        (facts.actions, facts.events, game_id))
            if facts.dedup != row[8]:
                delete_analysis(con, game_id)  # the main line changed: its review no longer holds (R430)
            con.execute("UPDATE files SET size = ? WHERE id = ?", (len(text.encode()), file_id))
        remember_canonical(text)
        remember_record(text, stored)
        return text

    def keep_review(self, game_id: int, analysed: Record, found: GameAnalysis, review: Record,
                    settings: dict[str, Any]) -> None:
        """Keep ``found``, the analysis of ``analysed``, and ``review``, the record annotated with it, as game
        ``game_id``'s analysis (R430): the game is not rewritten and no game is added.  Refused when the game's
        main line is no longer the one analysed (a phone recorded or took back a turn meanwhile)."""
        with self.connection() as con:
            row = con.execute("SELECT dedup, game FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise StoreError(f"no game {game_id} in the archive", 404)
            if row[0] != dedup_key(analysed):
                raise StoreError("the game changed while it was analysed: analyse it again", 409)
            names = {k: n for k, n in con.execute("SELECT key, name FROM seats WHERE game_id = ?", (game_id,))}
            store_analysis(con, game_id, found, json.dumps(settings), names, str(row[1]), None,
                           write_record(review))

    def review(self, game_id: int) -> str | None:
        """Game ``game_id``'s review as GRN text (None: it has none)."""
        with self.connection() as con:
            return review_of(con, game_id)

    def delete(self, game_id: int) -> None:
        """Remove a game and its facts."""
        with self.connection() as con, write_transaction(con):
            if con.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise StoreError(f"no game {game_id} in the archive", 404)
            delete_game(con, game_id)

    def share_key(self, game_id: int) -> str:
        """The key of game ``game_id``'s read-only link (an HMAC of its id: it opens that game only)."""
        return hmac.new(self.secret.encode(), f"game {game_id}".encode(), "sha256").hexdigest()[:32]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
