"""Small custom Gold Rush tile sets for the rules tests (the real pictures are not available).

Tiles are written in a few words: rails by edge middles, mountains by whole
edges, a city by its rails; the places left over become prairie segments, one
per run of consecutive free places (so rails and mountains split prairies).

The kit ("K" set) used by most tests, all on a row layout (features at y=1
above a row of plain prairie tiles at y=0, or at y=-1 below it):

* ``P``   all prairie
* ``R``   straight rail W-E; ``RL`` the same with one locomotive
* ``T``   rail from W ending in a junction (turn 180 for a rail to E)
* ``J4``  junction of four rails
* ``CV``  rail curve E-S (270: N-E, 0: E-S, 90: S-W, 180: W-N)
* ``C3``  city with rails W, S, E (prairie to the north)
* ``RM``  rail from W ending in a mountain on the E edge (no nugget)
* ``M0``..``M5``  mountain on the E edge with 0..5 nuggets (turn 180: W edge)
* ``MM1``..``MM3`` one mountain across the tile, W and E edges, 1..3 nuggets
* ``MNS`` two mountains (N edge, S edge), one nugget each
* ``MA``  all mountain, three nuggets (fits nowhere next to prairie edges)
* ``RA``, ``RB``, ``RC1``, ``RC2`` straight rails W-E with prairie symbols (farmers)
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from grn.games.tiling.places import POSITIONS
from grn.games.goldrush.rules import GoldRushState, Options
from grn.games.tiling.tiles import TileSet, tileset_from_dict

EDGE_PLACES = {m: POSITIONS[3 * i:3 * i + 3] for i, m in enumerate("NESW")}
GOLD_RUSH_TOKENS = {"0": 10, "1": 10, "2": 30, "3": 10, "5": 3}


def rail(*edges: str, ends: Sequence[str] = (), loco: int = 0) -> dict[str, Any]:
    """A rail segment through edge middles ``edges`` ending inside the tile at ``ends``."""
    return {"kind": "rail", "edges": list(edges), "ends": list(ends), "locomotives": loco}


def mountain(*edges: str, nuggets: int = 0) -> dict[str, Any]:
    """A mountain segment holding whole edges (``"N"``, ``"E"``...)."""
    return {"kind": "mountain", "edges": [p for e in edges for p in EDGE_PLACES[e]], "nuggets": nuggets}


def city(*rails: int) -> dict[str, Any]:
    """A city segment (no edges) with the indices of its rails."""
    return {"kind": "city", "edges": [], "links": list(rails)}


def tile(tid: str, *segments: dict[str, Any], count: int = 10,
         prairie: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """A tile entry: ``segments`` plus prairie segments filling the free places.

    ``prairie`` maps a place name to the symbols of the prairie holding it.
    """
    taken = {p for s in segments for p in s["edges"]}
    free = [i for i, p in enumerate(POSITIONS) if p not in taken]
    runs: list[list[int]] = []
    if free:
        # start a run after a taken place so that a run wrapping past WNW->NNW stays whole
        start = next((i for i in range(12) if POSITIONS[i - 1] in taken), 0) if taken else 0
        order = [(start + k) % 12 for k in range(12)]
        current: list[int] = []
        for i in order:
            if POSITIONS[i] in taken:
                if current:
                    runs.append(current)
                current = []
            else:
                current.append(i)
        if current:
            runs.append(current)
    segs = list(segments)
    for run in runs:
        names = [POSITIONS[i] for i in sorted(run)]
        seg: dict[str, Any] = {"kind": "prairie", "edges": names, "tipis": 0, "horses": 0}
        for place, sym in (prairie or {}).items():
            if place in names:
                seg.update(sym)
        segs.append(seg)
    return {"id": tid, "design": tid, "count": count, "segments": segs}


def kit_tiles(count: int = 10) -> list[dict[str, Any]]:
    """The kit's tile entries, ``count`` copies each."""
    t = [
        tile("P", count=count),
        tile("R", rail("W", "E"), count=count),
        tile("RL", rail("W", "E", loco=1), count=count),
        tile("T", rail("W", ends=["junction"]), count=count),
        tile("J4", rail("N", ends=["junction"]), rail("E", ends=["junction"]), rail("S", ends=["junction"]),
             rail("W", ends=["junction"]), count=count),
        tile("CV", rail("E", "S"), count=count),
        tile("C3", rail("W", ends=["city"]), rail("S", ends=["city"]), rail("E", ends=["city"]), city(0, 1, 2),
             count=count),
        tile("RM", rail("W", ends=["mountain"]), mountain("E"), count=count),
        tile("MNS", mountain("N", nuggets=1), mountain("S", nuggets=1), count=count),
        tile("RA", rail("W", "E"), prairie={"N": {"tipis": 1}, "S": {"tipis": 1}}, count=count),
        tile("RB", rail("W", "E"), prairie={"N": {"horses": 1}, "S": {"tipis": 1}}, count=count),
        tile("RC1", rail("W", "E"), prairie={"N": {"tipis": 2, "horses": 1}}, count=count),
        tile("RC2", rail("W", "E"), prairie={"N": {"horses": 2}}, count=count),
    ]
    t += [tile(f"M{k}", mountain("E", nuggets=k), count=count) for k in range(6)]
    t += [tile(f"MM{k}", mountain("W", "E", nuggets=k), count=count) for k in range(1, 4)]
    t.append(tile("MA", mountain("N", "E", "S", "W", nuggets=3), count=count))
    return t


def kit(start: str = "P", count: int = 10, tokens: dict[str, int] | None = None,
        counts: dict[str, int] | None = None, only: Iterable[str] | None = None) -> TileSet:
    """The kit tile set: ``start`` tile, ``count`` copies of each id (``counts`` overrides per id).

    ``only`` keeps just those ids (plus the start).  ``tokens`` defaults to the Gold Rush supply.
    """
    tiles = kit_tiles(count)
    if only is not None:
        keep = set(only) | {start}
        tiles = [t for t in tiles if t["id"] in keep]
    for t in tiles:
        if counts and t["id"] in counts:
            t["count"] = counts[t["id"]]
    data = {"name": "kit", "game": "goldrush", "kinds": {"rail": "path", "mountain": "edge", "prairie": "field", "city": "centre"},
            "start": start, "tokens": dict(GOLD_RUSH_TOKENS if tokens is None else tokens), "tiles": tiles}
    return tileset_from_dict(data, "kit")


def game(players: Sequence[str] = ("red", "blue"), *, start: str = "P", options: Options = Options(),
         first: str | None = None, **kit_args: Any) -> GoldRushState:
    """A new game on the kit."""
    return GoldRushState.new(kit(start, **kit_args), list(players), options, first=first)
