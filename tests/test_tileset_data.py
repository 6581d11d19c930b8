"""Tests of the shipped Gold Rush tile set data (grn/games/goldrush/tileset.json).

The tile pictures are not in the rule documents, so the set is a reconstruction
(docs/tileset.md).  These tests pin what the documents *do* say, plus the
conventions of the JSON format (docs/design.md, "Tile set JSON").
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[1]
TILESET_PATH = ROOT / "grn" / "games" / "goldrush" / "tileset.json"
SCHEMA_PATH = ROOT / "schemas" / "tileset.schema.json"

PLACES = ("NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW")
MIDDLES = ("N", "E", "S", "W")
EDGE_PLACES = {m: PLACES[3 * i:3 * i + 3] for i, m in enumerate(MIDDLES)}

#: The distribution as printed (000 "Tile Distribution"), picture number -> count.
LISTED_COUNTS = {
    "01": 7, "12": 5, "26": 6, "47": 5, "33": 5,
    "08": 4, "17": 4, "27": 4, "31": 2, "38": 1, "39": 3, "42": 3, "45": 2, "52": 2,
    "54": 2, "56": 5, "61": 2, "64": 3, "66": 4, "69": 1, "70": 1, "71": 1, "72": 1,
}
#: The project's ruling (docs/tileset.md, "The count of 73"): design 66 has 3 copies.
SHIPPED_COUNTS = {**LISTED_COUNTS, "66": 3}
VARIANT_DESIGNS = ("01", "12", "26", "47")
SYMBOL_OF_KIND = {"mountain": {"nuggets"}, "rail": {"locomotives"}, "prairie": {"tipis", "horses"}, "city": set()}
RESERVED = {"kind", "edges", "ends", "links", "name", "notes"}


@pytest.fixture(scope="module")
def tileset() -> dict:
    return json.loads(TILESET_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tiles(tileset: dict) -> list[dict]:
    return tileset["tiles"]


def symbols(segment: dict) -> dict[str, int]:
    return {k: v for k, v in segment.items() if k not in RESERVED}


def place_kinds(tile: dict) -> dict[str, str]:
    return {p: seg["kind"] for seg in tile["segments"] for p in seg["edges"]}


def design_counts(tiles: list[dict]) -> Counter:
    counts: Counter = Counter()
    for t in tiles:
        counts[t["design"]] += t["count"]
    return counts


# ---------------------------------------------------------------------------
# format
# ---------------------------------------------------------------------------

def test_validates_against_schema(tileset: dict) -> None:
    """002 COMPONENTS: "72 Land tiles (including 1 start tile with a unique back): The tiles
    show railroad tracks with locomotives, mountains with nuggets, prairies with Native
    American tipis and herds of horses, and western cities."

    The data validates against schemas/tileset.schema.json, and the cross-checks the
    schema leaves to code hold: kinds and symbols are declared at the top level.
    """
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(tileset)
    assert list(tileset["kinds"]) == ["rail", "mountain", "prairie", "city"]
    for tile in tileset["tiles"]:
        for seg in tile["segments"]:
            assert seg["kind"] in tileset["kinds"], tile["id"]
            assert set(symbols(seg)) <= set(tileset["symbols"]), tile["id"]


def test_schema_rejects_bad_data(tileset: dict) -> None:
    """002 COMPONENTS: "On the front they depict gold nuggets (1, 2, 3, or 5 points) or
    gravel (0 points)." -- symbols are counts, never negative, and places are named.
    """
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    bad = json.loads(json.dumps(tileset))
    bad["tiles"][0]["segments"][0]["locomotives"] = -1
    assert not validator.is_valid(bad)
    bad = json.loads(json.dumps(tileset))
    bad["tiles"][0]["segments"][0]["edges"] = ["NORTH"]
    assert not validator.is_valid(bad)
    # a base-game style extra symbol is accepted
    ok = json.loads(json.dumps(tileset))
    ok["tiles"][0]["segments"][0]["pennants"] = 1
    assert validator.is_valid(ok)


def test_ids_unique(tiles: list[dict]) -> None:
    """000 Tile Distribution: "These four tile designs depict differing distributions of
    tipi camps and wild horses" -- so a picture number alone does not name a tile; every
    tile entry has its own id, and the ids are unique.
    """
    ids = [t["id"] for t in tiles]
    assert len(ids) == len(set(ids))
    for t in tiles:
        assert t["id"].startswith(t["design"])


# ---------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------

def test_every_place_in_exactly_one_segment(tiles: list[dict]) -> None:
    """000 step 1. Placing Land Tiles: "Railroad tracks, mountains, and prairies must
    continue from this newly placed tile to existing adjacent tiles." -- every one of the
    twelve border places has exactly one kind, so the match can be checked.
    """
    for t in tiles:
        seen = [p for seg in t["segments"] for p in seg["edges"]]
        assert sorted(seen) == sorted(PLACES), t["id"]
        assert len(seen) == 12, t["id"]


def test_edges_are_whole(tiles: list[dict]) -> None:
    """000 step 1. Placing Land Tiles: "This tile placement would not be allowed (prairie
    next to mountain)." -- an edge is all prairie, all mountain, or prairie-rail-prairie
    (a railroad meets the edge in its middle), so edges match as wholes.
    """
    allowed = {("prairie",) * 3, ("mountain",) * 3, ("prairie", "rail", "prairie")}
    for t in tiles:
        kinds = place_kinds(t)
        for middle, places in EDGE_PLACES.items():
            assert tuple(kinds[p] for p in places) in allowed, (t["id"], middle)


def test_mountain_segments_hold_whole_edges(tiles: list[dict]) -> None:
    """000 Completed Mountain: "A mountain is complete when it is completely surrounded by
    prairies (has no open sides), and there are no gaps within." -- a mountain segment
    holds all three places of each edge it touches, so its open sides are whole edges.
    """
    for t in tiles:
        for seg in t["segments"]:
            if seg["kind"] != "mountain":
                continue
            assert seg["edges"], t["id"]
            for places in EDGE_PLACES.values():
                touched = [p in seg["edges"] for p in places]
                assert all(touched) or not any(touched), t["id"]


def test_rail_segments(tiles: list[dict]) -> None:
    """000 Completed Railroad: "A railroad is completed when its two ends terminate in
    junctions, cities, and/or mountains, or when it forms a complete loop." -- a rail
    segment touches only edge middles, and its edges plus its inner ends make two; a
    rail that ends in a mountain has that mountain on its tile, one ending in a city
    has that city.
    """
    for t in tiles:
        kinds = {seg["kind"] for seg in t["segments"]}
        for seg in t["segments"]:
            if seg["kind"] != "rail":
                continue
            assert seg["edges"], t["id"]
            assert set(seg["edges"]) <= set(MIDDLES), t["id"]
            assert len(seg["edges"]) + len(seg["ends"]) == 2, t["id"]
            assert set(seg["ends"]) <= {"junction", "city", "mountain"}, t["id"]
            for end in ("city", "mountain"):
                if end in seg["ends"]:
                    assert end in kinds, t["id"]
        junction_rails = [s for s in t["segments"] if "junction" in s.get("ends", [])]
        assert len(junction_rails) in (0, 3, 4), t["id"]


def test_city_segments(tiles: list[dict]) -> None:
    """000 Completed City: "A city is complete when all railroad segments (3 or 4) emerging
    from that city are part of completed railroads." -- a city holds no border place and
    lists 3 or 4 rail segments, each ending in the city; every rail ending in a city is
    listed by one.
    """
    n_cities = 0
    for t in tiles:
        segs = t["segments"]
        listed: list[int] = []
        for seg in segs:
            if seg["kind"] != "city":
                continue
            n_cities += t["count"]
            assert seg["edges"] == [], t["id"]
            assert len(seg["links"]) in (3, 4), t["id"]
            for i in seg["links"]:
                assert segs[i]["kind"] == "rail", t["id"]
                assert "city" in segs[i]["ends"], t["id"]
            listed += seg["links"]
        into_city = [i for i, s in enumerate(segs) if "city" in s.get("ends", [])]
        assert sorted(listed) == sorted(into_city), t["id"]
    assert n_cities >= 1


def test_symbols_sit_on_their_features(tiles: list[dict]) -> None:
    """002 COMPONENTS: "The tiles show railroad tracks with locomotives, mountains with
    nuggets, prairies with Native American tipis and herds of horses, and western
    cities." -- each symbol counter sits on its own kind of segment, and every mountain
    segment carries at least one nugget symbol.
    """
    for t in tiles:
        for seg in t["segments"]:
            assert set(symbols(seg)) <= SYMBOL_OF_KIND[seg["kind"]], t["id"]
            if seg["kind"] == "mountain":
                assert 1 <= seg["nuggets"] <= 3, t["id"]


# ---------------------------------------------------------------------------
# distribution
# ---------------------------------------------------------------------------

def test_counts_add_up_to_72(tileset: dict, tiles: list[dict]) -> None:
    """000 Tile Distribution: "Total tiles: 72" -- the printed per-design counts add up to
    73; the project ships design 66 with 3 copies (docs/tileset.md, "The count of 73") so
    that the box holds 72 tiles, the start tile included.
    """
    assert sum(LISTED_COUNTS.values()) == 73
    assert sum(t["count"] for t in tiles) == 72 == tileset["total"]
    assert dict(design_counts(tiles)) == SHIPPED_COUNTS


def test_start_tile(tileset: dict, tiles: list[dict]) -> None:
    """002 PREPARATION: "The start tile is placed in the middle of the table. Place a
    Mining token facedown on the mountain." and 000 Tile Distribution: "This tile design
    includes the Start Tile: GoldRush Tile 33.png ×5" -- the start tile is design 33, it
    has one mountain, and that mountain carries exactly one nugget symbol.
    """
    by_id = {t["id"]: t for t in tiles}
    start = by_id[tileset["start"]]
    assert start["design"] == "33"
    assert [t["id"] for t in tiles if t["design"] == "33"] == [start["id"]]
    mountains = [s for s in start["segments"] if s["kind"] == "mountain"]
    assert len(mountains) == 1
    assert mountains[0]["nuggets"] == 1


def test_nuggets_fit_mining_tokens(tileset: dict, tiles: list[dict]) -> None:
    """000 Placing Mining Tokens: "The number of Mining tokens to be placed is equal to the
    number of gold nugget symbols on the newly placed tile." with 000 Tile Distribution
    "Total tokens: 63" (10 gravel, 10x1, 30x2, 10x3, 3x5) -- the nugget symbols of all 72
    tiles, start tile included, add up to exactly the 63 Mining tokens.
    """
    assert tileset["tokens"] == {"0": 10, "1": 10, "2": 30, "3": 10, "5": 3}
    n_tokens = sum(tileset["tokens"].values())
    assert n_tokens == 63
    nuggets = sum(t["count"] * s.get("nuggets", 0) for t in tiles for s in t["segments"])
    assert nuggets == n_tokens


def test_variant_designs_differ_only_by_tipis_and_horses(tiles: list[dict]) -> None:
    """000 Tile Distribution: "These four tile designs depict differing distributions of
    tipi camps and wild horses: GoldRush Tile 01.png ×7, 12.png ×5, 26.png ×6, 47.png ×5"
    -- each of the four has several entries, identical once tipis and horses are set
    aside, with different tipi/horse distributions; no other design has variants.
    """
    def shape(tile: dict) -> list[dict]:
        return [{k: v for k, v in s.items() if k not in ("tipis", "horses")} for s in tile["segments"]]

    def spread(tile: dict) -> list[tuple[int, int]]:
        return [(s.get("tipis", 0), s.get("horses", 0)) for s in tile["segments"]]

    for design in {t["design"] for t in tiles}:
        group = [t for t in tiles if t["design"] == design]
        if design in VARIANT_DESIGNS:
            assert len(group) >= 2, design
            assert all(shape(t) == shape(group[0]) for t in group), design
            assert all(t["name"] == group[0]["name"] for t in group), design
            spreads = [spread(t) for t in group]
            assert len(set(map(tuple, spreads))) == len(spreads), design
        else:
            assert len(group) == 1, design
            assert group[0]["id"] == design


# ---------------------------------------------------------------------------
# playability
# ---------------------------------------------------------------------------

def _rotations(tile: dict) -> list[tuple[str, ...]]:
    kinds = place_kinds(tile)
    base = [kinds[p] for p in PLACES]
    # turning 90 degrees clockwise moves a place three steps clockwise
    return [tuple(base[(i - 3 * r) % 12] for i in range(12)) for r in range(4)]


_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N E S W; y grows north


def _fits(board: dict, x: int, y: int, kinds: tuple[str, ...]) -> bool:
    touching = 0
    for e, (dx, dy) in enumerate(_STEPS):
        other = board.get((x + dx, y + dy))
        if other is None:
            continue
        touching += 1
        o = (e + 2) % 4
        if any(kinds[3 * e + k] != other[3 * o + 2 - k] for k in range(3)):
            return False
    return touching > 0


def test_the_set_can_be_played_out(tileset: dict, tiles: list[dict]) -> None:
    """000 step 1. Placing Land Tiles: "In the rare case that a drawn tile cannot be legally
    placed, it is discarded from the game." -- every design fits beside another design,
    and random legal play places all 72 tiles in most games (a discard stays rare).
    """
    rots = {t["id"]: _rotations(t) for t in tiles}
    for a in tiles:
        assert any(
            _fits({(0, 0): rb}, 1, 0, ra)
            for b in tiles if b["design"] != a["design"]
            for rb in rots[b["id"]] for ra in rots[a["id"]]
        ), a["id"]

    rng = random.Random(2014)
    complete = 0
    games = 20
    for _ in range(games):
        bag = [t["id"] for t in tiles for _ in range(t["count"])]
        bag.remove(tileset["start"])
        rng.shuffle(bag)
        board = {(0, 0): rots[tileset["start"]][0]}
        frontier = {(1, 0), (-1, 0), (0, 1), (0, -1)}
        discards = 0
        for tid in bag:
            legal = [(x, y, r) for (x, y) in sorted(frontier) for r in range(4)
                     if _fits(board, x, y, rots[tid][r])]
            if not legal:
                discards += 1
                continue
            x, y, r = rng.choice(legal)
            board[(x, y)] = rots[tid][r]
            frontier.discard((x, y))
            frontier |= {(x + dx, y + dy) for dx, dy in _STEPS if (x + dx, y + dy) not in board}
        complete += discards == 0
    assert complete >= games * 3 // 4
