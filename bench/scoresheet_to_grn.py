"""A Carcassonne score sheet of sash2104/carcassonne (JSON, ``doc/score_sheet_format.md`` there) as a GRN record.

    .venv/bin/python bench/scoresheet_to_grn.py SHEET.json TILES.json [--event TEXT] [--source TEXT] > GAME.grn

Used once, for the final of the Japanese Carcassonne championship 2015 (``tests/data/japan-2015-final.grn``,
docs/dev/journal/analysis.md "Validity, round seven"); kept so that the conversion can be checked and repeated.  The
sheet's conventions, read from its format description and tile list: ``x`` grows east and ``y`` north from
the start tile; ``rotation`` counts clockwise quarter turns; a tile's four edges are listed N E S W and its
eight half edges clockwise from the west half of the north edge; a follower names a segment of its tile by
kind and index.  Each turn's tile is matched to grn's design of the same letter by the kinds of its four edges
after the turn (the rotation that shows them), and the follower's segment is written as a place of the board's
frame (``+NNE``), which is the same whichever equal rotation is chosen.  Every turn is validated by
``grn validate`` afterwards: a wrong convention would not give 71 legal turns.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EDGES = ("N", "E", "S", "W")
HALVES = (("NNW", "NNE"), ("ENE", "ESE"), ("SSE", "SSW"), ("WSW", "WNW"))


def sheet_edges(tile: dict[str, Any]) -> list[str]:
    """The sheet tile's edge kinds N E S W, unturned."""
    return ["city" if tile["cities"][i] >= 0 else "road" if tile["roads"][i] >= 0 else "field" for i in range(4)]


def grn_edges(design: dict[str, Any]) -> list[str]:
    """grn's design's edge kinds N E S W, unturned (an edge middle a road or a city holds)."""
    kinds = ["field"] * 4
    for seg in design["segments"]:
        for e in seg.get("edges", []):
            if e in EDGES and seg["kind"] in ("city", "road"):
                kinds[EDGES.index(e)] = seg["kind"]
    return kinds


def turned(kinds: list[str], quarters: int) -> list[str]:
    """Edge kinds N E S W after ``quarters`` clockwise quarter turns."""
    return [kinds[(i - quarters) % 4] for i in range(4)]


def convert(sheet: dict[str, Any], tiles: dict[str, dict[str, Any]], event: str, source: str) -> str:
    designs = {t["id"]: t for t in json.loads((ROOT / "grn/games/carcassonne/tileset.json").read_text())["tiles"]}

    def rotation(name: str, quarters: int) -> int:
        want = turned(sheet_edges(tiles[name]), quarters)
        for q in range(4):
            if turned(grn_edges(designs[name]), q) == want:
                return 90 * q
        raise SystemExit(f"tile {name} turned {quarters}: no rotation of grn's design shows edges {want}")

    players = sheet["info"]["players"]
    colours = {p["name"]: p["color"] for p in players}
    first = sheet["placements"][0]
    turn0 = rotation(first["tile"], first.get("tilePlacement", {}).get("rotation", 0))
    start = f'{first["tile"]}@0,0' + (f":{turn0}" if turn0 else "")
    seats = ", ".join(f"{p['name']} ({p['color']})" for p in players)
    lines = ['[Game "carcassonne"]', f'[Players "{seats}"]',
             f'[Event "{event}"]', f'[Start "{start}"]', "", "{" + source + "}"]
    for p in sheet["placements"][1:]:
        tile, place = p["tile"], p["tilePlacement"]
        q = place.get("rotation", 0)
        rot = rotation(tile, q)
        move = f"{tile}@{place.get('x', 0)},{place.get('y', 0)}" + (f":{rot}" if rot else "")
        meeple = p.get("meeplePlacement")
        if meeple:
            kind, index = meeple["segmentType"], meeple["segmentIndex"]
            spec = tiles[tile]
            if kind == "cloister":
                where = "C"
            elif kind in ("city", "road"):
                edge = spec["cities" if kind == "city" else "roads"].index(index)
                where = EDGES[(edge + q) % 4]
            else:
                half = spec["fields"].index(index)
                where = HALVES[(half // 2 + q) % 4][half % 2]
            move += f" +{where}"
        lines.append(f"{p['turn']}. {colours[p['player']]} {move}")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sheet")
    ap.add_argument("tiles")
    ap.add_argument("--event", default="")
    ap.add_argument("--source", default="")
    args = ap.parse_args()
    tiles = {t["name"]: t for t in json.loads(Path(args.tiles).read_text())}
    sys.stdout.write(convert(json.loads(Path(args.sheet).read_text()), tiles, args.event, args.source))


if __name__ == "__main__":
    main()
