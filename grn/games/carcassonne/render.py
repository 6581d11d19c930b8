"""Carcassonne: the board of a position with its followers and gold, a score panel and the markup.

Each tile is drawn from the tile set's data, unturned, inside a group turned
by its rotation: green fields, grey roads (a small square where roads meet at
a junction), walled cities (brown wall, a blue shield per pennant), cloisters
(a chapel in the centre), and the ingot mark of a Gold Mines tile.  On the
tiles: followers in their player's colour (standing; farmers lie flat), gold
ingots on a tile with their count, the last placed tile outlined.  Below the
board each player's name, colour, score, followers in the supply and gold
ingots held; the tiles left in the bag.  ``legal``: the squares where the
next turn's tile fits, dashed, with the rotations.  Diagram markup on top.

Class names (for tests and styling): ``tile``, ``city``, ``road``, ``cloister``, ``pennant``,
``follower <colour> <role>``, ``ingots``, ``last``, ``legal``, ``ghost``, ``panel``, ``player``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grn.games.carcassonne.terms import CITY, CLOISTER, FIELD, INGOT_MARK, PENNANTS, ROAD, ROLE
from grn.render import style as st
from grn.games.tiling import render as tiled
from grn.rules.ruleset import Panel
from grn.games.tiling.render import M, Frame, side_by_side
from grn.render.style import esc, num
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.tiles import TileDesign

if TYPE_CHECKING:
    from grn.rules.ruleset import PositionLike
    from grn.games.tiling.board import Board
    from grn.games.tiling.tiles import TileSet

T = st.TILE
FIELD_FILL, ROAD_FILL, CITY_FILL, WALL = "#8fbf5a", "#efe6d2", "#c9a46a", "#6b4a2b"
MEEPLE = ("M0,-13 C3,-13 4.5,-11 4.5,-8.5 C4.5,-6.8 3.6,-5.6 2.6,-5 L10,-2.2 C11.5,-1.6 11.5,1.8 9.8,2 "
          "L5,2.6 L8.8,10.5 C9.3,11.6 8.6,12 7.6,12 L2.2,12 L0,7.5 L-2.2,12 L-7.6,12 C-8.6,12 -9.3,11.6 "
          "-8.8,10.5 L-5,2.6 L-9.8,2 C-11.5,1.8 -11.5,-1.6 -10,-2.2 L-2.6,-5 C-3.6,-5.6 -4.5,-6.8 -4.5,-8.5 "
          "C-4.5,-11 -3,-13 0,-13 Z")
#: Corners of the unturned tile, clockwise from the north-west: edge e runs from CORNER[e] to CORNER[e + 1].
CORNER = ((0.0, 0.0), (float(T), 0.0), (float(T), float(T)), (0.0, float(T)))
MIDDLE = ((T / 2, 0.0), (float(T), T / 2), (T / 2, float(T)), (0.0, T / 2))
INWARD = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))


def place_xy(p: int, depth: float = 0.0) -> tuple[float, float]:
    """Where place ``p`` (0..11) lies on the unturned tile, ``depth`` units inwards."""
    e, k = divmod(p, 3)
    (ax, ay), (bx, by) = CORNER[e], CORNER[(e + 1) % 4]
    t = (0.25, 0.5, 0.75)[k]
    ix, iy = INWARD[e]
    return ax + (bx - ax) * t + ix * depth, ay + (by - ay) * t + iy * depth


def cloister_xy(design: TileDesign) -> tuple[float, float]:
    """The centre of a cloister: the tile's centre, or its biggest field when a city covers the centre."""
    if any(k == CITY and len({p // 3 for p in seg.places}) > 1 for k, seg in zip(design.kinds, design.segments)):
        fields = [i for i, k in enumerate(design.kinds) if k == FIELD]
        if fields:
            big = max(fields, key=lambda i: len(design.segments[i].places))
            x, y = segment_anchor(design, big)
            return (x + T / 2) / 2 + 6, (y + T / 2) / 2 + 6
    return T / 2, T / 2


def segment_anchor(design: TileDesign, local: int) -> tuple[float, float]:
    """Where a piece on segment ``local`` stands on the unturned tile."""
    seg = design.segments[local]
    if not seg.places:
        x, y = cloister_xy(design)
        return x, y + 6
    if design.kinds[local] == ROAD:
        e = seg.places[0] // 3
        x, y = MIDDLE[e]
        ix, iy = INWARD[e]
        return x + ix * T * 0.3, y + iy * T * 0.3
    pts = [place_xy(p, T * (0.2 if design.kinds[local] == CITY else 0.13)) for p in seg.places]
    x = sum(p[0] for p in pts) / len(pts)
    y = sum(p[1] for p in pts) / len(pts)
    if design.kinds[local] == CITY and len({p // 3 for p in seg.places}) > 1:
        x, y = (x + T / 2) / 2, (y + T / 2) / 2
    return x, y


def _city(design: TileDesign, local: int) -> str:
    edges = sorted({p // 3 for p in design.segments[local].places})
    if len(edges) == 4:
        d = "M0,0 H100 V100 H0 Z"
    elif len(edges) == 1:
        e = edges[0]
        (ax, ay), (bx, by) = CORNER[e], CORNER[(e + 1) % 4]
        mx, my = MIDDLE[e]
        ix, iy = INWARD[e]
        d = f"M{num(ax)},{num(ay)} L{num(bx)},{num(by)} Q{num(mx + ix * 62)},{num(my + iy * 62)} {num(ax)},{num(ay)} Z"
    else:
        parts: list[str] = []
        for e in range(4):
            if e in edges:
                parts += [f"{num(CORNER[e][0])},{num(CORNER[e][1])}", f"{num(CORNER[(e + 1) % 4][0])},"
                                                                     f"{num(CORNER[(e + 1) % 4][1])}"]
            else:
                mx, my = MIDDLE[e]
                ix, iy = INWARD[e]
                depth = 30 if len(edges) == 3 else 36
                parts.append(f"{num(mx + ix * depth)},{num(my + iy * depth)}")
        d = "M" + " L".join(parts) + " Z"
    out = (f'<path class="city" d="{d}" fill="{CITY_FILL}" stroke="{WALL}" stroke-width="3.5" '
           f'stroke-linejoin="round"/>')
    if design.segments[local].count(PENNANTS):
        x, y = segment_anchor(design, local)
        x, y = x + 14, y - 12
        out += (f'<path class="pennant" d="M{num(x - 7)},{num(y - 7)} H{num(x + 7)} V{num(y + 1)} '
                f'Q{num(x + 7)},{num(y + 7)} {num(x)},{num(y + 9)} Q{num(x - 7)},{num(y + 7)} {num(x - 7)},'
                f'{num(y + 1)} Z" fill="#2f5fa8" stroke="#ffffff" stroke-width="1.5"/>')
    return out


def _road(design: TileDesign, local: int) -> str:
    seg = design.segments[local]
    ends = [MIDDLE[p // 3] for p in seg.places]
    if len(ends) == 2:
        (ax, ay), (bx, by) = ends
        d = f"M{num(ax)},{num(ay)} Q50,50 {num(bx)},{num(by)}"
    else:
        (ax, ay), = ends
        stop = 36 if "cloister" in seg.ends else (62 if "city" in seg.ends else 50)
        e = seg.places[0] // 3
        ix, iy = INWARD[e]
        d = f"M{num(ax)},{num(ay)} L{num(ax + ix * stop)},{num(ay + iy * stop)}"
    return (f'<path class="road" d="{d}" fill="none" stroke="#6e6556" stroke-width="12" stroke-linecap="butt"/>'
            f'<path d="{d}" fill="none" stroke="{ROAD_FILL}" stroke-width="8" stroke-linecap="butt"/>')


def tile_drawing(design: TileDesign) -> str:
    """The unturned tile, 100 units square."""
    out = [f'<rect width="{T}" height="{T}" fill="{FIELD_FILL}"/>']
    for i, k in enumerate(design.kinds):
        if k == CITY:
            out.append(_city(design, i))
    roads = [i for i, k in enumerate(design.kinds) if k == ROAD]
    for i in roads:
        out.append(_road(design, i))
    if any("junction" in design.segments[i].ends for i in roads):
        out.append('<rect x="42" y="42" width="16" height="16" fill="#6e6556"/>')
    for i, k in enumerate(design.kinds):
        if k == CLOISTER:
            cx, cy = cloister_xy(design)
            out.append(f'<g class="cloister" transform="translate({num(cx - 50)},{num(cy - 50)})"><rect x="36" y="40" width="28" height="24" fill="#f2e6cc" '
                       'stroke="#5a4030" stroke-width="2"/><path d="M32,41 L50,26 L68,41 Z" fill="#b5452f" '
                       'stroke="#5a4030" stroke-width="2"/><rect x="46" y="52" width="8" height="12" '
                       'fill="#5a4030"/></g>')
    if INGOT_MARK in design.marks:
        # printed on the tile: an outline in a dashed ring, never gold-filled, so that it cannot pass for the
        # real ingots lying on the tile (drawn by ingots(): gold, larger, with their count)
        out.append('<g class="ingot-mark"><circle cx="15" cy="86" r="10" fill="#efe3c4" stroke="#7a5a10" '
                   'stroke-width="1" stroke-dasharray="2 1.5"/><path d="M8,90 L11,83 L19,83 L22,90 Z" fill="none" '
                   'stroke="#7a5a10" stroke-width="1.3"/><title>the ingot symbol printed on the tile</title></g>')
    out.append(f'<rect width="{T}" height="{T}" fill="none" stroke="#3d3226" stroke-width="1"/>')
    return "".join(out)


def follower(cx: float, cy: float, colour: str, kind: str, s: float = 1.2, cls: str = "follower") -> str:
    fill, line = st.player_fill(colour), st.player_line(colour)
    role = ROLE.get(kind, "")
    rot = " rotate(90)" if kind == FIELD else ""
    return (f'<g class="{esc((cls + " " + colour + " " + role).strip())}" '
            f'transform="translate({num(cx)},{num(cy)}) scale({num(s)}){rot}">'
            f'<path d="{MEEPLE}" fill="none" stroke="#ffffff" stroke-width="4" stroke-linejoin="round"/>'
            f'<path d="{MEEPLE}" fill="{fill}" stroke="{line}" stroke-width="1.6" stroke-linejoin="round"/>'
            f'<title>{esc((colour + " " + role).strip())}</title></g>')


def ingot_spot(rotation: int) -> tuple[float, float]:
    """Where the real ingots on a tile turned ``rotation`` are drawn: the corner across from the ingot symbol
    printed on the tile (which turns with it), so that the two never meet."""
    dx, dy = 76.0 - 50, 22.0 - 50
    for _ in range((rotation // 90) % 4):
        dx, dy = -dy, dx
    return 50 + dx, 50 + dy


def ingots(cx: float, cy: float, count: int) -> str:
    """The real gold ingots lying on a tile: a gold bar with a white halo and its count in a badge."""
    return (f'<g class="ingots" data-count="{count}" transform="translate({num(cx)},{num(cy)})">'
            f'<path d="M-12,7 L-8,-3 L8,-3 L12,7 Z" fill="none" stroke="#ffffff" stroke-width="4"/>'
            f'<path d="M-12,7 L-8,-3 L8,-3 L12,7 Z" fill="#f0c53c" stroke="#7a5a10" stroke-width="1.5"/>'
            f'<circle cx="12" cy="-8" r="8" fill="#ffffff" stroke="#7a5a10" stroke-width="1.5"/>'
            f'<text x="12" y="-4.3" font-size="11" font-weight="bold" text-anchor="middle" fill="{st.INK}">{count}'
            f'</text><title>{count} gold ingot{"s" if count != 1 else ""}</title></g>')


class TileDefs:
    """The tile drawings pictures use, each once in ``<defs>`` (a page of many positions shares one)."""

    def __init__(self, prefix: str = "cct") -> None:
        self.prefix = prefix
        self.ids: dict[str, str] = {}
        self.items: list[tuple[str, TileDesign]] = []

    def ref(self, design: TileDesign) -> str:
        got = self.ids.get(design.id)
        if got is None:
            got = self.ids[design.id] = f"{self.prefix}{len(self.ids)}"
            self.items.append((got, design))
        return got

    def defs(self) -> str:
        return "<defs>" + "".join(f'<g id="{i}">{tile_drawing(d)}</g>' for i, d in self.items) + "</defs>"


def _turned(X: float, Y: float, rotation: int, body: str, cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<g{c} transform="translate({num(X)},{num(Y)}) rotate({rotation} 50 50)">{body}</g>'


def _next_tile(position: PositionLike) -> str | None:
    if position.asked is not None:  # render --legal --tile T
        return str(position.asked)
    turn = position.next_turn()
    if turn is None:
        return None
    return next((a.tile for a in turn.actions if isinstance(a, PlaceTile)), None)


@dataclass(slots=True)
class _Scene:
    """What a drawing shows: tiles, followers, ingots (cropped for a diagram), ghosts, legal squares, the box."""

    tiles: list[Any]
    followers: list[Any]
    ingot_places: list[Any]
    ghosts: list[Any]
    spots: dict[tuple[int, int], list[int]]
    next_tile: str | None
    minx: int
    maxx: int
    miny: int
    maxy: int


def _scene(position: PositionLike, legal: bool, diagram: bool, crop: tuple[int, int, int, int] | None) -> _Scene:
    """The board's contents and the box that must fit them (the markup's cells, legal squares; a diagram's crop)."""
    state = position.state
    board = state.board
    tileset = state.tileset
    extent = tiled.markup_extent(position.markup, tileset, label_room=not diagram)
    ghosts = extent.ghosts
    xs = [x for x, _ in board.tiles] or [0]
    ys = [y for _, y in board.tiles] or [0]
    xs += [x for x, _ in extent.cells]
    ys += [y for _, y in extent.cells]
    spots: dict[tuple[int, int], list[int]] = {}
    nxt = _next_tile(position) if legal else None
    if nxt is not None and nxt in tileset:
        for pl in state.legal_placements(nxt):
            spots.setdefault((pl.x, pl.y), []).append(pl.rotation)
            xs.append(pl.x)
            ys.append(pl.y)
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    tiles = sorted(board.tiles.items())
    followers = state.placed_followers()
    ingot_places = sorted(state.mines.ingots.items()) if state.mines is not None else []
    if diagram:
        box = tiled.diagram_box(extent.focus, list(board.tiles), crop)
        if box is not None:
            minx, maxx, miny, maxy = box
        inside = (lambda x, y: minx <= x <= maxx and miny <= y <= maxy)
        tiles = [t for t in tiles if inside(*t[0])]
        followers = [f for f in followers if inside(f[1], f[2])]
        ingot_places = [i for i in ingot_places if inside(*i[0])]
        ghosts = [g for g in ghosts if inside(g[1], g[2])]
        spots = {xy: r for xy, r in spots.items() if inside(*xy)}
    return _Scene(tiles, followers, ingot_places, ghosts, spots, nxt, minx, maxx, miny, maxy)


def _coordinates(frame: Frame, scene: _Scene, coord: float, page: bool) -> list[str]:
    """The column numbers above the board and the row numbers left of it (on a page of many positions each row
    of numbers is a group, so that a label is drawn the same way however the board grows)."""
    minx, maxx, miny, maxy = scene.minx, scene.maxx, scene.miny, scene.maxy
    if not page:
        return ([st.text(frame.xy(x, maxy)[0] + T / 2, frame.oy - 13, x, size=15, anchor="middle",
                         fill=st.GRID_TEXT, cls="coord") for x in range(minx, maxx + 1)]
                + [st.text(frame.ox - 12, frame.xy(minx, y)[1] + T / 2 + 5, y, size=15, anchor="end",
                           fill=st.GRID_TEXT, cls="coord") for y in range(miny, maxy + 1)])
    return [f'<g transform="translate(0,{num(-maxy * T - 13 - (coord - 15) / 2)})">' + "".join(
                st.text(x * T + T / 2, 0, x, size=coord, anchor="middle", fill=st.GRID_TEXT, cls="coord")
                for x in range(minx, maxx + 1)) + "</g>",
            f'<g transform="translate({num(minx * T - 12)},0)">' + "".join(
                st.text(0, -y * T + T / 2 + coord / 3, y, size=coord, anchor="end", fill=st.GRID_TEXT, cls="coord")
                for y in range(miny, maxy + 1)) + "</g>"]


def _board(frame: Frame, position: PositionLike, scene: _Scene, tdefs: TileDefs) -> list[str]:
    """Legal squares (dashed, with their rotations), the tiles, the ghosts, the last tile's outline."""
    out: list[str] = []
    for (x, y), rots in sorted(scene.spots.items()):
        X, Y = frame.xy(x, y)
        out.append(f'<g class="legal" data-xy="{x},{y}" data-rotations="{" ".join(map(str, sorted(rots)))}">'
                   f'<rect x="{num(X + 4)}" y="{num(Y + 4)}" width="{T - 8}" height="{T - 8}" '
                   f'rx="8" fill="#ffffff" fill-opacity="0.45" stroke="#2f7d32" stroke-width="3" '
                   f'stroke-dasharray="8 5"/>' + st.text(X + T / 2, Y + T / 2 + 6, " ".join(map(str, sorted(rots))),
                                                        size=15, anchor="middle", fill="#1e5a22", weight="bold")
                   + "</g>")
    for (x, y), t in scene.tiles:
        X, Y = frame.xy(x, y)
        out.append(f'<use class="tile" data-tile="{esc(t.design.id)}" data-xy="{x},{y}" '
                   f'xlink:href="#{tdefs.ref(t.design)}" transform="translate({num(X)},{num(Y)}) '
                   f'rotate({t.rotation} 50 50)"/>')
    for d, x, y, r in scene.ghosts:
        X, Y = frame.xy(x, y)
        out.append(f'<g class="ghost" opacity="0.55">{_turned(X, Y, r, tile_drawing(d))}</g>')
    last = position.last
    shown = {xy for xy, _ in scene.tiles}
    if last is not None and last.number > 0:
        for a in last.actions:
            if isinstance(a, PlaceTile) and (a.x, a.y) in shown:
                X, Y = frame.xy(a.x, a.y)
                # drawn at 0,0 and moved: the same outline, once per colour, on a page of many positions
                out.append(f'<g class="last" transform="translate({num(X)},{num(Y)})"><rect x="2" y="2" '
                           f'width="{T - 4}" height="{T - 4}" fill="none" stroke="#ffffff" stroke-width="5"/>'
                           f'<rect x="2" y="2" width="{T - 4}" height="{T - 4}" fill="none" '
                           f'stroke="{st.player_fill(last.player)}" stroke-width="2.5" stroke-dasharray="9 5"/></g>')
    return out


def _pieces_on_board(frame: Frame, board: Board, scene: _Scene) -> list[str]:
    """Followers (upright, on their feature as the tile turns; side by side where they share a square) and ingots."""
    out: list[str] = []
    for (colour, x, y, local, kind), shift in zip(scene.followers, side_by_side([f[1:4] for f in scene.followers])):
        t = board.tiles[(x, y)]
        ax, ay = segment_anchor(t.design, local)
        X, Y = frame.xy(x, y)
        # the anchor turns with the tile; the follower stays upright
        a = math.radians(t.rotation)
        dx, dy = ax - 50, ay - 50
        rx, ry = 50 + dx * math.cos(a) - dy * math.sin(a), 50 + dx * math.sin(a) + dy * math.cos(a)
        out.append(follower(X + rx + shift, Y + ry, colour, kind))
    for (x, y), count in scene.ingot_places:
        X, Y = frame.xy(x, y)
        ix, iy = ingot_spot(board.tiles[(x, y)].rotation if (x, y) in board.tiles else 0)
        out.append(ingots(X + ix, Y + iy, count))
    return out


def _panel(position: PositionLike, scene: _Scene, W: float, bh: float, panel_h: float, page: bool) -> list[str]:
    """The player panel below the board: the event, the last turn and the bag, then a row per player (drawn at 0
    and moved on a page of many positions, so that it does not change as the board grows)."""
    from grn.notation.writer import command_text

    state = position.state
    last = position.last
    names = {s.key: s.name for s in position.seats}
    py = 0 if page else bh
    moved = f' transform="translate(0,{num(bh)})"' if page else ""
    out = [f'<g class="panel"{moved}><rect x="10" y="{num(py)}" width="{num(W - 20)}" height="{num(panel_h - 10)}" '
           f'rx="10" fill="{st.PANEL}" stroke="{st.PANEL_LINE}" stroke-width="1.5"/>']
    if last is None or last.number == 0:
        sub = "start of the game"
    else:
        sub = f"after turn {last.number}: {last.player} " + " ".join(command_text(a) for a in last.actions)
    event = position.record.tag("Event") or "Carcassonne"
    out.append(st.text(26, py + 30, event if len(event) <= 50 else event[:49] + "\u2026", size=19, weight="bold"))
    bag = f"{state.bag_left} tile{'s' if state.bag_left != 1 else ''} in the bag"
    if scene.next_tile and scene.spots:
        bag += f"; next tile {scene.next_tile}: its legal places are dashed (with rotations)"
    out.append(st.text(26, py + 52, (sub[:70] + "  \u00b7  " + bag)[:120], size=13, fill=st.INK_SOFT, cls="bag"))
    current = None if state.is_over else state.current_player
    mines = state.mines
    for i, p in enumerate(state.players):
        ry = py + 72 + i * 60
        out.append(f'<g class="player {esc(p)}"><rect x="24" y="{num(ry)}" width="{num(W - 48)}" height="50" rx="8" '
                   f'fill="#fbf6ea" stroke="{st.player_fill(p)}" stroke-width="{3 if p == current else 1.2}"/>')
        out.append(follower(48, ry + 27, p, "", 1.3, cls="player-icon"))
        name = names.get(p, p)[:24] + ("  \u25c0 to play" if p == current else "")
        out.append(st.text(72, ry + 22, name, size=16, weight="bold", cls="player-name"))
        info = f"{p} \u00b7 {state.followers_in_supply[p]} followers in supply"
        if mines is not None:
            g = mines.gold[p]
            info += f" \u00b7 {g} gold ingot{'s' if g != 1 else ''} held"
        out.append(st.text(72, ry + 41, info, size=13, fill=st.INK, cls="player-info"))
        out.append(st.text(W - 36, ry + 36, state.scores[p], size=26, weight="bold", anchor="end", cls="score"))
        out.append("</g>")
    out.append("</g>")
    return out


def render_position(position: PositionLike, *, legal: bool = False, width: int | None = None,
                    defs: TileDefs | None = None, diagram: bool = False,
                    crop: tuple[int, int, int, int] | None = None, caption: str | None = None,
                    panel: bool = True) -> str:
    """The SVG of a Carcassonne position (``defs``: a shared :class:`TileDefs` the page writes once).

    ``panel=False`` draws the board alone, its coordinates large enough to read when the viewer shrinks it
    (the viewer shows the panel in words beside it: :func:`panel_text`).

    ``diagram`` draws a picture for a rules discussion: only the board around
    the markup (or the ``crop`` box ``x0, y0, x1, y1``), no player panel, the
    ``caption`` written above, 700 pixels wide unless ``width`` says otherwise.
    """
    page = defs is not None  # a page of many positions: the tile drawings are the page's, written once
    tdefs = TileDefs() if defs is None else defs
    board = position.state.board
    scene = _scene(position, legal, diagram, crop)
    minx, maxx, miny, maxy = scene.minx, scene.maxx, scene.miny, scene.maxy
    bw, bh = (maxx - minx + 1) * T + 2 * M, (maxy - miny + 1) * T + 2 * M
    lines = tiled.caption_lines(caption, tiled.diagram_width(bw, caption)) if diagram else []
    top = tiled.caption_height(lines)
    alone = diagram or not panel
    W = tiled.diagram_width(bw, caption) if diagram else bw if alone else max(bw, 640.0)
    panel_h = 0 if alone else 110 + 60 * len(position.state.players)
    coord = 15.0 if diagram or panel else tiled.coord_size(bw, bh)
    H = top + bh + panel_h
    if diagram:
        width = width or 700
    frame = Frame(minx, maxx, miny, maxy, (W - bw) / 2 + M, top + M)
    out = [f'<rect class="background" width="{num(W)}" height="{num(H)}" fill="{st.PAPER}"/>']
    out += tiled.caption_svg(lines)
    if page:
        # the board in its own coordinates (tile x,y at x*T, -y*T) in one translated group, so that a tile
        # is drawn the same way in every position however the board grows
        out.append(f'<g class="board-layer" transform="translate({num(frame.ox - minx * T)},{num(frame.oy + maxy * T)})">')
        frame = Frame(minx, maxx, miny, maxy, minx * T, -maxy * T)
    out += _coordinates(frame, scene, coord, page)
    out += _board(frame, position, scene, tdefs)
    out += _pieces_on_board(frame, board, scene)
    out.append(tiled.markup_layer(position.markup, frame, scene.ghosts, board.tiles, _feature_at(board), inside=diagram))
    if page:
        out.append("</g>")
    head = st.svg_open(W, H, (0, 0, W, H), px_width=width, cls="grn carcassonne")
    if not alone:
        out += _panel(position, scene, W, bh, panel_h, page)
    return head + ("" if page else tdefs.defs()) + "".join(out) + "</svg>"


def panel_text(position: PositionLike) -> Panel:
    """The player panel in words, for the viewer to show beside the board: the bag, and each player's
    followers in supply and gold ingots held (with The Gold Mines)."""
    state = position.state
    bag = f"{state.bag_left} tile{'s' if state.bag_left != 1 else ''} in the bag"
    players: dict[str, tuple[str, ...]] = {}
    for p in state.players:
        n = state.followers_in_supply[p]
        lines = [f"{n} follower{'s' if n != 1 else ''} in supply"]
        if state.mines is not None:
            g = state.mines.gold[p]
            lines.append(f"{g} gold ingot{'s' if g != 1 else ''} held")
        players[p] = tuple(lines)
    return Panel((bag,), players)


def _feature_at(board: Board) -> tiled.Anchor:
    """Where the feature at a place lies in its square: on a placed tile, its piece's spot (turned with
    the tile); on an empty square, just inside the edge."""

    def anchor(x: int, y: int, place: int) -> tuple[float, float]:
        t = board.tiles.get((x, y))
        if t is None:
            return place_xy(place, 14)
        # place_segment is on the board (turned); the anchor is on the unturned tile: turn it
        ax, ay = segment_anchor(t.design, t.orientation.place_segment[place])
        a = math.radians(t.rotation)
        dx, dy = ax - 50, ay - 50
        return 50 + dx * math.cos(a) - dy * math.sin(a), 50 + dx * math.sin(a) + dy * math.cos(a)

    return anchor


def render_tile_sheet(tileset: TileSet, *, columns: int = 6) -> str:
    """An SVG sheet of every tile of ``tileset`` unturned, with its id and copies."""
    designs = list(tileset.tiles)
    cell_w, cell_h = 124, 136
    rows = (len(designs) + columns - 1) // columns
    w, h = columns * cell_w + 16, rows * cell_h + 54
    out = [st.svg_open(w, h, (0, 0, w, h), cls="grn tilesheet"), f'<rect width="{w}" height="{h}" fill="{st.PAPER}"/>',
           st.text(12, 28, f"Tile set {tileset.name}: {len(designs)} tile ids, {tileset.total} tiles", size=18,
                   weight="bold")]
    for i, d in enumerate(designs):
        x, y = 14 + (i % columns) * cell_w, 44 + (i // columns) * cell_h
        start = " (start)" if d.id == tileset.start else ""
        out.append(f'<g class="sheet-tile" transform="translate({x},{y})">{tile_drawing(d)}'
                   + st.text(50, 118, f"{d.id}  x{d.count}{start}", size=13, weight="bold", anchor="middle")
                   + "</g>")
    out.append("</svg>")
    return "".join(out)
