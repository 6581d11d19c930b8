"""Duplicates: the same game entered twice is found by the game itself, and merging loses nothing.

1,000 distinct games (every prefix of self-played games: each is a different
game) must give 1,000 keys; copies of them reformatted, re-tagged and
re-commented must each give their original's key.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from grn.archive.facts import dedup_key
from grn.cli.app import app
from grn.notation.read import parse
from grn.core.record import Record
from grn.notation.writer import write_record

runner = CliRunner()


def _selfplay(*args: str) -> str:
    result = runner.invoke(app, ["selfplay", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _split(text: str) -> tuple[list[str], list[str]]:
    head, _, moves = text.partition("\n\n")
    return head.splitlines(), moves.splitlines()


def reformatted(text: str) -> str:
    """Other spacing, other line breaks, CRLF: the same words."""
    tags, moves = _split(text)
    out = [re.sub(r'\[(\w+) "', r'[ \1   "', t) for t in tags]
    joined = []
    for i, m in enumerate(moves):
        joined.append(m.replace(" ", "   ") + ("  " if i % 3 != 2 else "\n\n"))
    return "\r\n".join(out) + "\r\n\r\n" + "".join(joined).replace("\n", "\r\n") + "\r\n"


def retagged(text: str, rng: random.Random) -> str:
    """Other Event, a Date and a Site, tags in another order."""
    tags, moves = _split(text)
    tags = [t for t in tags if not t.startswith("[Event ")]
    tags += ['[Event "Entered again"]', f'[Date "2026.0{rng.randint(1, 9)}.1{rng.randint(0, 9)}"]', '[Site "Home"]']
    rng.shuffle(tags)
    return "\n".join(tags) + "\n\n" + "\n".join(moves) + "\n"


def recommented(text: str, rng: random.Random) -> str:
    """Comments and glyphs added, checkpoints taken out."""
    tags, moves = _split(text)
    out = []
    for m in moves:
        m = re.sub(r" score( [a-z]+=-?\d+)+", "", m)
        if rng.random() < 0.3:
            m += " {" + rng.choice(["a fine move", "why?", "the turning point"]) + "}"
        if rng.random() < 0.1:
            m += " !?"
        out.append(m)
    return "{Entered from a score sheet.}\n".join(["\n".join(tags) + "\n\n", "\n".join(out) + "\n"])


@pytest.fixture(scope="module")
def originals() -> list[Record]:
    text = _selfplay("--players", "3", "--seed", "500", "--games", "14") + "\n" + \
        _selfplay("--game", "gold", "--players", "2", "--seed", "600", "--games", "4")
    return parse(text)


def test_no_false_positives_on_1000_distinct_games(originals: list[Record]) -> None:
    distinct = [r.replace(turns=r.turns[:k]) for r in originals for k in range(1, len(r.turns) + 1)]
    assert len(distinct) >= 1000
    distinct = distinct[:1000]
    keys = {dedup_key(r) for r in distinct}
    assert len(keys) == 1000


def test_every_injected_duplicate_is_found(originals: list[Record]) -> None:
    rng = random.Random(13)
    for record in originals:
        key = dedup_key(record)
        text = write_record(record)
        for variant in (reformatted(text), retagged(text, rng), recommented(text, rng),
                        reformatted(recommented(retagged(text, rng), rng))):
            (copy,) = parse(variant)
            assert copy.ok, [d.one_line() for d in copy.diagnostics]
            assert variant != text  # the text is another ...
            assert dedup_key(copy) == key  # ... the game is the same


def test_other_players_or_options_are_another_game(originals: list[Record]) -> None:
    record = originals[0]
    assert dedup_key(record.with_tags(Players="Ada (red), Bo (yellow), Zed (green)")) != dedup_key(record)
    assert dedup_key(record.with_tags(Options="farmers=off")) != dedup_key(record)
    assert dedup_key(record.with_tags(Event="Other", Date="2020.01.01")) == dedup_key(record)


def _grn(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_dedup_command_finds_and_merges(originals: list[Record], tmp_path: Path) -> None:
    rng = random.Random(5)
    games = originals[:6]
    (tmp_path / "games.grn").write_text("\n".join(write_record(r) for r in games), encoding="utf-8")
    texts = [write_record(r) for r in games[:3]]
    # copy 1: a comment and a variation (the main line's own move, so still legal) at turn 4
    tags, moves = _split(texts[0])
    moves[3] = moves[3] + " {seen from the other side} (" + re.sub(r" score( [a-z]+=-?\d+)+", "", moves[3]) + ")"
    dup1 = "\n".join(tags) + "\n\n" + "\n".join(moves) + "\n"
    dup2 = retagged(texts[1], rng)
    dup3 = reformatted(texts[2])
    (tmp_path / "again.grn").write_text(dup1 + "\n" + dup2 + "\n" + dup3, encoding="utf-8")
    db = str(tmp_path / "a.db")
    assert _grn("archive", "add", db, str(tmp_path / "games.grn"), str(tmp_path / "again.grn")).exit_code == 0
    found = _grn("archive", "dedup", db)
    assert found.exit_code == 0
    assert found.stdout.splitlines() == ["same game: 1, 7", "same game: 2, 8", "same game: 3, 9",
                                         "3 games archived more than once, 3 extra copies"]
    listed = _grn("archive", "search", db, "--duplicates", "--count")
    assert listed.stdout.strip() == "6"
    merged = _grn("archive", "dedup", db, "--merge")
    assert merged.exit_code == 0 and "merged" in merged.stdout
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 6
    assert con.execute("SELECT count(*) FROM merged").fetchone()[0] == 6  # every original text is kept
    assert con.execute("SELECT count(*) FROM games WHERE valid = 0").fetchone()[0] == 0
    first = con.execute("SELECT text FROM games WHERE id = 1").fetchone()[0]
    assert "{seen from the other side}" in first and first.count("(4. ") == 1
    second = con.execute("SELECT text FROM games WHERE id = 2").fetchone()[0]
    (rec2,) = parse(second)
    assert rec2.tag("Event") == "grn selfplay" and rec2.tag("Site") == "Home" and rec2.tag("Date")
    assert '{merged tag Event: "Entered again"}' in second
    assert dedup_key(rec2) == dedup_key(games[1])
    again = _grn("archive", "dedup", db)
    assert again.stdout.strip() == "0 games archived more than once, 0 extra copies"
    # the merged games are searchable like the others
    assert _grn("archive", "search", db, "--tag", "Site=home", "--count").stdout.strip() == "1"


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from grn.archive.dedup import merge_records  # noqa: E402
from grn.core.record import Comment  # noqa: E402

NOTES = st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["a", "b", "why?", "good", "a"])), max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(copies=st.lists(NOTES, min_size=1, max_size=3))
def test_merge_keeps_the_union_of_comments(originals: list[Record], copies: list[list[tuple[int, str]]]) -> None:
    base = originals[1]

    def commented(notes: list[tuple[int, str]]) -> Record:
        turns = list(base.turns)
        for i, text in notes:
            turns[i] = turns[i].replace(extras=turns[i].extras + (Comment(text),))
        return base.replace(turns=tuple(turns))

    records = [commented(n) for n in copies]
    merged = merge_records(records[0], records[1:])
    want = {(i, text) for notes in copies for i, text in notes}
    got = {(i, c.text) for i, t in enumerate(merged.turns) for c in t.comments}
    assert got == want  # every comment of every copy, each once
    (again,) = parse(write_record(merged))
    assert again == merged and dedup_key(again) == dedup_key(base)
