"""A turn recorded at the end of a game's main line is stored as one turn (R458-R461): the same text and the same
archive rows as writing the whole game again, and the same refusals."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")

from grn import games  # noqa: E402
from grn.archive.db import add_files  # noqa: E402
from grn.archive.facts import unpack  # noqa: E402
from grn.archive.stored import record_of  # noqa: E402
from grn.core.record import Comment, Record, Variation  # noqa: E402
from grn.notation.writer import write_record  # noqa: E402
from grn.rules.recording import annotate, normalise  # noqa: E402
from grn.rules.selfplay import to_record  # noqa: E402
from grn.serve import store as store_module  # noqa: E402
from grn.serve.common import Context  # noqa: E402
from grn.serve.routes_recording import Edit, apply_edit, play_actions  # noqa: E402
from grn.serve.store import Store, StoreError, digest  # noqa: E402
from grn.serve.views import record_for  # noqa: E402

#: Every table that holds a row of a game (the analysis tables are made by the first analysis only).
GAME_TABLES = ("tags", "seats", "game_turns", "points", "points_packed")


def rows_of(path: Path, game_id: int) -> dict[str, Any]:
    """Every row the archive holds of game ``game_id``, packed texts unpacked (their bytes are compared too)."""
    con = sqlite3.connect(path)
    out: dict[str, Any] = {"games": con.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchall()}
    for table in GAME_TABLES:
        out[table] = con.execute(f"SELECT * FROM {table} WHERE game_id = ? ORDER BY 1, 2", (game_id,)).fetchall()
    out["unpacked"] = [(unpack(a), unpack(e)) for _, a, e in out["game_turns"]]
    out["size"] = con.execute("SELECT f.size FROM files f JOIN games g ON g.file_id = f.id WHERE g.id = ?",
                              (game_id,)).fetchall()
    con.close()
    return out


def game_and_cut(game: str, seed: int, cut: int) -> tuple[Record, Any]:
    """A self-played game's first ``cut`` turns (no Result), and the turn played after them."""
    full = to_record(games.find_ruleset(game).selfplay(2, seed), seed=seed)
    start = full.replace(tags=tuple((k, v) for k, v in full.tags if k != "Result"), turns=full.turns[:cut])
    return start, full.turns[cut]


def replaying(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the store's replays of a whole game (a full save validates the game again from turn 1)."""
    count: list[int] = []
    real = store_module.validate_record

    def counted(*args: Any, **kwargs: Any) -> Any:
        count.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(store_module, "validate_record", counted)
    return count


def tap(ctx: Context, game_id: int, base: str, actions: list[Any], comment: str | None = None) -> dict[str, Any]:
    """The recorder's tap on Confirm at the end of the main line (a bot's turn adds its comment)."""
    def change(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
        new, address, played = play_actions(record, text, at, actions)
        if comment is not None:
            new = annotate(new, address, comment=comment)
        return new, address, played
    return apply_edit(ctx, game_id, base, "end", {}, change)


def full_save_of(tmp_path: Path, name: str, start: Record, new: Record) -> tuple[Path, str]:
    """A second archive where ``start`` is created and saved as ``new`` the old way (the whole game written)."""
    path = tmp_path / name
    store = Store(path)
    game_id = store.create(start)
    _, text = store.load(game_id)
    return path, store.save(game_id, new, digest(text))


@pytest.mark.parametrize("game,cut", [("carcassonne", 0), ("carcassonne", 1), ("carcassonne", 30),
                                      ("goldrush", 12), ("gold", 7)])
def test_a_turn_appended_writes_the_rows_a_full_save_writes(tmp_path, monkeypatch, game, cut):
    """The archive's rows after a tap at the end of the main line equal, column by column (packed texts
    included), the rows a full save of the same game writes; the text is the same; no replay from turn 1."""
    start, turn = game_and_cut(game, 3, cut)
    store = Store(tmp_path / "tap.db")
    game_id = store.create(start)
    _, text = store.load(game_id)
    replays = replaying(monkeypatch)
    view = tap(Context(store, 10**6), game_id, digest(text), list(turn.actions))
    assert replays == [], "a tap at the end replays the whole game"
    record, new_text = store.load(game_id)
    assert view["base"] == digest(new_text) and view["address"] == str(cut + 1)
    assert new_text == write_record(record) and new_text.startswith(text if cut else text.rstrip("\n"))
    other, full_text = full_save_of(tmp_path, "full.db", start, record)
    assert new_text == full_text
    assert rows_of(tmp_path / "tap.db", game_id) == rows_of(other, 1)


def test_the_record_kept_is_the_record_read_spans_included(tmp_path):
    """The record the server keeps for the new text is what reading the text gives: the turn where it is written."""
    start, turn = game_and_cut("carcassonne", 5, 20)
    store = Store(tmp_path / "tap.db")
    game_id = store.create(start)
    _, text = store.load(game_id)
    tap(Context(store, 10**6), game_id, digest(text), list(turn.actions), comment="grn expects +3")
    _, new_text = store.load(game_id)
    kept, read = record_for(new_text, "grn"), record_of(new_text, "grn")
    assert kept == read and kept.turns[-1].span == read.turns[-1].span and kept.tag_spans == read.tag_spans
    assert kept.turns[-1].comments == (Comment("grn expects +3"),)
    assert new_text.endswith(f"21. {turn.player} " + new_text.rsplit(f"21. {turn.player} ", 1)[1])


def test_a_bots_turn_with_its_comment_writes_the_full_saves_rows(tmp_path, monkeypatch):
    """A bot's turn carries its words as a comment: still one turn stored, the same rows."""
    start, turn = game_and_cut("goldrush", 8, 15)
    store = Store(tmp_path / "tap.db")
    game_id = store.create(start)
    _, text = store.load(game_id)
    replays = replaying(monkeypatch)
    tap(Context(store, 10**6), game_id, digest(text), list(turn.actions), comment="mcts expects a margin of +2")
    assert replays == []
    record, new_text = store.load(game_id)
    other, full_text = full_save_of(tmp_path, "full.db", start, record)
    assert new_text == full_text and rows_of(tmp_path / "tap.db", game_id) == rows_of(other, 1)


def test_comments_and_variations_before_the_end_are_kept_as_written(tmp_path):
    """A turn appended leaves the comments, glyphs and variations of earlier turns as they were."""
    start, turn = game_and_cut("carcassonne", 9, 12)
    earlier = start.turns[5]
    side = start.turns[6].replace(extras=())
    noted = start.replace(turns=(*start.turns[:5], earlier.replace(extras=(Comment("a fine city"),)),
                                 start.turns[6].replace(extras=(Variation((side,)),)), *start.turns[7:]))
    store = Store(tmp_path / "tap.db")
    game_id = store.create(noted)
    _, text = store.load(game_id)
    assert "{a fine city}" in text and "(" in text
    tap(Context(store, 10**6), game_id, digest(text), list(turn.actions))
    record, new_text = store.load(game_id)
    assert new_text.startswith(text) and new_text.count("\n") == text.count("\n") + 1
    assert record.turns[5].comments == (Comment("a fine city"),) and record.turns[6].variations
    other, full_text = full_save_of(tmp_path, "full.db", noted, record)
    assert new_text == full_text and rows_of(tmp_path / "tap.db", game_id) == rows_of(other, 1)


def test_two_phones_on_one_game_the_second_is_told_to_reload(tmp_path):
    """Two taps made on the same text: the first is stored, the second refused with 409, nothing lost."""
    start, turn = game_and_cut("carcassonne", 2, 10)
    store = Store(tmp_path / "tap.db")
    ctx = Context(store, 10**6)
    game_id = store.create(start)
    _, text = store.load(game_id)
    tap(ctx, game_id, digest(text), list(turn.actions))
    _, after_first = store.load(game_id)
    with pytest.raises(StoreError) as refused:
        tap(ctx, game_id, digest(text), list(turn.actions))
    assert refused.value.status == 409 and "reload" in refused.value.message
    assert store.load(game_id)[1] == after_first


def test_a_stale_write_between_the_read_and_the_write_gets_409(tmp_path):
    """The game changed after the recorder read it and before it wrote: the append is refused, as a full save is."""
    start, turn = game_and_cut("goldrush", 4, 9)
    store = Store(tmp_path / "tap.db")
    game_id = store.create(start)
    record, text = store.load(game_id)
    new, _, played = play_actions(record, text, normalise(record, "end"), list(turn.actions))
    store.save(game_id, annotate(record, "end", comment="meanwhile"), digest(text))  # another phone
    from grn.serve.append import Appended

    assert played is not None
    with pytest.raises(StoreError) as refused:
        store.save(game_id, new, digest(text), Appended(record, text, played[0].state, played[1]))
    assert refused.value.status == 409
    assert "meanwhile" in store.load(game_id)[1]


def test_a_game_kept_as_its_file_wrote_it_is_saved_whole(tmp_path, monkeypatch):
    """A game ``grn archive add`` kept in its own spelling is not canonical: the tap writes it whole, as before."""
    start, turn = game_and_cut("carcassonne", 6, 8)
    loose = write_record(start).replace("\n1. ", "\n1.  ")
    (tmp_path / "g.grn").write_text(loose)
    store = Store(tmp_path / "tap.db")
    with store.connection() as con:
        add_files(con, [str(tmp_path / "g.grn")])
    replays = replaying(monkeypatch)
    record, text = store.load(1)
    tap(Context(store, 10**6), 1, digest(text), list(turn.actions))
    assert replays == [1]
    new_record, new_text = store.load(1)
    assert new_text == write_record(new_record)


def test_the_last_turn_of_the_game_is_saved_whole_with_its_result(tmp_path, monkeypatch):
    """The turn that ends the game adds the Result tag and the final scoring: the full save, as before."""
    full = to_record(games.find_ruleset("gold").selfplay(2, 1), seed=1)
    start = full.replace(tags=tuple((k, v) for k, v in full.tags if k != "Result"), turns=full.turns[:-1])
    store = Store(tmp_path / "tap.db")
    game_id = store.create(start)
    _, text = store.load(game_id)
    replays = replaying(monkeypatch)
    view = tap(Context(store, 10**6), game_id, digest(text), list(full.turns[-1].actions))
    assert replays == [1] and view["over"]
    record, _ = store.load(game_id)
    assert record.tag("Result") == full.tag("Result")


def test_bots_playing_in_a_row_store_each_turn_as_one_turn(tmp_path, monkeypatch):
    """In a game against grn the server plays its seats' turns one after another: each is stored as one turn,
    and the archive's rows at the end are those of the whole game written at once."""
    from grn.serve.bots import DEALER, DEALER_TAG
    from grn.serve.routes_bots import MAX_BOT_TURNS, play_bots

    start = Record((("Game", "carcassonne"), ("Players", "random (red), greedy (blue)"), ("Options", "basic=1"),
                    (DEALER_TAG, DEALER)))
    store = Store(tmp_path / "tap.db")
    game_id = store.create(start)
    _, text = store.load(game_id)
    replays = replaying(monkeypatch)
    view = play_bots(Context(store, 10**6), game_id, digest(text))
    assert replays == [] and len(view["said"]) == MAX_BOT_TURNS
    record, new_text = store.load(game_id)
    assert len(record.turns) == MAX_BOT_TURNS
    other, full_text = full_save_of(tmp_path, "full.db", start, record)
    assert new_text == full_text and rows_of(tmp_path / "tap.db", game_id) == rows_of(other, 1)
