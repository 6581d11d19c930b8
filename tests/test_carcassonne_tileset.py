"""The shipped Carcassonne tile set (grn/games/carcassonne/tileset.json) against the rules' tile overview.

The base game has 72 land tiles in 24 designs A-X (start tile D); The Gold
Mines adds 8 tiles, each "with a gold ingot" (The Gold Mines rules, Components).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from grn.games.tiling.tiles import load_tileset

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "grn" / "games" / "carcassonne" / "tileset.json"
SCHEMA = ROOT / "schemas" / "tileset.schema.json"
PLACES = ("NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW")

#: letter -> (count, edges N E S W, pennant, cloister): the rules' tile overview.
OVERVIEW = {
    "A": (2, "FFRF", 0, 1), "B": (4, "FFFF", 0, 1), "C": (1, "CCCC", 1, 0), "D": (4, "CRFR", 0, 0),
    "E": (5, "CFFF", 0, 0), "F": (2, "FCFC", 1, 0), "G": (1, "FCFC", 0, 0), "H": (3, "CFCF", 0, 0),
    "I": (2, "CFFC", 0, 0), "J": (3, "CRRF", 0, 0), "K": (3, "CFRR", 0, 0), "L": (3, "CRRR", 0, 0),
    "M": (2, "CFFC", 1, 0), "N": (3, "CFFC", 0, 0), "O": (2, "CRRC", 1, 0), "P": (3, "CRRC", 0, 0),
    "Q": (1, "CCFC", 1, 0), "R": (3, "CCFC", 0, 0), "S": (2, "CCRC", 1, 0), "T": (1, "CCRC", 0, 0),
    "U": (8, "FRFR", 0, 0), "V": (9, "FFRR", 0, 0), "W": (4, "FRRR", 0, 0), "X": (1, "RRRR", 0, 0),
}
GOLD = {"GM1": "FRRF", "GM2": "CFFC", "GM3": "CRRC", "GM4": "RRRR", "GM5": "RRRR", "GM6": "CRRC",
        "GM7": "RCRC", "GM8": "RRRR"}
LETTER = {"city": "C", "road": "R", "field": "F"}


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(PATH.read_text(encoding="utf-8"))


def edge_string(tile: dict) -> str:
    kind = {p: seg["kind"] for seg in tile["segments"] for p in seg["edges"]}
    return "".join(LETTER[kind[m]] for m in "NESW")


def test_schema_and_loader(data: dict) -> None:
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8"))).validate(data)
    ts = load_tileset(PATH)
    assert ts.start == "D" and ts.total == 80
    assert data["kinds"] == {"road": "path", "city": "edge", "field": "field", "cloister": "centre"}


def test_base_tiles_match_the_overview(data: dict) -> None:
    """72 land tiles, start tile D; pennants on 10 tiles, 6 cloisters."""
    base = {t["id"]: t for t in data["tiles"] if "ingot" not in t.get("marks", [])}
    assert set(base) == set(OVERVIEW)
    assert sum(t["count"] for t in base.values()) == 72
    pennants = cloisters = 0
    for tid, (count, edges, pennant, cloister) in OVERVIEW.items():
        t = base[tid]
        assert t["count"] == count, tid
        assert edge_string(t) == edges, tid
        assert sum(s.get("pennants", 0) for s in t["segments"]) == pennant, tid
        assert sum(1 for s in t["segments"] if s["kind"] == "cloister") == cloister, tid
        pennants += pennant * count
        cloisters += cloister * count
    assert (pennants, cloisters) == (10, 6)


def test_gold_mines_tiles(data: dict) -> None:
    """"8 tiles with a gold ingot" (The Gold Mines rules, Components)."""
    gold = {t["id"]: t for t in data["tiles"] if "ingot" in t.get("marks", [])}
    assert {k: edge_string(t) for k, t in gold.items()} == GOLD
    assert all(t["count"] == 1 for t in gold.values())
    assert not any(s.get("pennants") for t in gold.values() for s in t["segments"])


def test_fields_border_the_cities_beside_them(data: dict) -> None:
    """A field lists in 'borders' exactly the cities whose places are next to its own around the tile."""
    for t in data["tiles"]:
        segs = t["segments"]
        owner = {PLACES.index(p): i for i, s in enumerate(segs) for p in s["edges"]}
        for i, s in enumerate(segs):
            if s["kind"] != "field":
                continue
            beside = {owner[(PLACES.index(p) + d) % 12] for p in s["edges"] for d in (-1, 1)}
            cities = sorted(j for j in beside if segs[j]["kind"] == "city")
            assert sorted(s.get("borders", [])) == cities, (t["id"], i)
