"""The archive's schema 2 (issue 26 item 4, R155-R159): per-turn facts packed one row a game, read through
views; an archive of schema 1 still opens, reads, and is upgraded in place when written."""

from __future__ import annotations

import hashlib
import marshal
import json
import shutil
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from grn.archive import db as archive_db
from grn.archive import facts, migrate
from grn.archive.db import ArchiveError, connect
from grn.archive.facts import _canonical, dedup_key, to_plain
from grn.archive.stored import record_of
from grn.archive.search import Filters, game_ids
from grn.archive.stats import compute
from grn.cli.app import app
from grn.notation.jsonform import command_to_json
from grn.notation.read import parse
from grn.core.value import Value

ROOT = Path(__file__).resolve().parent.parent
#: Made by grn's schema-1 code (main before this change) from four example files: Gold Rush, Gold, Carcassonne.
SCHEMA1 = ROOT / "tests" / "data" / "archive-schema1.db"
EXAMPLES = ROOT / "examples"
runner = CliRunner()

SEARCHES = [Filters(events=["type=ScoreEvent points>=5"]), Filters(events=["final=1"]),
            Filters(events=["player=red type~score"]), Filters(actions=["type=place x>=1"]),
            Filters(actions=["tile=33"]), Filters(beside=["47a,64"]), Filters(events=["reason~duel"]), Filters(events=["tiles>=2 type=ScoreEvent"]),
            Filters(tags=["Event~a"]), Filters(players=["Ada"])]


def _old_rows(con: sqlite3.Connection) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    actions = con.execute("SELECT game_id, turn, seq, player, type, tile, x, y, json FROM actions "
                          "ORDER BY game_id, turn, seq").fetchall()
    events = con.execute("SELECT game_id, turn, seq, player, type, points, feature, detail, final, json FROM events "
                         "ORDER BY game_id, turn IS NULL, turn, seq").fetchall()
    return actions, events


def _same_rows(old: list[tuple[Any, ...]], new: list[tuple[Any, ...]]) -> None:
    """Every column as before; the JSON now the whole object: the old JSON (the other fields) is part of it."""
    assert len(old) == len(new) > 0
    for o, n in zip(old, new):
        assert o[:-1] == n[:-1]
        whole = json.loads(n[-1])
        assert json.loads(o[-1] or "{}").items() <= whole.items()


@pytest.fixture()
def schema1(tmp_path: Path) -> Path:
    path = tmp_path / "old.db"
    shutil.copy(SCHEMA1, path)
    return path


def test_a_schema1_archive_reads_as_it_is_and_its_file_is_left_alone(schema1: Path) -> None:
    before = schema1.read_bytes()
    con = connect(schema1, readonly=True)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "1"
    assert all(game_ids(con, f) is not None for f in SEARCHES)
    assert game_ids(con, Filters(events=["type=ScoreEvent points>=5"]))
    con.close()
    assert schema1.read_bytes() == before


def test_a_schema1_archive_is_upgraded_in_place_and_reads_the_same(schema1: Path) -> None:
    ro = connect(schema1, readonly=True)
    old_actions, old_events = _old_rows(ro)
    old_found = [game_ids(ro, f) for f in SEARCHES]
    old_stats = compute(ro)
    ro.close()
    con = connect(schema1)  # writable: upgraded
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(archive_db.SCHEMA_VERSION)
    kinds = dict(con.execute("SELECT name, type FROM sqlite_master WHERE name IN ('actions', 'events', 'game_turns')"))
    assert kinds == {"actions": "view", "events": "view", "game_turns": "table"}
    new_actions, new_events = _old_rows(con)
    _same_rows(old_actions, new_actions)
    _same_rows(old_events, new_events)
    assert [game_ids(con, f) for f in SEARCHES] == old_found
    assert all(old_found)  # every search finds games
    assert compute(con) == old_stats
    con.close()
    # and it takes new games as an archive made today does
    more = runner.invoke(app, ["archive", "add", "-q", str(schema1), str(EXAMPLES / "gold-3p-match.grn")])
    assert more.exit_code == 0, more.output
    count = runner.invoke(app, ["archive", "search", str(schema1), "--count"])
    assert int(count.stdout) > 4


def test_an_upgrade_that_fails_half_way_leaves_schema1_whole(schema1: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(rows: list[tuple[Any, ...]]) -> bytes:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(migrate, "_events_json", broken)
    with pytest.raises(ArchiveError, match="cannot bring the archive to schema 8"):
        connect(schema1)
    con = sqlite3.connect(schema1)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "1"
    assert con.execute("SELECT type FROM sqlite_master WHERE name = 'events'").fetchone()[0] == "table"
    assert con.execute("SELECT 1 FROM sqlite_master WHERE name = 'game_turns'").fetchone() is None
    con.close()


def _plain(v: Any) -> bool:
    return v is None or type(v) in (str, int, bool) or (type(v) is tuple and all(_plain(x) for x in v))


def _key_item(command: Any) -> Any:
    """A command as the dedup key reads it: (class name, fields), or its canonical JSON text (a Gold card)."""
    fields = command._key() if isinstance(command, Value) else \
        tuple(getattr(command, f) for f in command._fields if f != "span")
    return (type(command).__name__, fields) if all(map(_plain, fields)) else _canonical(command_to_json(command))


def test_the_dedup_key_is_the_hash_of_the_head_and_the_main_lines_fields() -> None:
    """Schema 5's key (R286, after R252): the head's canonical JSON, a line feed, marshal's version-2 bytes of
    one flat list: each turn's number and seat key, then its commands as class name and fields; the fields are
    those of the command's JSON form."""
    for path in ("goldrush-2p.grn", "gold-2p.grn", "carcassonne/carcassonne-3p-goldmines.grn"):
        for record in parse((EXAMPLES / path).read_text(encoding="utf-8")):
            seats = record.seats()
            keys = {c: s.key for s in seats for c in s.colours}
            options = sorted((k.strip().lower(), v.strip().lower()) for k, v in record.options().items())
            head = {"game": record.game,
                    "seats": [[list(s.colours), " ".join(s.name.split()).casefold()] for s in seats],
                    "options": options}
            line: list[Any] = []  # one flat list (R286)
            for t in record.turns:
                line += [t.number, keys.get(t.player, t.player).encode("utf-8")]
                for a in t.actions:
                    item = _key_item(a)
                    line += [item[0].encode("utf-8"), item[1]] if isinstance(item, tuple) else [item]
            data = (_canonical(head) + "\n").encode("utf-8") + marshal.dumps(line, 2)
            assert dedup_key(record) == hashlib.sha256(data).hexdigest()
            for t in record.turns:  # every field the key reads is one the command's JSON form holds
                for a in t.actions:
                    if isinstance(_key_item(a), str):
                        continue  # read as its JSON text
                    data = command_to_json(a)
                    fields = [to_plain(v) for v in a._key()]  # a tuple is a list
                    assert all(v in data.values() or v in (0, None, "") for v in fields), (a, data)


def test_an_upgrade_to_the_current_schema_makes_every_dedup_key_anew(schema2: Path) -> None:
    con = connect(schema2)  # upgraded
    for game_id, fmt, text, key in con.execute("SELECT id, format, text, dedup FROM games").fetchall():
        assert key == dedup_key(record_of(text, fmt)), game_id
    con.close()
    # a copy added after the upgrade is found the same game as the copy archived before it
    copy = schema2.parent / "again.grn"
    copy.write_text((EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert runner.invoke(app, ["archive", "add", "-q", str(schema2), str(copy)]).exit_code == 0
    found = runner.invoke(app, ["archive", "dedup", "--format", "json", str(schema2)])
    assert json.loads(found.stdout)["groups"] == [[1, 5]]


def test_a_new_archive_packs_turns_and_its_views_are_the_records_commands(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    path = EXAMPLES / "goldrush-2p.grn"
    assert runner.invoke(app, ["archive", "add", "-q", "--per-turn", str(db), str(path)]).exit_code == 0
    con = connect(db, readonly=True)
    assert con.execute("PRAGMA page_size").fetchone()[0] == archive_db.PAGE_SIZE
    (packed,) = con.execute("SELECT actions FROM game_turns").fetchone()
    assert isinstance(packed, bytes)
    record = parse(path.read_text(encoding="utf-8"))[0]
    want = [(t.number, s, command_to_json(a)) for t in record.turns for s, a in enumerate(t.actions)]
    got = [(t, s, json.loads(j)) for t, s, j in con.execute("SELECT turn, seq, json FROM actions ORDER BY turn, seq")]
    assert got == want
    # the columns are copies of the command's fields
    for kind, tile, x, y, j in con.execute("SELECT type, tile, x, y, json FROM actions"):
        whole = json.loads(j)
        assert (kind, tile, x, y) == (whole.get("type"), whole.get("tile"), whole.get("x"), whole.get("y"))
    con.close()
    # --sql reads the views too (grn's connection has the function that unpacks them)
    out = runner.invoke(app, ["archive", "search", str(db), "--sql",
                              "SELECT count(*) FROM events WHERE type = 'ScoreEvent' AND final = 1"])
    assert out.exit_code == 0 and int(out.stdout.split()[-1]) > 0


def test_without_grn_the_views_say_what_they_need(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    assert runner.invoke(app, ["archive", "add", "-q", "--per-turn", str(db), str(EXAMPLES / "gold-2p.grn")]).exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 1  # the tables read anywhere
    with pytest.raises(sqlite3.OperationalError, match="grn_unpack"):
        con.execute("SELECT count(*) FROM events").fetchone()
    archive_db.register(con)
    assert con.execute("SELECT count(*) FROM events").fetchone()[0] > 0
    con.close()


# ---------------------------------------------------------------------------
# Schema 3 (round six, R216): Zstandard packing; a schema-2 archive (zlib) reads and upgrades
# ---------------------------------------------------------------------------

#: Made by grn's schema-2 code (main before round six) from the same four example files as SCHEMA1.
SCHEMA2 = ROOT / "tests" / "data" / "archive-schema2.db"


@pytest.fixture()
def schema2(tmp_path: Path) -> Path:
    path = tmp_path / "two.db"
    shutil.copy(SCHEMA2, path)
    return path


def test_a_schema2_archive_reads_as_it_is_and_its_file_is_left_alone(schema2: Path) -> None:
    before = schema2.read_bytes()
    con = connect(schema2, readonly=True)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "2"
    assert all(game_ids(con, f) for f in SEARCHES if not f.players)
    assert {bytes(b[:1]) for (b,) in con.execute("SELECT actions FROM game_turns")} == {b"\x78"}  # zlib
    con.close()
    assert schema2.read_bytes() == before


def test_a_schema2_archive_is_upgraded_and_takes_zstandard_rows_beside_its_zlib_rows(schema2: Path) -> None:
    ro = connect(schema2, readonly=True)
    old_rows = _old_rows(ro)
    old_found = [game_ids(ro, f) for f in SEARCHES]
    old_stats = compute(ro)
    ro.close()
    con = connect(schema2)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "8" == str(
        archive_db.SCHEMA_VERSION)
    assert _old_rows(con) == old_rows  # nothing rewritten: the zlib rows read as before
    assert [game_ids(con, f) for f in SEARCHES] == old_found and compute(con) == old_stats
    con.close()
    # the same games added again under other names: packed with Zstandard, and read the same
    copy = schema2.parent / "again.grn"
    copy.write_text((EXAMPLES / "goldrush-2p.grn").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert runner.invoke(app, ["archive", "add", "-q", "--per-turn", str(schema2), str(copy)]).exit_code == 0
    con = connect(schema2, readonly=True)
    heads = dict(con.execute("SELECT game_id, substr(actions, 1, 4) FROM game_turns"))
    assert heads[5] == facts.ZSTD_MAGIC and {heads[i][:1] for i in range(1, 5)} == {b"\x78"}
    first, again = (con.execute("SELECT turn, seq, player, type, tile, x, y, json FROM actions WHERE game_id = ? "
                                "ORDER BY turn, seq", (i,)).fetchall() for i in (1, 5))
    assert first == again and first
    dedup = [d for (d,) in con.execute("SELECT dedup FROM games WHERE id IN (1, 5)")]
    assert dedup[0] == dedup[1]  # the dedup key is unchanged: old and new copies of a game still match
    con.close()


def test_an_archive_newer_than_grn_is_refused(schema2: Path) -> None:
    con = sqlite3.connect(schema2)
    newer = archive_db.SCHEMA_VERSION + 1
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(newer),))
    con.commit()
    con.close()
    with pytest.raises(ArchiveError, match=f"archive schema {newer} is newer than this grn"):
        connect(schema2, readonly=True)


def test_packed_texts_are_zstandard_and_both_packings_unpack() -> None:
    text = json.dumps([[1, "red", [{"type": "place", "tile": "33", "x": 0, "y": 1}]]] * 50)
    packed = facts.pack(text)
    assert packed[:4] == facts.ZSTD_MAGIC and len(packed) < len(text) / 5
    assert facts.unpack(packed) == text
    assert facts.unpack(zlib.compress(text.encode("utf-8"), 1)) == text
    assert facts.unpack(None) is None
