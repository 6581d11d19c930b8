"""The generic tile core: tile sets from JSON (grn.tiles) and the board with its features (grn.board)."""

from __future__ import annotations

import importlib
import json
import pickle
from pathlib import Path

import pytest

from grn.games import find_ruleset
from grn.rules.ruleset import engine_for
from grn.rules.selfplay import to_record
from grn.games.tiling.board import Board, cell_key
from grn.core.errors import GrnError
from grn.games.tiling.places import PLACE_INDEX, opposite_place, rotate_place
from grn.games.goldrush import load_tileset
from grn.games.tiling.tiles import load_shipped_tileset
from grn.games.tiling.tiles import tileset_from_dict

from goldrush_fixtures import kit, rail, tile


# ---------------------------------------------------------------- places and rotation

def test_opposite_and_rotated_places() -> None:
    """docs/design.md, "Tile places and rotation": N<->S, NNE<->SSE, ENE<->WNW; 90 degrees moves N -> E, NNE -> ESE."""
    P = PLACE_INDEX
    assert opposite_place(P["N"]) == P["S"]
    assert opposite_place(P["NNE"]) == P["SSE"]
    assert opposite_place(P["ENE"]) == P["WNW"]
    assert rotate_place(P["N"], 90) == P["E"]
    assert rotate_place(P["NNE"], 90) == P["ESE"]
    assert rotate_place(P["W"], 90) == P["N"]


def test_orientation_tables() -> None:
    ts = kit()
    t = ts["T"]  # rail from W
    assert t.orientation(0).kinds[PLACE_INDEX["W"]] == "rail"
    assert t.orientation(90).kinds[PLACE_INDEX["N"]] == "rail"
    assert t.orientation(180).kinds[PLACE_INDEX["E"]] == "rail"
    assert ts["P"].unique_rotations == (0,)
    assert ts["R"].unique_rotations == (0, 90)
    assert ts["J4"].unique_rotations == (0,)
    assert ts["T"].unique_rotations == (0, 90, 180, 270)
    assert "rail" in repr(t.segments[0]) and "T" in repr(t)


# ---------------------------------------------------------------- loading

def test_shipped_tileset_loads() -> None:
    """000, Tile Distribution: 72 land tiles; 63 mining tokens."""
    ts = load_tileset()
    assert ts.total == 72
    assert ts.start == "33"
    assert ts.token_total == 63
    assert load_tileset() is ts  # cached
    assert "goldrush" in repr(ts)


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "set.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def base_data() -> dict:
    return {"name": "t", "kinds": {"rail": "path", "mountain": "edge", "prairie": "field", "city": "centre"}, "start": "P",
            "tiles": [tile("P"), tile("R", rail("W", "E"))]}


def test_load_from_path(tmp_path: Path) -> None:
    ts = load_tileset(write(tmp_path, base_data()))
    assert [t.id for t in ts] == ["P", "R"]


def test_schema_violation_names_file_and_path(tmp_path: Path) -> None:
    data = base_data()
    data["tiles"][1]["segments"][0]["edges"] = ["N", "XX"]
    with pytest.raises(GrnError) as info:
        load_tileset(write(tmp_path, data))
    msg = str(info.value)
    assert "set.json" in msg and "$.tiles[1].segments[0].edges" in msg
    assert "\n" not in msg


def test_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(GrnError, match="bad.json:1:2: not valid JSON"):
        load_tileset(path)
    with pytest.raises(GrnError, match="no such shipped tile set"):
        load_shipped_tileset("grn.games", "nosuchset.json")


@pytest.mark.parametrize("mutate, fragment", [
    (lambda d: d["tiles"][1]["segments"][1]["edges"].append("E"), "already in segment"),
    (lambda d: d["tiles"][1]["segments"][1]["edges"].pop(), "in no segment"),
    (lambda d: d["tiles"][1]["segments"][0].update(ends=["junction"]), r"edges \+ ends must be 2"),
    (lambda d: d["tiles"].append(tile("X", rail("W", "NNW"))), "only at N, E, S or W"),
    (lambda d: d.update(start="Q"), "start tile"),
    (lambda d: d["tiles"].append(tile("P")), "used twice"),
    (lambda d: d["tiles"][0]["segments"][0].update(kind="lake"), "not in the set's kinds"),
    (lambda d: d["tiles"][0]["segments"][0].update(tipis=-1), "non-negative"),
])
def test_structural_invariants(mutate, fragment: str) -> None:
    """docs/design.md: every place in exactly one segment; rails meet edge middles, edges + ends = 2; ..."""
    data = base_data()
    mutate(data)
    with pytest.raises(GrnError, match=fragment):
        tileset_from_dict(data, "x.json")


def test_mountain_holds_whole_edges() -> None:
    data = base_data()
    data["tiles"].append({"id": "M", "count": 1, "segments": [
        {"kind": "mountain", "edges": ["N", "NNE"]},
        {"kind": "prairie", "edges": [p for p in PLACE_INDEX if p not in ("N", "NNE")]}]})
    with pytest.raises(GrnError, match="whole edges"):
        tileset_from_dict(data)


def test_city_links_must_end_in_city() -> None:
    data = base_data()
    data["tiles"].append(tile("C", rail("W", ends=["junction"]), {"kind": "city", "edges": [], "links": [0]}))
    with pytest.raises(GrnError, match="does not end in a city"):
        tileset_from_dict(data)


# ---------------------------------------------------------------- the board

def start(ts, tid: str = "P", rotation: int = 0) -> Board:
    b = Board(ts)
    b.place_tile(ts[tid], 0, 0, rotation)
    return b


def test_placement_legality() -> None:
    """000, step 1: adjacent orthogonally, on an empty square, every touching place the same kind."""
    ts = kit()
    b = start(ts, "R")
    assert b.fits(ts["R"], 1, 0, 0)
    assert not b.fits(ts["R"], 1, 0, 90)        # rail meets prairie
    assert not b.fits(ts["P"], 1, 1, 0)         # diagonal only
    assert not b.fits(ts["P"], 0, 0, 0)         # occupied
    assert b.mismatches(ts["R"], 1, 0, 90) == ["W"]
    assert b.preview(ts["R"], 1, 0, 90) is None
    assert b.frontier == {(1, 0), (-1, 0), (0, 1), (0, -1)}


def test_features_merge_and_close() -> None:
    ts = kit()
    b = start(ts, "T", 180)                       # rail to E, dead end at W
    rail0 = b.segment_at(0, 0, "E")
    assert b.open_places(rail0) == 1
    b.place_tile(ts["RL"], 1, 0)
    assert b.size(rail0) == 2 and b.open_places(rail0) == 1
    assert b.symbols(rail0) == {"locomotives": 1}
    b.add_follower(b.segment_at(1, 0, "E"), "blue")
    roots = b.place_tile(ts["T"], 2, 0)
    f = b.feature(rail0)
    assert f.closed and f.size == 3 and f.followers == (("blue", b.segment_at(1, 0, "E")),)
    assert f.root == rail0 == min(roots)  # the root is the oldest segment
    assert b.remove_followers(rail0) == [("blue", b.segment_at(1, 0, "E"))]
    assert b.followers(rail0) == []


def test_loop_counts_each_tile_once_and_closes() -> None:
    """000, step 3: a railroad is completed "when it forms a complete loop"."""
    ts = kit(start="CV")
    b = start(ts, "CV", 270)                        # rails N, E
    b.place_tile(ts["CV"], 1, 0, 180)               # rails W, N
    b.place_tile(ts["CV"], 1, 1, 90)                # rails S, W
    sid = b.segment_at(0, 0, "N")
    assert b.open_places(sid) == 2
    b.place_tile(ts["CV"], 0, 1, 0)                 # rails E, S
    assert b.is_closed(sid) and b.size(sid) == 4


def test_prairies_split_by_rails_and_join() -> None:
    ts = kit(start="R")
    b = start(ts, "R")
    north, south = b.segment_at(0, 0, "N"), b.segment_at(0, 0, "S")
    assert b.find(north) != b.find(south)
    b.place_tile(ts["CV"], 1, 0, 90)                # rails S, W: the north prairie wraps round to the east
    assert b.size(north) == 2 and b.size(south) == 2


def test_city_links() -> None:
    ts = kit(start="R")
    b = start(ts, "R")
    b.place_tile(ts["C3"], 1, 0, 90)                # rails N, W, S
    city = b.tiles[(1, 0)].sid(3)  # segment 3 of C3 is the city
    assert b.feature(city).kind == "city"
    assert len(b.links(city)) == 3
    assert b.tiles[(1, 0)].sid(3) in b.links(b.segment_at(0, 0, "W"))


def test_legal_positions_and_copy() -> None:
    ts = kit()
    b = start(ts)
    assert b.legal_positions(ts["P"]) == [(-1, 0, 0), (0, -1, 0), (0, 1, 0), (1, 0, 0)]
    assert b.has_legal_position(ts["R"]) and not b.has_legal_position(ts["MA"])
    c = b.copy()
    c.place_tile(ts["P"], 1, 0)
    assert len(b) == 1 and len(c) == 2
    assert b.size(0) == 1 and c.size(0) == 2
    assert b.state_key() != c.state_key()
    assert "Board" in repr(b) and "Feature" in repr(b.feature(0))


def test_stale_preview_refused() -> None:
    ts = kit()
    b = start(ts)
    p = b.preview(ts["P"], 1, 0, 0)
    b.place_tile(ts["P"], -1, 0)
    with pytest.raises(ValueError):
        b.place(p)  # type: ignore[arg-type]


# ---------------------------------------------------------------- squares by int key (issue 26, round five)

def _brute_legal(board: Board, design) -> list[tuple[int, int, int]]:
    """Legal (x, y, rotation) worked out from board.tiles alone, one of identical rotations."""
    tiles = board.tiles
    squares = {(x + dx, y + dy) for (x, y) in tiles for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))} - set(tiles)
    out = []
    for (x, y) in sorted(squares):
        for r in design.unique_rotations:
            o = design.orientations[r // 90]
            ok = True
            for e, (dx, dy) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
                nb = tiles.get((x + dx, y + dy))
                if nb is not None and nb.orientation.edge_sig[(e + 2) % 4] != o.edge_need[e]:
                    ok = False
            if ok:
                out.append((x, y, r))
    return out


@pytest.mark.parametrize("game", ["goldrush", "carcassonne"])
def test_legal_positions_match_a_search_of_the_tiles(game: str) -> None:
    """Through a whole self-played game, the int-keyed look-ups find exactly the placements a plain search
    of board.tiles finds, and board.cells mirrors board.tiles after copies and pickling."""
    record = to_record(importlib.import_module(f"grn.games.{game}.selfplay").play(3, 7))
    ruleset = find_ruleset(record.game)
    engine = engine_for(ruleset, record, ruleset.seats(record), None)
    designs = engine.tileset.tiles
    for i, turn in enumerate(record.turns):
        board = engine.board
        if i % 7 == 0:
            for d in designs[::3]:
                assert board.legal_positions(d) == _brute_legal(board, d)
                assert board.has_legal_position(d) == bool(_brute_legal(board, d))
            for other in (board.copy(), pickle.loads(pickle.dumps(board))):
                assert other.cells == {cell_key(x, y): t for (x, y), t in other.tiles.items()}
                assert other.tiles.keys() == board.tiles.keys()
        engine.play_turn(turn.player, turn.actions)
    assert board.cells == {cell_key(x, y): t for (x, y), t in board.tiles.items()}


def test_far_squares_keep_distinct_keys() -> None:
    """Squares far apart never share a key: tiles at the edge of the range, and a y beyond it refused."""
    ts = kit()
    b = Board(ts)
    b.place_tile(ts["P"], 5, (1 << 30), 0)
    assert not b.fits(ts["P"], 6, -(1 << 30), 0)  # the key of x+1 with y wrapped round: no tile there
    assert b.fits(ts["P"], 4, 1 << 30, 0) == bool(b.preview(ts["P"], 4, 1 << 30, 0))
    with pytest.raises(ValueError, match="out of the board's range"):
        b.preview(ts["P"], 5, (1 << 30) + 1, 0)
    assert not b.fits(ts["P"], 5, (1 << 30) + 1, 0)
