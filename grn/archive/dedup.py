"""Finding and merging the same game archived more than once.

Two games are the same when their dedup keys are equal
(:func:`grn.archive.facts.dedup_key`): the game itself, not its text, so a
copy with other comments, other tags, other formatting or another tag order
is found.

Merging keeps the game archived first and gives it the union of what the
copies say:

* tags: every tag of every copy; where copies disagree on a tag's value the
  first-archived copy's value stays and each other value is kept in a comment
  before the first turn (``{merged tag Event: "Club night"}``), so nothing is lost;
* notes before the first turn, and each main-line turn's comments, glyphs,
  diagram markup and variations: the union, by value (a comment written in
  both copies is kept once), in the order first seen;
* score checkpoints: the kept copy's (the commands are the same, so a correct
  checkpoint is the same in every copy).

The merged game is written as canonical GRN, validated and indexed again; the
original texts of the copies merged away stay in the ``merged`` table.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from grn.archive.facts import game_facts
from grn.archive.stored import record_of
from grn.archive.transaction import write_transaction
from grn.check.batch import GameResult
from grn.core.record import Checkpoint, Comment, Record
from grn.check.validate import validate_record

MERGED_TAG = "merged tag"


def groups(con: sqlite3.Connection, ids: list[int] | None = None) -> list[list[int]]:
    """Groups of game ids (oldest first) that are the same game; only groups of two or more."""
    sql = "SELECT group_concat(id) FROM (SELECT id, dedup FROM games ORDER BY id) GROUP BY dedup HAVING count(*) > 1"
    out = [sorted(int(i) for i in row[0].split(",")) for row in con.execute(sql)]
    if ids is not None:
        wanted = set(ids)
        out = [g for g in out if wanted.intersection(g)]
    return sorted(out)


def _union(first: tuple[Any, ...], more: tuple[Any, ...], skip_checkpoints: bool) -> tuple[Any, ...]:
    out = list(first)
    has_checkpoint = any(isinstance(e, Checkpoint) for e in first)
    for e in more:
        if skip_checkpoints and isinstance(e, Checkpoint) and has_checkpoint:
            continue
        if e not in out:
            out.append(e)
    return tuple(out)


def merge_records(kept: Record, others: list[Record]) -> Record:
    """``kept`` with the union of the tags, notes, comments and variations of ``others`` (the same game)."""
    tags = list(kept.tags)
    values = {name: value for name, value in tags}
    notes: list[Any] = []
    intro = kept.intro
    turns = list(kept.turns)
    for other in others:
        for name, value in other.tags:
            if name not in values:
                tags.append((name, value))
                values[name] = value
            elif values[name] != value:
                note = Comment(f"{MERGED_TAG} {name}: {json.dumps(value, ensure_ascii=False)}")
                if note not in notes and note not in intro:
                    notes.append(note)
        intro = _union(intro, other.intro, False)
        for i, (ours, theirs) in enumerate(zip(turns, other.turns)):
            if theirs.extras:
                turns[i] = ours.replace(extras=_union(ours.extras, theirs.extras, True))
    intro = _union(intro, tuple(notes), False)
    return kept.replace(tags=tuple(tags), intro=intro, turns=tuple(turns))


def merge_group(con: sqlite3.Connection, ids: list[int]) -> int:
    """Merge the games ``ids`` into the first; return the kept id.  One transaction."""
    from grn.archive.db import delete_game, insert_game
    from grn.notation.writer import write_record

    rows = {r[0]: r for r in con.execute(
        f"SELECT id, file_id, file_index, format, text FROM games WHERE id IN ({','.join('?' * len(ids))})", ids)}
    kept_id = min(rows)
    records = {i: record_of(rows[i][4], rows[i][3]) for i in rows}
    merged = merge_records(records[kept_id], [records[i] for i in sorted(rows) if i != kept_id])
    text = write_record(merged)
    # the merged text is what the archive holds now: read it back, so that spans point into it
    record = record_of(text, "grn")
    report = validate_record(record, file="<archive>", index=0, keep_turns=True)
    result = GameResult(rows[kept_id][2], report, None, text, "grn", game_facts(record, report))
    with write_transaction(con):
        for i in sorted(rows):
            _, file_id, file_index, fmt, old = rows[i]
            con.execute("INSERT INTO merged (into_id, file_id, file_index, format, text) VALUES (?,?,?,?,?)",
                        (kept_id, file_id, file_index, fmt, old))
            delete_game(con, i)
        con.execute("UPDATE merged SET into_id = ? WHERE into_id IN (%s)" % ",".join("?" * len(ids)),
                    [kept_id, *ids])
        insert_game(con, kept_id, rows[kept_id][1], result)
    return kept_id
