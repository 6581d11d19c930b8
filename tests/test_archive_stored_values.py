"""Archive indexing, round ten (issue 26 item 4, R291-R293): the dedup key unchanged (R291), the points
summed with no call for an event that scores nothing (R292), and the JSON columns of ``games`` made
without the encoder's Python code (R293): every stored value the same as before."""

from __future__ import annotations

import glob
import hashlib
import json
import marshal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grn.archive import facts
from grn.archive.db import add_files, connect, insert_rows
from grn.archive.facts import EventFacts, PointSums, dedup_key, game_facts, game_summary
from grn.archive.indexer import indexing_validator
from grn.archive.stats import compute
from grn.notation.jsonform import command_to_json
from grn.notation.read import parse
from grn.check.validate import validate_record
from grn.core.value import Value

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(glob.glob(str(ROOT / "examples" / "**" / "*.grn"), recursive=True))

def _records() -> list[Any]:
    out = []
    for path in EXAMPLES:
        try:
            out += parse(Path(path).read_text(encoding="utf-8"))
        except ValueError:
            continue
    return out


def _reference_key(record: Any) -> str:
    """Schema 5's key (R286) as round nine made it: ``marshal.dumps`` of the whole flat list at once."""
    seats = record.seats()
    keys = {c: s.key for s in seats for c in s.colours}
    options = sorted((k.strip().lower(), v.strip().lower()) for k, v in record.options().items())
    head = {"game": record.game, "seats": [[list(s.colours), " ".join(s.name.split()).casefold()] for s in seats],
            "options": options}
    line: list[Any] = []
    for t in record.turns:
        line += [t.number, keys.get(t.player, t.player).encode("utf-8")]
        for a in t.actions:
            values = a._key() if isinstance(a, Value) else tuple(getattr(a, f) for f in a._fields if f != "span")
            if facts._plain_values(values):
                line += [type(a).__name__.encode("utf-8"), values]
            else:
                line.append(facts._canonical(command_to_json(a)))
    data = (facts._canonical(head) + "\n").encode("utf-8") + marshal.dumps(line, 2)
    return hashlib.sha256(data).hexdigest()


# R291: the key is unchanged
# ---------------------------------------------------------------------------

def test_every_examples_key_is_round_nines() -> None:
    """The key is unchanged (no schema change, no re-keying, R291): every example game, through ``add``'s
    walk and ``add --per-turn``'s."""
    records = _records()
    assert len(records) > 20
    for record in records:
        assert dedup_key(record) == _reference_key(record), record.tags
    for record in records[:10]:
        report = validate_record(record, keep_turns=True)
        assert game_facts(record, report).dedup == _reference_key(record)


# R292: the points, summed with no call for an event that scores nothing
# ---------------------------------------------------------------------------

def test_the_points_are_the_events_points() -> None:
    """PointSums (``add``) and EventFacts (``add --per-turn``) sum the same points from the same events."""
    for record in _records():
        sums, events = PointSums(), EventFacts()
        validate_record(record, observer=sums)
        validate_record(record, observer=events)
        assert sums.sums == events.sums and sums.ended == events.ended


# R293: the JSON columns of games
# ---------------------------------------------------------------------------

TEXT = st.text(st.characters(blacklist_categories=()), max_size=8)  # surrogates and controls too


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(TEXT, st.integers()), max_size=5), st.booleans())
def test_a_list_of_names_is_json_dumps_text(items: list[Any], ascii: bool) -> None:
    assert facts._json_strings(items, ascii) == json.dumps(items, ensure_ascii=ascii)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.one_of(TEXT, st.integers()), st.one_of(st.integers(), st.booleans()), max_size=5))
def test_final_scores_are_json_dumps_text(scores: dict[Any, Any]) -> None:
    assert facts._json_scores(scores) == json.dumps(scores)


def test_an_archive_holds_what_it_held(tmp_path: Path) -> None:
    """The stored columns read back as ``json.dumps`` wrote them, and ``stats`` reads the same points."""
    paths = [str(ROOT / "examples" / "goldrush-4p-farmers.grn"), str(ROOT / "examples" / "gold-2p.grn")]
    db = tmp_path / "a.db"
    con = connect(db, create=True)
    add_files(con, paths, indexing_validator())
    rows = con.execute("SELECT players, winners, final_scores, dedup, text, format FROM games").fetchall()
    assert rows
    for players, winners, final_scores, dedup, text, fmt in rows:
        assert json.dumps(json.loads(players), ensure_ascii=False) == players
        assert json.dumps(json.loads(winners)) == winners
        assert final_scores is None or json.dumps(json.loads(final_scores)) == final_scores
        record = parse(text)[0]
        assert dedup == _reference_key(record)
    stats = compute(con)
    con.close()
    raw = sqlite3.connect(db)
    want = raw.execute("SELECT lower(name), feature, sum(points) FROM points GROUP BY 1, 2").fetchall()
    raw.close()
    got = [(p.name.lower(), f, n) for p in stats.players for f, n in p.points.items()]
    assert sorted(got) == sorted(want) and want


def test_a_summary_and_a_full_facts_agree() -> None:
    for record in _records()[:10]:
        report = validate_record(record, observer=(sums := PointSums()))
        a = game_summary(record, report, sums)
        full = game_facts(record, validate_record(record, keep_turns=True))
        assert (a.dedup, a.points, a.seats, a.first_player) == (full.dedup, full.points, full.seats,
                                                              full.first_player)


# R294: many rows a statement
# ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(0, 300), st.sampled_from([999, 40, 7, 6]))
def test_rows_written_many_at_a_time_are_the_rows_one_at_a_time(width: int, rows: int, limit: int) -> None:
    """The same rows with the same rowids, whatever their number and however few parameters SQLite allows
    a statement (down to a row a statement)."""
    values = [(r * 31 + c) if c % 2 else f"v{r}.{c}" for r in range(rows) for c in range(width)]
    cols = ", ".join(f"c{i}" for i in range(width))
    out = []
    for many in (False, True):
        con = sqlite3.connect(":memory:")
        con.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, max(limit, width))
        con.execute(f"CREATE TABLE t ({cols})")
        if many:
            insert_rows(con, "t", width, values)
        else:
            con.executemany(f"INSERT INTO t VALUES ({','.join('?' * width)})",
                            [values[i:i + width] for i in range(0, len(values), width)])
        out.append(con.execute("SELECT rowid, * FROM t ORDER BY rowid").fetchall())
        con.close()
    assert out[0] == out[1] and len(out[0]) == rows


def test_values_that_are_not_whole_rows_are_refused() -> None:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (a, b)")
    with pytest.raises(ValueError, match="3 values are not rows of 2"):
        insert_rows(con, "t", 2, [1, 2, 3])
