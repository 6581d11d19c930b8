"""Drawing one tile design at any rotation, from its data alone.

A tile is drawn in its own 100 x 100 box (y down, north up) *after* turning:
the places of each segment are turned with :func:`grn.games.tiling.places.rotate_place` and
the picture is built from them, so symbols and text stay upright at every
rotation and any tile set draws.  Layers, bottom to top: prairie ground,
mountain regions (whole edges, polygons reaching towards the centre; several
edges of one mountain meet in the middle), railroads (edge middle to edge
middle, or to a junction, city or mountain inside the tile), junction marks,
cities (a town block in the centre), then the symbols: gold nuggets (one icon
per nugget), locomotives, tipi camps and horse herds.

:func:`tile_drawing` returns the SVG fragment (cached per design and
rotation); :func:`segment_anchor` says where a piece standing on a segment is
drawn.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Iterable

from grn.render import style as st
from grn.games.goldrush import palette as pal
from grn.render.style import lump as nugget, num, pts
from grn.games.tiling.tiles import EDGE_MIDDLES, TileDesign

T = st.TILE
C = (T / 2, T / 2)
#: Where each of the twelve places sits on the tile's border.
PLACE_XY: tuple[tuple[float, float], ...] = (
    (25, 0), (50, 0), (75, 0), (100, 25), (100, 50), (100, 75),
    (75, 100), (50, 100), (25, 100), (0, 75), (0, 50), (0, 25),
)
#: Corners at the start and end of each edge, clockwise (N, E, S, W).
EDGE_CORNERS: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = (
    ((0, 0), (100, 0)), ((100, 0), (100, 100)), ((100, 100), (0, 100)), ((0, 100), (0, 0)),
)
#: Inward unit normal of each edge.
EDGE_NORMAL: tuple[tuple[float, float], ...] = ((0, 1), (-1, 0), (0, -1), (1, 0))


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _edge_point(e: int, t: float, depth: float) -> tuple[float, float]:
    """A point ``t`` (0..1) along edge ``e`` (clockwise) and ``depth`` units inwards."""
    a, b = EDGE_CORNERS[e]
    nx, ny = EDGE_NORMAL[e]
    x, y = _lerp(a, b, t)
    return (x + nx * depth, y + ny * depth)


# ----------------------------------------------------------------------------
# geometry of one design turned
# ----------------------------------------------------------------------------

class Geometry:
    """Where everything of a design turned ``rotation`` degrees lies (tile units)."""

    __slots__ = ("mountains", "mountain_inner", "mountain_anchor", "rails", "prairie_anchor",
                 "prairie_axis", "city_segments", "junction", "segment_places", "kinds")

    def __init__(self) -> None:
        self.mountains: dict[int, list[tuple[float, float]]] = {}
        self.mountain_inner: dict[int, list[tuple[float, float]]] = {}
        self.mountain_anchor: dict[int, tuple[tuple[float, float], tuple[float, float]]] = {}
        self.rails: dict[int, tuple[tuple[float, float], tuple[float, float], tuple[float, float],
                                    tuple[float, float]]] = {}
        self.prairie_anchor: dict[int, tuple[float, float]] = {}
        self.prairie_axis: dict[int, tuple[float, float]] = {}
        self.city_segments: list[int] = []
        self.junction = False
        self.segment_places: tuple[tuple[int, ...], ...] = ()
        self.kinds: tuple[str, ...] = ()


#: The inner outline of a one-edge mountain, as (t along the edge, depth).
_MOUND = ((0.90, 14), (0.78, 29), (0.64, 26), (0.5, 35), (0.36, 27), (0.22, 30), (0.10, 14))


def _mountain_polygon(edges: list[int]) -> tuple[list[tuple[float, float]], list[tuple[float, float]],
                                                   tuple[tuple[float, float], tuple[float, float]]]:
    """Outline, inner vertices (where rails may end) and (anchor, axis) of a mountain on ``edges``."""
    es = sorted(set(edges))
    if len(es) == 4:
        return ([(0, 0), (100, 0), (100, 100), (0, 100)], [C], (C, (1, 0)))
    if len(es) == 1:
        e = es[0]
        a, b = EDGE_CORNERS[e]
        inner = [_edge_point(e, t, d) for t, d in _MOUND]
        anchor = _edge_point(e, 0.5, 15)
        axis = (b[0] - a[0], b[1] - a[1])
        n = math.hypot(*axis)
        return ([a, b] + inner, inner, (anchor, (axis[0] / n, axis[1] / n)))
    # runs of consecutive edges (cyclic)
    inset = set(es)
    start = next((e for e in es if (e - 1) % 4 not in inset), es[0])
    runs: list[list[int]] = []
    e = start
    for _ in range(4):
        if e in inset:
            if runs and (e - 1) % 4 in inset and runs[-1] and runs[-1][-1] == (e - 1) % 4:
                runs[-1].append(e)
            else:
                runs.append([e])
        e = (e + 1) % 4
    outline: list[tuple[float, float]] = []
    inner_all: list[tuple[float, float]] = []
    for i, run in enumerate(runs):
        outline.append(EDGE_CORNERS[run[0]][0])
        for r in run:
            outline.append(EDGE_CORNERS[r][1])
        p = EDGE_CORNERS[run[-1]][1]
        q = EDGE_CORNERS[runs[(i + 1) % len(runs)][0]][0]
        a = _lerp(C, p, 0.2)
        b = _lerp(C, q, 0.2)
        mid = _lerp(a, b, 0.5)
        # a craggy line: p -> a -> mid -> b -> q with small zigzags
        for u, v in ((p, a),):
            m = _lerp(u, v, 0.5)
            dx, dy = v[0] - u[0], v[1] - u[1]
            n = math.hypot(dx, dy) or 1
            outline.append((m[0] - dy / n * 4, m[1] + dx / n * 4))
        outline += [a, mid, b]
        inner_all += [a, mid, b]
        m = _lerp(b, q, 0.5)
        dx, dy = q[0] - b[0], q[1] - b[1]
        n = math.hypot(dx, dy) or 1
        outline.append((m[0] + dy / n * 4, m[1] - dx / n * 4))
    # drop the duplicated closing corner (the first corner of the first run)
    mids = [(EDGE_CORNERS[e][0][0] + EDGE_CORNERS[e][1][0]) / 2 for e in es], \
           [(EDGE_CORNERS[e][0][1] + EDGE_CORNERS[e][1][1]) / 2 for e in es]
    ax, ay = sum(mids[0]) / len(es), sum(mids[1]) / len(es)
    if len(es) == 2 and (es[1] - es[0]) == 2:
        # a ridge through the middle: spread symbols along it
        axis = (0.0, 1.0) if es[0] == 0 else (1.0, 0.0)
        anchor = C
    else:
        anchor = _lerp(C, (ax, ay), 0.8) if len(es) == 2 else (ax, ay)
        axis = (1.0, 0.0)
    return outline, inner_all, (anchor, axis)


def _bezier(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float],
            p3: tuple[float, float], t: float) -> tuple[float, float]:
    u = 1 - t
    return (u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
            u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1])


def _edge_of_place(p: int) -> int:
    return p // 3




def _first_hit(a: tuple[float, float], b: tuple[float, float],
               polygons: list[list[tuple[float, float]]]) -> tuple[float, float] | None:
    """The first point on the way from ``a`` to ``b`` where it meets a polygon's outline (None: it meets none)."""
    best: tuple[float, tuple[float, float]] | None = None
    dx, dy = b[0] - a[0], b[1] - a[1]
    for poly in polygons:
        for (px, py), (qx, qy) in zip(poly, poly[1:] + poly[:1]):
            ex, ey = qx - px, qy - py
            den = dx * ey - dy * ex
            if abs(den) < 1e-9:
                continue
            t = ((px - a[0]) * ey - (py - a[1]) * ex) / den
            u = ((px - a[0]) * dy - (py - a[1]) * dx) / den
            if 0.02 < t <= 1.0 and 0.0 <= u <= 1.0 and (best is None or t < best[0]):
                best = (t, (a[0] + dx * t, a[1] + dy * t))
    return None if best is None else best[1]


@lru_cache(maxsize=4096)
def _geometry(design: TileDesign, rotation: int) -> Geometry:
    g = Geometry()
    o = design.orientation(rotation)
    g.segment_places = o.segment_places
    g.kinds = tuple(s.kind for s in design.segments)
    inner_points: list[tuple[float, float]] = []
    for si, seg in enumerate(design.segments):
        places = o.segment_places[si]
        if seg.kind == "mountain" or (seg.places and all(
                all(q in places for q in range(3 * (p // 3), 3 * (p // 3) + 3)) for p in places)
                and seg.kind not in ("prairie", "rail", "road", "field", "city")):
            edges = sorted({p // 3 for p in places})
            if not edges:
                continue
            poly, inner, anchor_axis = _mountain_polygon(edges)
            g.mountains[si] = poly
            g.mountain_inner[si] = inner
            g.mountain_anchor[si] = anchor_axis
            inner_points += inner
    for si, seg in enumerate(design.segments):
        places = o.segment_places[si]
        if seg.kind in ("rail", "road"):
            mids = [PLACE_XY[p] for p in places if p in EDGE_MIDDLES]
            ends = list(seg.ends)
            if len(mids) == 2:
                a, b = mids
                ea, eb = _edge_of_place(places[0]), _edge_of_place(places[1])
                if (ea - eb) % 2 == 0:
                    g.rails[si] = (a, _lerp(a, b, 1 / 3), _lerp(a, b, 2 / 3), b)
                else:
                    # quarter circle about the shared corner
                    k = 0.5523 * 50
                    na, nb = EDGE_NORMAL[ea], EDGE_NORMAL[eb]
                    g.rails[si] = (a, (a[0] + na[0] * k, a[1] + na[1] * k), (b[0] + nb[0] * k, b[1] + nb[1] * k), b)
            elif len(mids) == 1:
                a = mids[0]
                e = _edge_of_place(places[0])
                nx, ny = EDGE_NORMAL[e]
                end = ends[0] if ends else "junction"
                if end == "mountain" and inner_points:
                    # the track stops where it meets the mountain's foot, not inside the rock
                    hit = _first_hit(a, C, [poly for poly in g.mountains.values()])
                    if hit is not None:
                        g.rails[si] = (a, _lerp(a, hit, 1 / 3), _lerp(a, hit, 2 / 3), hit)
                    else:
                        aim = _lerp(a, C, 0.7)
                        target = min(inner_points, key=lambda q: (q[0] - aim[0]) ** 2 + (q[1] - aim[1]) ** 2)
                        c1 = (a[0] + nx * 22, a[1] + ny * 22)
                        g.rails[si] = (a, c1, _lerp(c1, target, 0.5), target)
                else:
                    g.rails[si] = (a, _lerp(a, C, 1 / 3), _lerp(a, C, 2 / 3), C)
                    if end != "city":
                        g.junction = True
            elif ends:
                g.rails[si] = (C, C, C, C)
        elif seg.kind == "city" or (not places and seg.kind not in ("rail", "road")):
            g.city_segments.append(si)
    for si, seg in enumerate(design.segments):
        if si in g.mountains or si in g.rails or si in g.city_segments:
            continue
        places = o.segment_places[si]
        if not places:
            continue
        ax = sum(PLACE_XY[p][0] for p in places) / len(places)
        ay = sum(PLACE_XY[p][1] for p in places) / len(places)
        anchor = _lerp((ax, ay), C, 0.35)
        dx, dy = anchor[0] - C[0], anchor[1] - C[1]
        if abs(dx) < 1 and abs(dy) < 1:
            axis = (1.0, 0.0)
        else:
            n = math.hypot(dx, dy)
            axis = (abs(dy) / n, abs(dx) / n)
        g.prairie_anchor[si] = anchor
        g.prairie_axis[si] = axis
    return g


def geometry(design: TileDesign, rotation: int) -> Geometry:
    """The cached :class:`Geometry` of ``design`` turned ``rotation`` degrees."""
    return _geometry(design, rotation % 360)


def rail_point(design: TileDesign, rotation: int, si: int, t: float) -> tuple[float, float]:
    """A point ``t`` (0..1) along rail segment ``si``."""
    p = geometry(design, rotation).rails[si]
    return _bezier(*p, t)


def segment_anchor(design: TileDesign, rotation: int, si: int) -> tuple[float, float]:
    """Where a piece standing on segment ``si`` of the turned design is drawn (tile units)."""
    g = geometry(design, rotation)
    seg = design.segments[si]
    if si in g.rails:
        return rail_point(design, rotation, si, 0.42 if seg.count("locomotives") else 0.5)
    if si in g.mountains:
        return g.mountain_anchor[si][0]
    if si in g.city_segments:
        return C
    if si in g.prairie_anchor:
        ax, ay = g.prairie_anchor[si]
        n = seg.count("tipis") + seg.count("horses")
        if n:
            # beside the symbols, nearer the border
            bx, by = _lerp((ax, ay), PLACE_XY[g.segment_places[si][len(g.segment_places[si]) // 2]], 0.45)
            return (bx, by)
        return (ax, ay)
    return C



#: Half the size of a drawn nugget (scale 1.15, with its outline) and of a tent (scale 1.2, with its halo):
#: what must not overlap.
NUGGET_HALF = 7.5
TENT_BOX = (-16.5, -19.0, 16.5, 12.0)


def nugget_spots(design: TileDesign, rotation: int, si: int) -> list[tuple[float, float]]:
    """Where the nugget symbols of mountain segment ``si`` are printed on the turned design (tile units)."""
    g = geometry(design, rotation)
    if si not in g.mountain_anchor:
        return []
    anchor, axis = g.mountain_anchor[si]
    return _spread(anchor, axis, design.segments[si].count("nuggets"), 14.5)


def tent_anchor(design: TileDesign, rotation: int, si: int) -> tuple[float, float]:
    """Where a tent on segment ``si`` is drawn: beside the piece standing there and clear of the nugget
    symbols printed on the tile (a tent must not hide how many nuggets a mountain has), inside the tile."""
    ax, ay = segment_anchor(design, rotation, si)
    spots = nugget_spots(design, rotation, si)
    x0, y0, x1, y1 = TENT_BOX

    def clear(cx: float, cy: float) -> bool:
        if cx + x0 < 0 or cy + y0 < 0 or cx + x1 > 100 or cy + y1 > 100:
            return False
        boxes = [(nx - NUGGET_HALF, ny - NUGGET_HALF, nx + NUGGET_HALF, ny + NUGGET_HALF) for nx, ny in spots]
        boxes.append((ax - 8, ay - 10, ax + 8, ay + 10))  # the cowboy standing on the anchor
        return not any(cx + x0 < bx1 and bx0 < cx + x1 and cy + y0 < by1 and by0 < cy + y1
                       for bx0, by0, bx1, by1 in boxes)

    candidates = [(ax - 18, ay + 4), (ax + 18, ay + 4)]
    candidates += [(ax + dx, ay + dy) for dist in (24, 32, 40) for dx, dy in
                   ((0, dist), (0, -dist), (-dist, 0), (dist, 0), (-dist, dist), (dist, dist), (-dist, -dist),
                    (dist, -dist))]
    candidates += [(x, y) for y in (18, 50, 82) for x in (18, 50, 82)]
    return next((c for c in candidates if clear(*c)), candidates[0])


# ----------------------------------------------------------------------------
# symbols (centred on (x, y), drawn upright)
# ----------------------------------------------------------------------------

def tipi(x: float, y: float, s: float = 1.0) -> str:
    def P(dx: float, dy: float) -> str:
        return f"{num(x + dx * s)},{num(y + dy * s)}"
    return (f'<polygon points="{P(-7.5, 7)} {P(0, -7)} {P(7.5, 7)}" fill="{pal.TIPI}" stroke="{pal.TIPI_LINE}" '
            f'stroke-width="{num(1.2 * s)}" stroke-linejoin="round"/>'
            f'<path d="M{P(-3, -10.5)} L{P(1.8, -4)} M{P(3, -10.5)} L{P(-1.8, -4)}" stroke="{pal.TIPI_LINE}" '
            f'stroke-width="{num(1.1 * s)}" stroke-linecap="round"/>'
            f'<path d="M{P(-4.6, 1.5)} L{P(4.6, 1.5)}" stroke="{pal.TIPI_BAND}" stroke-width="{num(1.6 * s)}"/>'
            f'<polygon points="{P(-2.2, 7)} {P(0, 2.8)} {P(2.2, 7)}" fill="{pal.TIPI_LINE}"/>')


def horse(x: float, y: float, s: float = 1.0) -> str:
    def P(dx: float, dy: float) -> str:
        return f"{num(x + dx * s)},{num(y + dy * s)}"
    body = (f'M{P(-6.5, -1)} C{P(-6.5, -4)} {P(4, -4.2)} {P(4.5, -2)} L{P(7, -7.5)} L{P(10, -6)} '
            f'L{P(9.5, -4.8)} L{P(7.3, -4.6)} L{P(6, 1)} C{P(4, 3)} {P(-5, 3)} {P(-6.5, -1)} Z')
    legs = (f'M{P(-5, 1)} L{P(-6, 7)} M{P(-2.5, 1.5)} L{P(-2, 7)} M{P(2, 1.5)} L{P(1.5, 7)} '
            f'M{P(4.5, 1)} L{P(5.5, 7)} M{P(-6.5, -1.5)} Q{P(-10, -1)} {P(-9.5, 4)}')
    return (f'<path d="{legs}" stroke="{pal.HORSE_DARK}" stroke-width="{num(1.5 * s)}" fill="none" '
            f'stroke-linecap="round"/>'
            f'<path d="{body}" fill="{pal.HORSE}" stroke="{pal.HORSE_DARK}" stroke-width="{num(0.9 * s)}" '
            f'stroke-linejoin="round"/>'
            f'<path d="M{P(6.3, -6)} L{P(4.2, -2.5)}" stroke="{pal.HORSE_DARK}" stroke-width="{num(1.2 * s)}"/>')


def locomotive(x: float, y: float, s: float = 1.0) -> str:
    def R(dx: float, dy: float, w: float, h: float, fill: str, extra: str = "") -> str:
        return (f'<rect x="{num(x + dx * s)}" y="{num(y + dy * s)}" width="{num(w * s)}" height="{num(h * s)}" '
                f'fill="{fill}"{extra}/>')
    out = [
        R(-10, -8, 7, 10, pal.LOCO, ' rx="0.8"'),
        R(-11, -9.5, 9, 2.2, pal.LOCO_TRIM),
        R(-3.5, -4.5, 11, 6.5, pal.LOCO, ' rx="2"'),
        R(3, -9, 3, 5, pal.LOCO),
        R(2.2, -10.2, 4.6, 1.8, pal.LOCO_TRIM),
        R(-8.6, -6.4, 3.8, 3.4, "#f4d27a"),
    ]
    out.append(f'<polygon points="{num(x + 7.5 * s)},{num(y)} {num(x + 11 * s)},{num(y + 5 * s)} '
               f'{num(x + 7.5 * s)},{num(y + 5 * s)}" fill="{pal.LOCO_TRIM}"/>')
    for wx, r in ((-7, 2.8), (-1, 2.3), (4, 2.3)):
        out.append(f'<circle cx="{num(x + wx * s)}" cy="{num(y + 4 * s)}" r="{num(r * s)}" fill="{pal.LOCO}" '
                   f'stroke="#bbbbbb" stroke-width="{num(0.8 * s)}"/>')
    return "".join(out)


def city(x: float, y: float, s: float = 1.0) -> str:
    out = [f'<rect x="{num(x - 19 * s)}" y="{num(y - 16 * s)}" width="{num(38 * s)}" height="{num(32 * s)}" '
           f'rx="{num(4 * s)}" fill="{pal.CITY_GROUND}" stroke="{pal.CITY_LINE}" stroke-width="{num(1.5 * s)}"/>']
    for dx, dy, w in ((-15, -12, 12), (1, -13, 13), (-14, 2, 11), (2, 1, 12)):
        h = 8
        bx, by = x + dx * s, y + dy * s
        out.append(f'<rect x="{num(bx)}" y="{num(by + 4 * s)}" width="{num(w * s)}" height="{num(h * s)}" '
                   f'fill="{pal.CITY_WALL}" stroke="{pal.CITY_LINE}" stroke-width="{num(0.9 * s)}"/>')
        out.append(f'<polygon points="{num(bx - 1 * s)},{num(by + 4 * s)} {num(bx + w * s / 2)},{num(by - 1 * s)} '
                   f'{num(bx + (w + 1) * s)},{num(by + 4 * s)}" fill="{pal.CITY_ROOF}" stroke="{pal.CITY_LINE}" '
                   f'stroke-width="{num(0.9 * s)}" stroke-linejoin="round"/>')
        out.append(f'<rect x="{num(bx + w * s / 2 - 1.3 * s)}" y="{num(by + 8 * s)}" width="{num(2.6 * s)}" '
                   f'height="{num(4 * s)}" fill="{pal.CITY_LINE}"/>')
    return "".join(out)


def junction(x: float, y: float, s: float = 1.0) -> str:
    return (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(8 * s)}" fill="{pal.JUNCTION}" stroke="{pal.RAIL_STEEL}" '
            f'stroke-width="{num(1.5 * s)}"/><circle cx="{num(x)}" cy="{num(y)}" r="{num(3.2 * s)}" '
            f'fill="{pal.RAIL_BED}"/>')


def peak(x: float, y: float, s: float = 1.0) -> str:
    return (f'<polygon points="{num(x - 8 * s)},{num(y + 5 * s)} {num(x)},{num(y - 7 * s)} {num(x + 8 * s)},{num(y + 5 * s)}" '
            f'fill="{pal.MOUNTAIN_ROCK}" stroke="{pal.MOUNTAIN_DARK}" stroke-width="{num(0.9 * s)}" '
            f'stroke-linejoin="round"/>'
            f'<polygon points="{num(x - 2.7 * s)},{num(y - 3 * s)} {num(x)},{num(y - 7 * s)} {num(x + 2.7 * s)},{num(y - 3 * s)} '
            f'{num(x + 1 * s)},{num(y - 2 * s)} {num(x - 0.8 * s)},{num(y - 3.2 * s)}" fill="{pal.MOUNTAIN_SNOW}"/>')


def _spread(anchor: tuple[float, float], axis: tuple[float, float], n: int,
            gap: float) -> list[tuple[float, float]]:
    x, y = anchor
    vx, vy = axis
    return [(x + vx * gap * (i - (n - 1) / 2), y + vy * gap * (i - (n - 1) / 2)) for i in range(n)]


def _rail_path(p: tuple[tuple[float, float], ...]) -> str:
    a, c1, c2, b = p
    return f"M{num(a[0])},{num(a[1])} C{num(c1[0])},{num(c1[1])} {num(c2[0])},{num(c2[1])} {num(b[0])},{num(b[1])}"


# ----------------------------------------------------------------------------
# the whole tile
# ----------------------------------------------------------------------------

_DRAWINGS: dict[tuple[object, int, str | None], str] = {}

#: The symbols a tile may carry, each drawn centred on (0, 0): a page of many tiles defines each once.
ICONS: dict[str, Callable[..., str]] = {}


def tile_drawing(design: TileDesign, rotation: int = 0, icons: str | None = None) -> str:
    """The SVG fragment of ``design`` turned ``rotation`` degrees, in a 0..100 box (cached).

    ``icons``: the symbols are ``<use>`` of ``#{icons}NAME`` (what :func:`icon_defs` defines) instead
    of drawn in full, for a page that shows many tiles.
    """
    key = (design.segments, rotation % 360, icons)
    got = _DRAWINGS.get(key)
    if got is None:
        got = _DRAWINGS[key] = _draw(design, rotation % 360, icons)
    return got


def icon_defs(prefix: str) -> str:
    """``<g id="{prefix}NAME">`` for each symbol a tile may carry (for :func:`tile_drawing`'s ``icons``)."""
    rails = "".join(f".{prefix}r{k}{{fill:none;stroke:{colour};stroke-width:{w};stroke-linecap:butt{extra}}}"
                    for k, (colour, w, extra) in enumerate(_RAIL_STROKES))
    return (f"<style>{rails}</style>"
            + "".join(f'<g id="{prefix}{name}">{draw(0, 0, 1.0)}</g>' for name, draw in ICONS.items()))


#: A railroad's strokes, bottom to top: bed, sleepers, steel, and the bed again between the rails.
_RAIL_STROKES = ((pal.RAIL_BED, "13", ""), (pal.RAIL_SLEEPER, "11", ";stroke-dasharray:2.6 3.4"),
                 (pal.RAIL_STEEL, "6.5", ""), (pal.RAIL_BED, "3.3", ""))


def _symbol(name: str, draw: Callable[..., str], x: float, y: float, s: float, icons: str | None) -> str:
    if icons is None:
        return draw(x, y, s)
    if x == 0 and y == 0 and s == 1:
        return f'<use xlink:href="#{icons}{name}"/>'
    scale = "" if s == 1 else f" scale({num(s)})"
    return f'<use xlink:href="#{icons}{name}" transform="translate({num(x)},{num(y)}){scale}"/>'


def _draw(design: TileDesign, rotation: int, icons: str | None = None) -> str:
    g = geometry(design, rotation)
    out: list[str] = [_symbol("ground", _ground, 0, 0, 1.0, icons)]
    # mountains
    for si, poly in g.mountains.items():
        out.append(f'<polygon points="{pts(poly)}" fill="{pal.MOUNTAIN}" stroke="{pal.MOUNTAIN_DARK}" '
                   f'stroke-width="1.6" stroke-linejoin="round"/>')
    peaks: list[tuple[float, float, float]] = []
    for si in g.mountains:
        edges = sorted({p // 3 for p in g.segment_places[si]})
        cand: list[tuple[float, float, float]]
        if len(edges) == 4:
            cand = [(20, 18, 1.0), (80, 18, 1.0), (20, 84, 1.0), (80, 84, 1.0)]
        else:
            cand = []
            for e in edges:
                for t in (0.17, 0.83):
                    x, y = _edge_point(e, t, 12)
                    cand.append((x, y, 0.9))
        for x, y, s in cand:
            if all((x - a) ** 2 + (y - b) ** 2 > 14 ** 2 for a, b, _ in peaks):
                peaks.append((x, y, s))
    out += [_symbol("peak", peak, x, y, s, icons) for x, y, s in peaks]
    # rails
    paths = [_rail_path(p) for p in g.rails.values() if p[0] != p[3]]
    if paths and icons is not None:
        # a page of many tiles: the rail's four strokes are classes its <style> defines once (icon_defs); the
        # path is written once and used for the three strokes above the bed (its strokes are inherited: the
        # path has none of its own), a third of the tile's art on a page of many tiles (R431)
        d = " ".join(paths)
        rail = f"{icons}rl{len(_DRAWINGS)}"  # one id a drawing: each is made once (tile_drawing's cache)
        out.append(f'<g class="{icons}r0"><path id="{rail}" d="{d}"/></g>'
                   + "".join(f'<use xlink:href="#{rail}" class="{icons}r{k}"/>' for k in range(1, 4)))
    elif paths:
        d = " ".join(paths)
        out.append(f'<path d="{d}" fill="none" stroke="{pal.RAIL_BED}" stroke-width="13" stroke-linecap="butt"/>')
        out.append(f'<path d="{d}" fill="none" stroke="{pal.RAIL_SLEEPER}" stroke-width="11" '
                   f'stroke-dasharray="2.6 3.4" stroke-linecap="butt"/>')
        out.append(f'<path d="{d}" fill="none" stroke="{pal.RAIL_STEEL}" stroke-width="6.5" stroke-linecap="butt"/>')
        out.append(f'<path d="{d}" fill="none" stroke="{pal.RAIL_BED}" stroke-width="3.3" stroke-linecap="butt"/>')
    if g.junction:
        out.append(_symbol("junction", junction, *C, 1.0, icons))
    for si in g.city_segments:
        out.append(_symbol("city", city, *C, 1.0, icons))
    # symbols
    for si, (anchor, axis) in g.mountain_anchor.items():
        n = design.segments[si].count("nuggets")
        if n:
            for x, y in _spread(anchor, axis, n, 14.5):
                out.append(_symbol("nugget", nugget, x, y, 1.15, icons))
    for si, p in g.rails.items():
        n = design.segments[si].count("locomotives")
        for k in range(n):
            x, y = _bezier(*p, 0.68 - 0.3 * k if p[0] != p[3] else 0.5)
            out.append(_symbol("locomotive", locomotive, x, y, 0.9, icons))
    for si, anchor in g.prairie_anchor.items():
        seg = design.segments[si]
        marks = ["tipi"] * seg.count("tipis") + ["horse"] * seg.count("horses")
        for kind, (x, y) in zip(marks, _spread(anchor, g.prairie_axis[si], len(marks), 23)):
            out.append(_symbol(kind, tipi if kind == "tipi" else horse, x, y, 1.15, icons))
    out.append(_symbol("edge", _edge, 0, 0, 1.0, icons))
    return "".join(out)


def _ground(x: float, y: float, s: float = 1.0) -> str:
    """The prairie every tile lies on, with a little grass texture (drawn at 0, 0)."""
    return (f'<rect width="{T}" height="{T}" fill="{pal.PRAIRIE}"/>'
            f'<path d="M14,62 l3,-5 l3,5 M78,18 l3,-5 l3,5 M64,84 l3,-5 l3,5 M30,26 l2.5,-4 l2.5,4" '
            f'stroke="{pal.PRAIRIE_DARK}" stroke-width="1.4" fill="none" stroke-linecap="round"/>')


def _edge(x: float, y: float, s: float = 1.0) -> str:
    """The tile's thin outline (drawn at 0, 0)."""
    return (f'<rect width="{T}" height="{T}" fill="none" stroke="{pal.TILE_EDGE}" stroke-opacity="0.45" '
            f'stroke-width="1"/>')


ICONS.update(ground=_ground, edge=_edge, peak=peak, junction=junction, city=city, nugget=nugget, locomotive=locomotive, tipi=tipi,
             horse=horse)


def symbol_summary(design: TileDesign) -> str:
    """A short text of the design's symbols: ``nuggets 2, horses 1``."""
    totals: dict[str, int] = {}
    for seg in design.segments:
        for name, n in seg.symbols:
            totals[name] = totals.get(name, 0) + n
    return ", ".join(f"{k} {v}" for k, v in totals.items()) or "no symbols"


def designs_in_order(designs: Iterable[TileDesign]) -> list[TileDesign]:
    """Designs sorted by picture number then id."""
    return sorted(designs, key=lambda d: (d.design, d.id))
