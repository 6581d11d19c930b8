"""Writing the games a filter selects: GRN text, the JSON form, or Parquet tables.

Everything streams in batches of :data:`BATCH` games, so an export of a large
archive holds one batch at a time.

Parquet (``-o DIR``): ``DIR/games.parquet`` (one row a game) and
``DIR/score_events.parquet`` (one row a scoring event); ``docs/archive.md``
lists the columns.  Plain Parquet: DuckDB, pandas or Polars read it without grn.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import IO, Any, Iterator

from grn.archive.dedup import record_of
from grn.core.output import output_folder, writing

BATCH = 5000


def batches(con: sqlite3.Connection, ids: list[int], columns: str, table: str = "games",
             key: str = "id") -> Iterator[list[tuple[Any, ...]]]:
    """The rows of ``ids`` in batches of :data:`BATCH`, in id order."""
    for start in range(0, len(ids), BATCH):
        part = ids[start:start + BATCH]
        marks = ",".join("?" * len(part))
        yield list(con.execute(f"SELECT {columns} FROM {table} WHERE {key} IN ({marks}) ORDER BY {key}", part))


def grn_text(text: str, fmt: str) -> str:
    """An archived game as GRN text (the original text for GRN, written from the record for JSON)."""
    from grn.notation.writer import write_record

    if fmt == "grn":
        return text.rstrip("\r\n") + "\n"
    return write_record(record_of(text, fmt))


def json_object(text: str, fmt: str) -> Any:
    """An archived game in the JSON form."""
    from grn.notation.jsonform import record_to_json

    if fmt == "json":
        return json.loads(text)
    return record_to_json(record_of(text, fmt))


def write_grn(con: sqlite3.Connection, ids: list[int], out: IO[str]) -> int:
    """Write the games as one GRN file (games separated by a blank line); return how many."""
    n = 0
    for rows in batches(con, ids, "text, format"):
        for text, fmt in rows:
            if n:
                out.write("\n")
            out.write(grn_text(text, fmt))
            n += 1
    return n


def write_json(con: sqlite3.Connection, ids: list[int], out: IO[str]) -> int:
    """Write the games as one JSON collection (``grn convert --to json``'s form); return how many."""
    from grn.notation.jsonform import records_to_json

    header = records_to_json([])
    out.write('{"grn": ' + json.dumps(header["grn"]) + ', "games": [\n')
    n = 0
    for rows in batches(con, ids, "text, format"):
        for text, fmt in rows:
            out.write((",\n" if n else "") + json.dumps(json_object(text, fmt), ensure_ascii=False))
            n += 1
    out.write("\n]}\n")
    return n


def _schemas() -> tuple[Any, Any]:
    import pyarrow as pa

    seat = pa.struct([("seat", pa.int32()), ("key", pa.string()), ("name", pa.string()),
                      ("score", pa.int32()), ("won", pa.bool_())])
    tag = pa.struct([("name", pa.string()), ("value", pa.string())])
    games = pa.schema([
        ("game_id", pa.int64()), ("game", pa.string()), ("event", pa.string()), ("site", pa.string()),
        ("date", pa.string()), ("round", pa.string()), ("players", pa.list_(pa.string())),
        ("n_players", pa.int32()), ("result", pa.string()), ("winners", pa.list_(pa.string())),
        ("valid", pa.bool_()), ("complete", pa.bool_()), ("turns", pa.int32()), ("errors", pa.int32()),
        ("first_player", pa.string()), ("dedup", pa.string()), ("seats", pa.list_(seat)),
        ("tags", pa.list_(tag)), ("source_format", pa.string()), ("text", pa.string()),
    ])
    events = pa.schema([
        ("game_id", pa.int64()), ("turn", pa.int32()), ("seq", pa.int32()), ("player", pa.string()),
        ("player_name", pa.string()), ("points", pa.int32()), ("feature", pa.string()),
        ("detail", pa.string()), ("final", pa.bool_()), ("type", pa.string()),
        # what the points were counted from (tiles and the like), as the event JSON of the SQLite archive has it
        ("counts", pa.map_(pa.string(), pa.int32())),
    ])
    return games, events


#: The fields every score event's JSON has; any other whole-number field is one of its counts.
_EVENT_FIELDS = frozenset({"type", "player", "points", "feature", "detail", "final"})


def _counts(event_json: str | None) -> list[tuple[str, int]]:
    """The counts of a score event (``tiles`` and the like) from the event JSON in the archive."""
    if not event_json:
        return []
    data = json.loads(event_json)
    return [(k, v) for k, v in data.items()
            if k not in _EVENT_FIELDS and isinstance(v, int) and not isinstance(v, bool)]


def write_parquet(con: sqlite3.Connection, ids: list[int], directory: Path) -> int:
    """Write ``games.parquet`` and ``score_events.parquet`` into ``directory``; return the number of games."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    output_folder(directory)
    games_schema, events_schema = _schemas()
    n = 0
    # each table into a temporary file renamed at the end (grn.core.output): a stopped run leaves no half table
    with writing(directory / "games.parquet", binary=True) as gfh, \
            writing(directory / "score_events.parquet", binary=True) as efh, \
            pq.ParquetWriter(pa.PythonFile(gfh, mode="w"), games_schema) as gw, \
            pq.ParquetWriter(pa.PythonFile(efh, mode="w"), events_schema) as ew:
        for start in range(0, len(ids), BATCH):
            part = ids[start:start + BATCH]
            marks = ",".join("?" * len(part))
            seats: dict[int, list[dict[str, Any]]] = {}
            names: dict[tuple[int, str], str] = {}
            for gid, seat, key, name, score, won in con.execute(
                    f"SELECT game_id, seat, key, name, score, won FROM seats WHERE game_id IN ({marks}) "
                    "ORDER BY game_id, seat", part):
                seats.setdefault(gid, []).append({"seat": seat, "key": key, "name": name, "score": score,
                                                  "won": bool(won)})
                names[(gid, key)] = name
            tags: dict[int, list[dict[str, str]]] = {}
            for gid, name, value in con.execute(
                    f"SELECT game_id, name, value FROM tags WHERE game_id IN ({marks}) ORDER BY game_id, pos", part):
                tags.setdefault(gid, []).append({"name": name, "value": value})
            cols: dict[str, list[Any]] = {f.name: [] for f in games_schema}
            for row in con.execute(
                    "SELECT id, game, event, site, date, round, players, n_players, result, winners, valid, "
                    f"complete, turns, errors, first_player, dedup, format, text FROM games WHERE id IN ({marks}) "
                    "ORDER BY id", part):
                (gid, game, event, site, date, rnd, players, n_players, result, winners, valid, complete,
                 turns, errors, first, dedup, fmt, text) = row
                for name, value in (("game_id", gid), ("game", game), ("event", event), ("site", site),
                                    ("date", date), ("round", rnd), ("players", json.loads(players)),
                                    ("n_players", n_players), ("result", result),
                                    ("winners", json.loads(winners)), ("valid", bool(valid)),
                                    ("complete", bool(complete)), ("turns", turns), ("errors", errors),
                                    ("first_player", first), ("dedup", dedup), ("seats", seats.get(gid, [])),
                                    ("tags", tags.get(gid, [])), ("source_format", fmt), ("text", text)):
                    cols[name].append(value)
                n += 1
            gw.write_table(pa.table(cols, schema=games_schema))
            ecols: dict[str, list[Any]] = {f.name: [] for f in events_schema}
            for gid, turn, seq, player, points, feature, detail, final, type_, event in con.execute(
                    "SELECT game_id, turn, seq, player, points, feature, detail, final, type, json FROM events "
                    f"WHERE game_id IN ({marks}) AND points IS NOT NULL ORDER BY game_id, final, turn, seq", part):
                for name, value in (("game_id", gid), ("turn", turn), ("seq", seq), ("player", player),
                                    ("player_name", names.get((gid, player or ""))), ("points", points),
                                    ("feature", feature), ("detail", detail), ("final", bool(final)),
                                    ("type", type_), ("counts", _counts(event))):
                    ecols[name].append(value)
            ew.write_table(pa.table(ecols, schema=events_schema))
    return n
