"""How ``archive add`` writes (issue 26 item 4, round twelve): multi-row inserts without a statement
journal (R315), the dedup key's head written without a dict (R317)."""

from __future__ import annotations

import glob
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grn.archive.db import connect, insert_games
from grn.archive.facts import _canonical, _dedup_head, _head_text, _seats, _written_head, dedup_key
from grn.archive.indexer import indexing_validator
from grn.check.batch import GameResult
from grn.notation.read import read
from grn.core.record import Record

ROOT = Path(__file__).resolve().parent.parent


def test_a_failed_insert_ends_the_transaction_and_leaves_nothing(tmp_path: Path) -> None:
    # OR ROLLBACK (R315): a constraint that fails inside a multi-row insert rolls the whole transaction back
    games = ROOT / "examples" / "goldrush-2p.grn"
    con = connect(tmp_path / "a.db", create=True)
    with indexing_validator() as v:
        results = [r for r in v.run(str(games)) if isinstance(r, GameResult)]
    assert results
    con.execute("BEGIN IMMEDIATE")
    con.execute("INSERT INTO files (id, sha256, path, size, added) VALUES (1, 'x', 'p', 0, 'now')")
    insert_games(con, [(1, 1, results[0])])
    with pytest.raises(sqlite3.IntegrityError):
        insert_games(con, [(1, 1, results[0])])  # the same game id again
    assert not con.in_transaction
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM files").fetchone()[0] == 0
    con.close()


# -- the dedup key's head written directly (R317) -----------------------------------------------------------

names = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)
words = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="(),+="), min_size=1,
                max_size=6)


@settings(max_examples=300, deadline=None)
@given(game=names, players=st.lists(st.tuples(words, st.lists(st.sampled_from(["red", "blue", "green", "yellow",
                                                                                  "black"]), min_size=1, max_size=2)),
                                    max_size=4),
       options=st.one_of(st.none(), st.text(max_size=20)))
def test_the_head_is_the_canonical_json_of_its_dict(game: str, players: list[tuple[str, list[str]]],
                                                     options: str | None) -> None:
    tags = [("Game", game), ("Players", ", ".join(f"{n} ({'+'.join(c)})" for n, c in players))]
    if options is not None:
        tags.append(("Options", options))
    record = Record(tags=tuple(tags))
    seats = _seats(record)
    assert _written_head(record, seats) == _canonical(_dedup_head(record, seats))
    # remembered by its tags (R324): the same text the first time and again
    assert _head_text(record, seats) == _head_text(record, seats) == _canonical(_dedup_head(record, seats))


def test_the_head_of_every_shipped_game_is_its_canonical_json() -> None:
    for f in sorted(glob.glob(str(ROOT / "examples" / "**" / "*.grn"), recursive=True)):
        for record in read(f):
            seats = _seats(record)
            assert _head_text(record, seats) == _canonical(_dedup_head(record, seats)), f


def test_keys_of_shipped_games_are_unchanged() -> None:
    # what archives hold (R286): a key that moved would part a game from its copies
    record = next(iter(read(str(ROOT / "examples" / "gold-2p.grn"))))
    assert dedup_key(record) == "8c60c33b2b7143a4fb9bb7b3f401420ca8c2711a29faf944f885e9b5b488f055"
