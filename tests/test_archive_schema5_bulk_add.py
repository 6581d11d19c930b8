"""Archive indexing, round nine (issue 26 item 4, R285-R289): schema 5's flat dedup key, points only from an
event's ``points`` field, a first bulk add's indexes built once before its commit, and the upgrade of a
schema-4 archive."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grn.archive import db as archive_db
from grn.archive import facts
from grn.archive.db import add_files, connect
from grn.archive.facts import EventFacts, PointSums, dedup_key
from grn.archive.indexer import indexing_validator
from grn.archive.search import Filters, game_ids
from grn.archive.stats import compute
from grn.archive.stored import record_of
from grn.cli.app import app
from grn.notation.read import parse

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: Made by main's schema-4 code (round eight) from four example files: the first three with ``add``, the
#: fourth (goldrush-4p-farmers.grn) with ``add --per-turn``.
SCHEMA4 = ROOT / "tests" / "data" / "archive-schema4.db"
#: The indexes a new archive has on the tables ``add`` writes (R287: a first bulk add ends with all of them).
#: Schema 6 (R300) clusters tags, seats and points on their game: no ``*_game`` index beside them.
INDEXES = {"games_game_date", "games_date", "games_dedup", "tags_name_value", "seats_name", "points_name"}


def _indexes(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    finally:
        con.close()


@pytest.fixture(scope="module")
def selfplay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = runner.invoke(app, ["selfplay", "--players", "3", "--seed", "91", "--games", "5"])
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("round9") / "five.grn"
    path.write_text(result.stdout, encoding="utf-8")
    return path


# R285: an event's points are its points field's
# ---------------------------------------------------------------------------

class Bonus:
    """An event of a plug-in whose own JSON writes points it has no field for."""

    _fields = ("player", "count")

    def __init__(self, player: str, count: int) -> None:
        self.player = player
        self.count = count

    def to_json(self) -> dict[str, Any]:
        return {"type": "Bonus", "player": self.player, "count": self.count, "points": 10 * self.count}


class Scored:
    """An event with ``player`` and ``points`` fields: counted from them."""

    _fields = ("player", "points", "feature")

    def __init__(self, player: str, points: int, feature: str) -> None:
        self.player = player
        self.points = points
        self.feature = feature

    def to_json(self) -> dict[str, Any]:
        return {"type": "Scored", "player": self.player, "points": self.points, "feature": self.feature}


def test_an_event_without_a_points_field_counts_no_points_in_add_and_add_per_turn_alike() -> None:
    turns = [[Scored("red", 4, "road"), Bonus("red", 2)], [Bonus("blue", 1), Scored("blue", 3, "road")]]
    final = [Scored("red", 1, "road"), Bonus("blue", 5)]
    summed, kept = PointSums(), EventFacts()
    for observer in (summed, kept):
        for n, events in enumerate(turns, 1):
            observer.turn(n, events)
        observer.final(final)
    assert summed.sums == kept.sums == {("red", "road"): 5, ("blue", "road"): 3}
    # the per-turn rows still hold the event as its own JSON says it, points and all
    assert '"points":20' in "".join(kept.groups)


# R286: schema 5's key, one flat list
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def goldrush_text() -> str:
    return (EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8")


def _moves(text: str) -> tuple[str, list[str]]:
    head, _, body = text.partition("\n\n")
    return head, body.splitlines()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_spacing_and_comments_keep_the_key_and_a_command_moved_to_another_turn_changes_it(
        goldrush_text: str, data: st.DataObject) -> None:
    original = parse(goldrush_text)[0]
    key = dedup_key(original)
    head, lines = _moves(goldrush_text)
    # the same game, other spacing and other comments
    spaced = []
    for line in lines:
        line = line.replace(" ", " " * data.draw(st.integers(1, 4), label="spaces"))
        if line[:1].isdigit() and data.draw(st.booleans(), label="comment"):
            line += " {" + data.draw(st.sampled_from(["a note", "why?", "the turning point"]), label="text") + "}"
        spaced.append(line)
    again = parse(head + "\n\n" + "\n".join(spaced) + "\n")[0]
    assert not [d for d in again.diagnostics if d.severity == "error"]
    assert dedup_key(again) == key
    # a turn's last command moved to the start of the next turn: the same commands in the same order, another game
    def commands(line: str) -> list[str]:
        out = []
        for word in line.split()[2:]:
            if word.startswith(("score", "{", "!", "?", "<", "(")):
                break
            out.append(word)
        return out

    numbered = [ln for ln in lines if ln[:1].isdigit()]
    movable = [i for i in range(len(numbered) - 1) if len(commands(numbered[i])) >= 2]
    i = data.draw(st.sampled_from(movable), label="turn")
    moved = commands(numbered[i])[-1]
    words, nxt = numbered[i].split(), numbered[i + 1].split()
    words.remove(moved)
    nxt.insert(2, moved)  # before the next turn's tile: the commands keep their order
    changed = [" ".join(words) if ln == numbered[i] else " ".join(nxt) if ln == numbered[i + 1] else ln
               for ln in lines]
    other = parse(head + "\n\n" + "\n".join(changed) + "\n")[0]
    assert [a for t in other.turns for a in t.actions] == [a for t in original.turns for a in t.actions]
    assert dedup_key(other) != key


# R287: a first bulk add builds its indexes once, before its commit
# ---------------------------------------------------------------------------

def test_a_first_bulk_add_drops_and_makes_its_indexes_in_its_transaction_and_a_reader_always_sees_them(
        selfplay: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "a.db"
    con = connect(db, create=True)
    statements: list[str] = []
    con.set_trace_callback(statements.append)
    seen: list[set[str]] = []
    real = archive_db.insert_games

    def watched(c: sqlite3.Connection, games: list[Any]) -> None:
        real(c, games)
        seen.append(_indexes(db))  # another connection, while the writer is inside its transaction

    monkeypatch.setattr(archive_db, "insert_games", watched)
    add_files(con, [str(selfplay)], indexing_validator(), batch=2)  # commits after games 2 and 4
    assert seen and all(s == INDEXES for s in seen)
    assert _indexes(db) == INDEXES
    drops = [s for s in statements if s.startswith("DROP INDEX")]
    # the first batch only: after its commit the archive holds games; not points_name, whose table add no longer
    # writes (R311: the first expansion drops and makes it)
    assert sorted(drops) == sorted(f'DROP INDEX "{n}"' for n in INDEXES - {"points_name"})
    # a second file into the archive that holds games: its rows go in with the indexes kept
    statements.clear()
    other = tmp_path / "b.grn"
    other.write_text(selfplay.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    add_files(con, [str(other)], indexing_validator())
    assert not [s for s in statements if s.startswith(("DROP INDEX", "CREATE INDEX"))]
    plan = " ".join(str(r) for r in con.execute(
        "EXPLAIN QUERY PLAN SELECT game_id FROM tags WHERE name = ? AND value = ? COLLATE NOCASE", ("Event", "x")))
    assert "tags_name_value" in plan
    con.close()
    assert len(game_ids(connect(db, readonly=True), Filters(duplicates=True))) == 10


def test_a_first_add_with_indexes_made_after_finds_and_counts_what_one_with_indexes_kept_does(
        selfplay: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = tmp_path / "fast.db"
    assert runner.invoke(app, ["archive", "add", "-q", str(fast), str(selfplay)]).exit_code == 0
    kept = tmp_path / "kept.db"
    monkeypatch.setattr(archive_db, "drop_indexes", lambda con: [])
    assert runner.invoke(app, ["archive", "add", "-q", str(kept), str(selfplay)]).exit_code == 0
    a, b = connect(fast, readonly=True), connect(kept, readonly=True)
    for table, order in (("games", "id"), ("tags", "game_id, pos"), ("seats", "game_id, seat"),
                         ("points", "game_id, player, feature")):
        assert a.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall() == \
            b.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
    assert compute(a) == compute(b)
    for f in (Filters(tags=["Event~self"]), Filters(players=["Ada"]), Filters(winners=["red"])):
        assert game_ids(a, f) == game_ids(b, f)


# R286, R289: the upgrade from schema 4
# ---------------------------------------------------------------------------

def test_a_schema4_archive_reads_as_it_is_and_upgrades_with_every_key_made_anew(tmp_path: Path) -> None:
    db = tmp_path / "four.db"
    shutil.copy(SCHEMA4, db)
    before = db.read_bytes()
    ro = connect(db, readonly=True)
    assert ro.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "4"
    old_keys = dict(ro.execute("SELECT id, dedup FROM games"))
    old_stats = compute(ro)
    old_turns = ro.execute("SELECT * FROM game_turns").fetchall()
    ro.close()
    assert db.read_bytes() == before
    con = connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8" == str(
        archive_db.SCHEMA_VERSION)
    keys = dict(con.execute("SELECT id, dedup FROM games"))
    for game_id, fmt, text in con.execute("SELECT id, format, text FROM games"):
        assert keys[game_id] == dedup_key(record_of(text, fmt)) != old_keys[game_id]
    assert compute(con) == old_stats
    assert con.execute("SELECT * FROM game_turns").fetchall() == old_turns and old_turns  # kept as they were
    con.close()
    # the same game added again under another name is found with its schema-4 twin
    copy = tmp_path / "again.grn"
    copy.write_text((EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert runner.invoke(app, ["archive", "add", "-q", str(db), str(copy)]).exit_code == 0
    found = runner.invoke(app, ["archive", "search", str(db), "--duplicates", "--count"])
    assert found.exit_code == 0 and found.stdout.strip() == "2"
    assert facts.MARSHAL_VERSION == 2
