"""Write grn/games/carcassonne/tileset.json from one table row per tile (docs/tileset.md, "The Carcassonne tile set").

BASE: the 24 designs A-X of the base game; GOLD: the 8 tiles of The Gold Mines.  Segments: ("city", edges,
pennants), ("road", edges, ends), ("field", half edges, indices of the cities it borders), ("cloister",);
JCloisterZone half-edge names (NL = the west half of the north edge, ...); an all-field edge middle joins the
field that holds both its halves.
"""

import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "grn" / "games" / "carcassonne" / "tileset.json"
HALF = {"NL": "NNW", "NR": "NNE", "EL": "ENE", "ER": "ESE", "SL": "SSE", "SR": "SSW", "WL": "WSW", "WR": "WNW"}
EDGE = {"N": ["NNW", "N", "NNE"], "E": ["ENE", "E", "ESE"], "S": ["SSE", "S", "SSW"], "W": ["WSW", "W", "WNW"]}
# id, count, N E S W, jcz, name, segments
# segments: ("city", "N W", pennants) ("road", "E S", ends) ("field", "EL SR", [city seg idx]) ("cloister",)
BASE = [
 ("A", 2, "FFRF", "BA/LR", "cloister with a road leaving south", [("cloister",), ("road", "S", ["cloister"]), ("field", "NL NR EL ER SL SR WL WR", [])]),
 ("B", 4, "FFFF", "BA/L", "cloister in a field", [("cloister",), ("field", "NL NR EL ER SL SR WL WR", [])]),
 ("C", 1, "CCCC", "BA/Cccc+", "city on all four edges, with a pennant", [("city", "N E S W", 1)]),
 ("D", 4, "CRFR", "BA/RCr", "city on the north edge, straight road west-east (the start tile)", [("city", "N", 0), ("road", "W E", []), ("field", "WR EL", [0]), ("field", "ER SL SR WL", [])]),
 ("E", 5, "CFFF", "BA/C", "city on the north edge", [("city", "N", 0), ("field", "EL ER SL SR WL WR", [0])]),
 ("F", 2, "FCFC", "BA/CFc+", "city joining west and east, with a pennant", [("city", "W E", 1), ("field", "NL NR", [0]), ("field", "SL SR", [0])]),
 ("G", 1, "FCFC", "BA/CFc.1", "city joining west and east", [("city", "W E", 0), ("field", "NL NR", [0]), ("field", "SL SR", [0])]),
 ("H", 3, "CFCF", "BA/CFC.2", "two cities, north and south, apart", [("city", "N", 0), ("city", "S", 0), ("field", "WL WR EL ER", [0, 1])]),
 ("I", 2, "CFFC", "BA/CC.2", "two cities, north and west, apart", [("city", "N", 0), ("city", "W", 0), ("field", "EL ER SL SR", [0, 1])]),
 ("J", 3, "CRRF", "BA/CRr", "city north, road curving east-south", [("city", "N", 0), ("road", "E S", []), ("field", "EL SR WL WR", [0]), ("field", "ER SL", [])]),
 ("K", 3, "CFRR", "BA/RrC", "city north, road curving south-west", [("city", "N", 0), ("road", "S W", []), ("field", "WR EL ER SL", [0]), ("field", "WL SR", [])]),
 ("L", 3, "CRRR", "BA/CRRR", "city north, junction of three roads", [("city", "N", 0), ("road", "E", ["junction"]), ("road", "S", ["junction"]), ("road", "W", ["junction"]), ("field", "WR EL", [0]), ("field", "WL SR", []), ("field", "ER SL", [])]),
 ("M", 2, "CFFC", "BA/Cc+", "city joining north and west, with a pennant", [("city", "N W", 1), ("field", "EL ER SL SR", [0])]),
 ("N", 3, "CFFC", "BA/Cc.1", "city joining north and west", [("city", "N W", 0), ("field", "EL ER SL SR", [0])]),
 ("O", 2, "CRRC", "BA/CcRr+", "city joining north and west with a pennant, road curving east-south", [("city", "N W", 1), ("road", "E S", []), ("field", "EL SR", [0]), ("field", "ER SL", [])]),
 ("P", 3, "CRRC", "BA/CcRr", "city joining north and west, road curving east-south", [("city", "N W", 0), ("road", "E S", []), ("field", "EL SR", [0]), ("field", "ER SL", [])]),
 ("Q", 1, "CCFC", "BA/Ccc+", "city on three edges, with a pennant", [("city", "N E W", 1), ("field", "SL SR", [0])]),
 ("R", 3, "CCFC", "BA/Ccc", "city on three edges", [("city", "N E W", 0), ("field", "SL SR", [0])]),
 ("S", 2, "CCRC", "BA/CccR+", "city on three edges with a pennant, a road leaving south", [("city", "N E W", 1), ("road", "S", ["city"]), ("field", "SL", [0]), ("field", "SR", [0])]),
 ("T", 1, "CCRC", "BA/CccR", "city on three edges, a road leaving south", [("city", "N E W", 0), ("road", "S", ["city"]), ("field", "SL", [0]), ("field", "SR", [0])]),
 ("U", 8, "FRFR", "BA/RFr", "straight road west-east", [("road", "W E", []), ("field", "WR NL NR EL", []), ("field", "ER SL SR WL", [])]),
 ("V", 9, "FFRR", "BA/Rr", "road curving south-west", [("road", "W S", []), ("field", "WR NL NR EL ER SL", []), ("field", "SR WL", [])]),
 ("W", 4, "FRRR", "BA/RRR", "junction of three roads", [("road", "E", ["junction"]), ("road", "S", ["junction"]), ("road", "W", ["junction"]), ("field", "WR NL NR EL", []), ("field", "ER SL", []), ("field", "SR WL", [])]),
 ("X", 1, "RRRR", "BA/RRRR", "crossroads of four roads", [("road", "N", ["junction"]), ("road", "E", ["junction"]), ("road", "S", ["junction"]), ("road", "W", ["junction"]), ("field", "WR NL", []), ("field", "NR EL", []), ("field", "ER SL", []), ("field", "SR WL", [])]),
]
GOLD = [
 ("GM1", 1, "FRRF", "GO/LRr", "cloister beside a road curving east-south", [("cloister",), ("road", "E S", []), ("field", "NL NR EL SR WL WR", []), ("field", "ER SL", [])]),
 ("GM2", 1, "CFFC", "GO/LCc", "cloister below a city joining north and west", [("cloister",), ("city", "N W", 0), ("field", "SL SR EL ER", [1])]),
 ("GM3", 1, "CRRC", "GO/LCcRr", "cloister, city joining north and west, road curving east-south", [("cloister",), ("city", "N W", 0), ("road", "E S", []), ("field", "EL SR", [1]), ("field", "ER SL", [])]),
 ("GM4", 1, "RRRR", "GO/LRrRr", "cloister between two roads curving north-east and south-west", [("cloister",), ("road", "N E", []), ("road", "S W", []), ("field", "NR EL", []), ("field", "SR WL", []), ("field", "WR NL ER SL", [])]),
 ("GM5", 1, "RRRR", "GO/RrRr", "two roads curving north-west and south-east", [("road", "N W", []), ("road", "S E", []), ("field", "NL WR", []), ("field", "SL ER", []), ("field", "NR EL SR WL", [])]),
 ("GM6", 1, "CRRC", "GO/CcRr", "city joining north and west, road curving east-south", [("city", "N W", 0), ("road", "E S", []), ("field", "EL SR", [0]), ("field", "ER SL", [])]),
 ("GM7", 1, "RCRC", "GO/CRcr", "city joining west and east, a road north-south crossing it", [("city", "W E", 0), ("road", "N S", []), ("field", "NL", [0]), ("field", "NR", [0]), ("field", "SL", [0]), ("field", "SR", [0])]),
 ("GM8", 1, "RRRR", "GO/RRrr.X", "two straight roads crossing without a junction", [("road", "N S", []), ("road", "W E", []), ("field", "WR NL", []), ("field", "NR EL", []), ("field", "ER SL", []), ("field", "SR WL", [])]),
]

def tile(tid, count, edges, jcz, name, segs, gold):
    out = []
    for seg in segs:
        kind = seg[0]
        if kind == "cloister":
            out.append({"kind": "cloister", "edges": []})
        elif kind == "city":
            d = {"kind": "city", "edges": [p for e in seg[1].split() for p in EDGE[e]]}
            if seg[2]:
                d["pennants"] = seg[2]
            out.append(d)
        elif kind == "road":
            d = {"kind": "road", "edges": seg[1].split()}
            if seg[2]:
                d["ends"] = seg[2]
            out.append(d)
        else:
            halves = [HALF[h] for h in seg[1].split()]
            places = list(halves)
            for i, e in enumerate("NESW"):
                if edges[i] == "F" and EDGE[e][0] in halves:
                    assert EDGE[e][2] in halves, (tid, e)
                    places.append(e)
            order = ["NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"]
            d = {"kind": "field", "edges": sorted(places, key=order.index)}
            if seg[2]:
                d["borders"] = seg[2]
            out.append(d)
    t = {"id": tid, "design": tid, "count": count, "name": name, "notes": f"JCloisterZone id {jcz}; edges N E S W: {' '.join(edges)}"}
    if gold:
        t["marks"] = ["ingot"]
    t["segments"] = out
    return t

tiles = [tile(*b, False) for b in BASE] + [tile(*g, True) for g in GOLD]
data = {
 "name": "carcassonne",
 "game": "carcassonne",
 "description": "Carcassonne (base game): the 72 land tiles, designs A-X as the rules' tile overview letters them (start tile D), and the 8 tiles of The Gold Mines (GM1-GM8, marked 'ingot'; in the bag only with the goldmines option). Cities are walled edges (pennants a symbol), roads are paths ending at a junction, a city or a cloister, cloisters sit in the centre; each field lists in 'borders' the cities it lies beside (farmers score them). Data from JCloisterZone's basic and goldmines tile lists, checked against the rules' tile overview.",
 "kinds": {"road": "path", "city": "edge", "field": "field", "cloister": "centre"},
 "symbols": ["pennants"],
 "total": 80,
 "start": "D",
 "tiles": tiles,
}
s = json.dumps(data, indent=2, ensure_ascii=False)
OUT.write_text(s + "\n", encoding="utf-8")
print(f"wrote {OUT}: {sum(t['count'] for t in tiles)} tiles")
