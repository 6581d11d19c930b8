"""The per-turn rows of archived games (``game_turns``), built when a reader first needs them (R250).

``grn archive add`` stores a game's game-level rows (``games``, ``tags``,
``seats``, ``points``) and its text; the per-turn facts (every command and
engine event, read through the ``actions`` and ``events`` views) cost as much
again to make, so they are made from the stored text the first time a search
by ``--event``, ``--action`` or ``--beside``, or a Parquet export, asks for
them, and kept: every later per-turn search reads them as it always did.
``grn archive index`` builds them up front; ``grn archive add --per-turn``
builds them while adding.

A build takes the archive's write lock for each batch of games, looks which
games of it still lack their rows, builds those (in this process, in worker
processes or on Dask, as ``add`` does) and writes them before it lets go: two
builders at once, or a builder beside ``archive add`` or the serve recorder,
never build a game twice and lose nothing (R254).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from typing import Callable

from grn.archive.db import connect
from grn.archive.dedup import record_of
from grn.archive.facts import EventFacts, game_facts, pack
from grn.archive.transaction import write_transaction
from grn.archive.search import Filters
from grn.check.validate import validate_record
from grn.check.workers import DaskClient, Inline, ProcessPool, Runner

#: Games a worker builds at a time.
CHUNK = 25
#: Chunks a transaction holds per worker: the write lock is held while they are built (a few tenths of a
#: second a batch, compiled), so the serve recorder and ``archive add`` wait little (R254).
CHUNKS_PER_WORKER = 4
#: What the process pool's fork server imports for a build.
PRELOAD = ("grn.archive.turns",)

_MISSING = "SELECT {what} FROM games WHERE id NOT IN (SELECT game_id FROM game_turns)"


@dataclass(slots=True)
class BuildSummary:
    """What a build of per-turn rows did: games built, and those whose stored text could not be read again."""

    built: int = 0
    unreadable: int = 0

    def __repr__(self) -> str:
        return f"<BuildSummary built={self.built} unreadable={self.unreadable}>"


def needs_turns(f: Filters) -> bool:
    """Whether a search with these filters reads the per-turn rows."""
    return bool(f.events or f.actions or f.beside)


def missing(con: sqlite3.Connection) -> int:
    """How many archived games have no per-turn rows yet."""
    return int(con.execute(_MISSING.format(what="count(*)")).fetchone()[0])


def turn_rows(units: list[tuple[int, str, str]]) -> list[tuple[int, bytes, bytes, bool]]:
    """Each stored game (id, format, text) read and validated again, its per-turn facts made as ``archive add
    --per-turn`` makes them: (id, actions, events, read).  A text that cannot be read again (it could be when
    it was added) gets empty rows and ``read`` False: it is not built again on every search (R253).

    A module-level function, so that process pools and Dask send it by name.
    """
    out: list[tuple[int, bytes, bytes, bool]] = []
    empty = pack("[]")
    for game_id, fmt, text in units:
        try:
            record = record_of(text, fmt)
        except ValueError:
            out.append((game_id, empty, empty, False))
            continue
        observer = EventFacts()
        report = validate_record(record, file="<archive>", keep_turns=False, observer=observer)
        facts = game_facts(record, report, observer)
        assert facts.actions is not None and facts.events is not None
        out.append((game_id, facts.actions, facts.events, True))
    return out


def runner_for(jobs: int = 1, scheduler: str | None = None) -> Runner:
    """Where a build runs: this process, ``jobs`` worker processes, or the Dask cluster at ``scheduler``."""
    if scheduler is not None:
        return DaskClient(scheduler)
    if jobs > 1:
        return ProcessPool(jobs, PRELOAD)
    return Inline()


def build(con: sqlite3.Connection, *, runner: Runner | None = None, workers: int = 1,
          progress: Callable[[str], None] | None = None) -> BuildSummary:
    """Build the per-turn rows of every archived game that lacks them; ``con`` must be writable.

    Batch by batch, each in one transaction that holds the write lock while its games are built, so that
    no game is built twice by two builders at once (R254).  ``runner`` (:func:`runner_for`) with ``workers``
    workers; by default this process.
    """
    summary = BuildSummary()
    run = runner or Inline()
    batch = CHUNK * CHUNKS_PER_WORKER * max(1, workers)
    total = missing(con) if progress else 0
    try:
        while True:
            with write_transaction(con):
                units = [(int(i), str(f), str(t)) for i, f, t in con.execute(
                    _MISSING.format(what="id, format, text") + " ORDER BY id LIMIT ?", (batch,))]
                if not units:
                    break
                futures = [run.submit(turn_rows, units[k:k + CHUNK]) for k in range(0, len(units), CHUNK)]
                rows: list[tuple[int, bytes, bytes]] = []
                for fut in futures:
                    for game_id, actions, events, read in run.result(fut):
                        rows.append((game_id, actions, events))
                        summary.unreadable += not read
                con.executemany("INSERT INTO game_turns VALUES (?,?,?)", rows)
            summary.built += len(units)
            if progress:
                progress(f"per-turn rows: {summary.built} of {total} games built")
    finally:
        if runner is None:
            run.close()
    return summary


class TurnsUnbuilt(Exception):
    """Games lack their per-turn rows and the archive cannot be written to build them."""


def ensure(con: sqlite3.Connection, path: str | os.PathLike[str], *, jobs: int = 1, scheduler: str | None = None,
           progress: Callable[[str], None] | None = None) -> BuildSummary:
    """Make sure every game ``con`` (a read-only connection to the archive at ``path``) sees has its per-turn
    rows, building the missing ones through a writable connection of its own; on return ``con`` is inside
    a read transaction in which no game lacks them, so games another process adds meanwhile are not
    searched half-built (R254).  Raises :class:`TurnsUnbuilt` when the archive cannot be written.
    """
    done = BuildSummary()
    while True:
        con.execute("BEGIN")  # a snapshot: what the search will read
        lacking = missing(con)
        if not lacking:
            return done
        con.execute("ROLLBACK")
        if progress:
            progress(f"building the per-turn rows of {lacking} game{'s' if lacking != 1 else ''} (once: "
                     "grn archive index builds them up front)")
        try:
            writer = connect(path)
        except Exception as exc:  # noqa: BLE001 - ArchiveError or sqlite3's: said in one line
            raise TurnsUnbuilt(_unbuilt(lacking, exc)) from None
        run = runner_for(jobs, scheduler)
        try:
            part = build(writer, runner=run, workers=getattr(run, "workers", jobs))
        except sqlite3.OperationalError as exc:
            raise TurnsUnbuilt(_unbuilt(lacking, exc)) from None
        finally:
            run.close()
            writer.close()
        done.built += part.built
        done.unreadable += part.unreadable


def _unbuilt(lacking: int, exc: BaseException) -> str:
    return (f"{lacking} game{'s' if lacking != 1 else ''} lack their per-turn rows and the archive cannot be "
            f"written to build them ({exc}): run grn archive index on it where it can be written")


__all__ = ["TurnsUnbuilt", "ensure", "BuildSummary", "build", "missing", "needs_turns", "runner_for", "turn_rows", "CHUNK", "PRELOAD"]
