"""Carcassonne: Gold Rush: the board of a position, its pieces, a player panel and the markup.

Tiles are drawn from the tile set's data (:mod:`grn.render.tiles`), one
drawing per design and rotation kept in ``<defs>`` and placed with ``<use>``,
so a board of any size costs one short element per tile.  ``x`` grows east and
``y`` grows north: higher ``y`` is drawn higher.  On the tiles: cowboys in
their player's colour (standing, marked R railwayman, M gold miner, $ merchant;
farmers lie flat), tents, the face-down mining-token stack of every mountain
with its count, the last placed tile outlined.  Around the board the
coordinates; beside or below it each player's name, colour, score, cowboys
and tent in the supply, mining tokens held (count and known faces), and the
tiles left in the bag.  Diagram markup is drawn on top.

Class names (for tests and styling): ``tile``, ``cowboy <colour> <role>``,
``tent <colour>``, ``stack``, ``last``, ``legal``, ``ghost``, ``markup ...``.

The engine is read through :class:`BoardView`, a small adapter over the
public attributes of :class:`grn.games.goldrush.rules.GoldRushState`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from grn.games.tiling.commands import PlaceTile
from grn.render import markup as mk
from grn.render import style as st
from grn.games.tiling import render as tiled
from grn.rules.ruleset import Panel
from grn.games.tiling.render import M, Frame, side_by_side
from grn.render.style import esc, num
from grn.games.goldrush.drawing import (PLACE_XY, designs_in_order, icon_defs, segment_anchor, symbol_summary,
                                        tent_anchor, tile_drawing)
from grn.games.tiling.tiles import TileDesign

if TYPE_CHECKING:
    from grn.rules.ruleset import PositionLike
    from grn.games.tiling.tiles import TileSet
    from grn.games.goldrush.rules import GoldRushState

T = st.TILE
ROLE_MARK = {"rail": "R", "mountain": "M", "city": "$", "road": "R"}
ROLE_NAME = {"rail": "railwayman", "mountain": "gold miner", "city": "merchant", "prairie": "farmer"}
# at most 9 digits (as the notation allows): a longer number draws nothing rather than overflowing
MEEPLE = ("M0,-13 C3,-13 4.5,-11 4.5,-8.5 C4.5,-6.8 3.6,-5.6 2.6,-5 L10,-2.2 C11.5,-1.6 11.5,1.8 9.8,2 "
          "L5,2.6 L8.8,10.5 C9.3,11.6 8.6,12 7.6,12 L2.2,12 L0,7.5 L-2.2,12 L-7.6,12 C-8.6,12 -9.3,11.6 "
          "-8.8,10.5 L-5,2.6 L-9.8,2 C-11.5,1.8 -11.5,-1.6 -10,-2.2 L-2.6,-5 C-3.6,-5.6 -4.5,-6.8 -4.5,-8.5 "
          "C-4.5,-11 -3,-13 0,-13 Z")


# ----------------------------------------------------------------------------
# reading the engine
# ----------------------------------------------------------------------------

@dataclass(slots=True)
class Piece:
    """A piece on the board: where (tile and segment) and whose."""

    x: int
    y: int
    design: TileDesign
    rotation: int
    local: int
    owner: str
    kind: str = ""
    count: int = 0


@dataclass(slots=True)
class BoardView:
    """What the renderer needs of a Gold Rush state, read from its public attributes."""

    tiles: list[tuple[int, int, TileDesign, int]]
    cowboys: list[Piece]
    tents: list[Piece]
    stacks: list[Piece]
    players: tuple[str, ...]
    scores: dict[str, int]
    supply: dict[str, int]
    tent_home: dict[str, bool]
    tokens: dict[str, tuple[int, list[int]]]
    bag_left: int
    token_supply: int
    extra: dict[str, Any] = field(default_factory=dict)


def board_view(state: GoldRushState) -> BoardView:
    """Read ``state`` (a :class:`grn.games.goldrush.rules.GoldRushState`)."""
    board = state.board
    players = tuple(state.players)
    tiles = [(x, y, t.design, t.rotation) for (x, y), t in board.tiles.items()]

    def where(sid: int) -> tuple[int, int, TileDesign, int, int]:
        x, y = board.segment_tile[sid]
        t = board.tiles[(x, y)]
        return x, y, t.design, t.rotation, sid - t.base

    # read from the features, which count every cowboy (a set-up position may stand two on one segment,
    # where the engine's cowboy_at keeps one owner)
    cowboys = []
    for sid, seat in sorted((sid, seat) for root in board.roots() for seat, sid in board.followers(root)):
        x, y, d, r, local = where(sid)
        cowboys.append(Piece(x, y, d, r, local, players[cast(int, seat)], board.kind[sid]))
    tents = []
    for seat, sid in enumerate(getattr(state, "tent", [])):
        if sid is not None and sid >= 0:
            x, y, d, r, local = where(sid)
            tents.append(Piece(x, y, d, r, local, players[seat], "mountain"))
    stacks = []
    for root, stack in getattr(state, "stacks", {}).items():
        if stack:
            r0 = board.find(root)
            x, y, d, r, local = where(r0)
            stacks.append(Piece(x, y, d, r, local, "", "mountain", len(stack)))
    hands = getattr(state, "hands", [[] for _ in players])
    values = getattr(state, "token_value", {})
    tokens = {p: (len(h), sorted(values[t] for t in h if t in values)) for p, h in zip(players, hands)}
    tent_home = {p: not (sid is not None and sid >= 0) for p, sid in zip(players, getattr(state, "tent", []))}
    supply = dict(state.cowboys) if hasattr(state, "cowboys") else {}
    return BoardView(tiles, cowboys, tents, stacks, players, dict(state.scores), supply, tent_home, tokens,
                     int(getattr(state, "bag_left", 0)), int(getattr(state, "token_supply_count", 0)))


# ----------------------------------------------------------------------------
# tile drawings in <defs>
# ----------------------------------------------------------------------------

class TileDefs:
    """The tile drawings a picture uses, each once in ``<defs>``; several pictures may share one."""

    def __init__(self, prefix: str = "grt", icons: bool = False) -> None:
        self.prefix = re.sub(r"[^A-Za-z0-9_-]", "", prefix) or "grt"
        self.ids: dict[tuple[object, int], str] = {}
        self.items: list[tuple[str, TileDesign, int]] = []
        #: the tiles' symbols defined once and used by reference (a page of many pictures)
        self.icons = f"{self.prefix}-" if icons else None

    def ref(self, design: TileDesign, rotation: int) -> str:
        key = (design.segments, rotation % 360)
        got = self.ids.get(key)
        if got is None:
            got = self.ids[key] = f"{self.prefix}{len(self.ids)}"
            self.items.append((got, design, rotation % 360))
        return got

    def defs(self, only: set[str] | None = None) -> str:
        icons = icon_defs(self.icons) if self.icons is not None else ""
        return "<defs>" + icons + "".join(f'<g id="{i}">{tile_drawing(d, r, self.icons)}</g>'
                                          for i, d, r in self.items if only is None or i in only) + "</defs>"


# ----------------------------------------------------------------------------
# pieces
# ----------------------------------------------------------------------------

def cowboy(cx: float, cy: float, colour: str, kind: str, s: float = 1.25, cls: str = "cowboy") -> str:
    fill, line, ink = st.player_fill(colour), st.player_line(colour), st.player_text(colour)
    role = ROLE_NAME.get(kind, kind)
    flat = kind == "prairie"
    rot = " rotate(90)" if flat else ""
    mark = ROLE_MARK.get(kind, "")
    klass = f"{cls} {colour} {role.replace(' ', '-')}".strip()
    out = [f'<g class="{esc(klass)}" '
           f'transform="translate({num(cx)},{num(cy)}) scale({num(s)}){rot}">'
           f'<path d="{MEEPLE}" fill="none" stroke="#ffffff" stroke-width="4" stroke-linejoin="round"/>'
           f'<path d="{MEEPLE}" fill="{fill}" stroke="{line}" stroke-width="1.6" stroke-linejoin="round"/>']
    if mark:
        out.append(f'<text x="0" y="5" font-size="8.5" font-weight="bold" text-anchor="middle" '
                   f'fill="{ink}">{esc(mark)}</text>')
    out.append("<title>" + esc(f"{colour} {role}") + "</title></g>")
    return "".join(out)


def tent(cx: float, cy: float, colour: str, s: float = 1.2) -> str:
    fill, line = st.player_fill(colour), st.player_line(colour)
    return (f'<g class="tent {esc(colour)}" transform="translate({num(cx)},{num(cy)}) scale({num(s)})">'
            f'<path d="M-12,8 L0,-11 L12,8 Z" fill="none" stroke="#ffffff" stroke-width="4" '
            f'stroke-linejoin="round"/>'
            f'<path d="M-12,8 L0,-11 L12,8 Z" fill="{fill}" stroke="{line}" stroke-width="1.6" '
            f'stroke-linejoin="round"/><path d="M-4,8 L0,0 L4,8 Z" fill="{line}"/>'
            f'<path d="M0,-11 L0,-15 L5,-13.5 L0,-12" fill="{fill}" stroke="{line}" stroke-width="1"/>'
            f'<title>{esc(colour)} tent</title></g>')


def stack(cx: float, cy: float, count: int, s: float = 1.0) -> str:
    out = [f'<g class="stack" data-count="{count}" transform="translate({num(cx)},{num(cy)}) scale({num(s)})">']
    for i in range(min(count, 4)):
        y = 6 - 4 * i
        out.append(f'<ellipse cx="0" cy="{y}" rx="10" ry="4.4" fill="#8a7358" stroke="#3b2e21" '
                   f'stroke-width="1.2"/>')
    out.append(f'<circle cx="11" cy="-9" r="8.5" fill="#ffffff" stroke="#3b2e21" stroke-width="1.5"/>'
               f'<text x="11" y="-5.2" font-size="11" font-weight="bold" text-anchor="middle" '
               f'fill="{st.INK}">{count}</text><title>{count} mining token{"s" if count != 1 else ""}</title></g>')
    return "".join(out)


# ----------------------------------------------------------------------------
# the picture
# ----------------------------------------------------------------------------

def _next_tile(position: PositionLike) -> str | None:
    """The tile the next turn of the position's line (main line or variation) places, when it says so."""
    if position.asked is not None:  # render --legal --tile T
        return str(position.asked)
    turn = position.next_turn()
    if turn is None:
        return None
    return next((a.tile for a in turn.actions if isinstance(a, PlaceTile)), None)


@dataclass(slots=True)
class _Scene:
    """What a drawing shows: the board's pieces (cropped for a diagram), ghosts, legal squares, and the box."""

    view: BoardView
    ghosts: list[Any]
    legal_spots: dict[tuple[int, int], list[int]]
    next_tile: str | None
    minx: int
    maxx: int
    miny: int
    maxy: int


@dataclass(slots=True)
class _Layout:
    """Where the board and the panel go in the picture, and its size."""

    frame: Frame
    W: float
    H: float
    k: float
    px: float
    py: float
    panel_w: float
    panel_h: float
    side: bool
    coord: float
    caption_lines: list[str]


def _scene(position: PositionLike, legal: bool, diagram: bool, crop: tuple[int, int, int, int] | None) -> _Scene:
    """The board's contents and the box that must fit them (the markup's cells, legal squares; a diagram's crop)."""
    state = position.state
    view = board_view(state)
    tileset = state.tileset
    extent = tiled.markup_extent(position.markup, tileset, label_room=not diagram)
    ghosts = extent.ghosts
    xs = [t[0] for t in view.tiles] or [0]
    ys = [t[1] for t in view.tiles] or [0]
    xs += [x for x, _ in extent.cells]
    ys += [y for _, y in extent.cells]
    legal_spots: dict[tuple[int, int], list[int]] = {}
    next_tile = _next_tile(position) if legal else None
    if next_tile is not None and next_tile in tileset and hasattr(state, "legal_placements"):
        for pl in state.legal_placements(next_tile):
            legal_spots.setdefault((pl.x, pl.y), []).append(pl.rotation)
        for x, y in legal_spots:
            xs.append(x)
            ys.append(y)
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    if diagram:
        box = tiled.diagram_box(extent.focus, [(t[0], t[1]) for t in view.tiles], crop)
        if box is not None:
            minx, maxx, miny, maxy = box
        inside = (lambda x, y: minx <= x <= maxx and miny <= y <= maxy)
        view = replace(view, tiles=[t for t in view.tiles if inside(t[0], t[1])],
                       stacks=[p for p in view.stacks if inside(p.x, p.y)],
                       tents=[p for p in view.tents if inside(p.x, p.y)],
                       cowboys=[p for p in view.cowboys if inside(p.x, p.y)])
        ghosts = [g for g in ghosts if inside(g[1], g[2])]
        legal_spots = {xy: r for xy, r in legal_spots.items() if inside(*xy)}
    return _Scene(view, ghosts, legal_spots, next_tile, minx, maxx, miny, maxy)


def _layout(scene: _Scene, diagram: bool, panel: bool, caption: str | None) -> _Layout:
    """The picture's size and where the board and the panel go: the panel beside a tall board, below a wide one
    (``k`` scales the panel with a large board); a diagram or a board alone has none."""
    minx, maxx, miny, maxy = scene.minx, scene.maxx, scene.miny, scene.maxy
    bw, bh = (maxx - minx + 1) * T + 2 * M, (maxy - miny + 1) * T + 2 * M
    n = len(scene.view.players)
    side = bh > bw * 1.05
    caption_lines = tiled.caption_lines(caption, tiled.diagram_width(bw, caption)) if diagram else []
    coord = 15.0 if diagram or panel else tiled.coord_size(bw, bh)
    if diagram or not panel:
        W: float = tiled.diagram_width(bw, caption) if diagram else bw
        top = tiled.caption_height(caption_lines)
        return _Layout(Frame(minx, maxx, miny, maxy, (W - bw) / 2 + M, M + top), W, bh + top, 1.0, 0, 0, 0.0, 0.0,
                       side, coord, caption_lines)
    if side:
        k = max(1.0, min(2.2, bh / 1000))
        W = bw + 430 * k
        H = max(bh, (164 + 118 * n + 20) * k)
        return _Layout(Frame(minx, maxx, miny, maxy, M, M + (H - bh) / 2), W, H, k, bw, 10, 430, 164 + 118 * n,
                       side, coord, caption_lines)
    k = max(1.0, min(2.2, bw / 1100))
    panel_w = max(bw / k, 640)
    W = panel_w * k
    return _Layout(Frame(minx, maxx, miny, maxy, (W - bw) / 2 + M, M), W, bh + (126 + 86 * n) * k, k, 0, bh,
                   panel_w, 126 + 86 * n, side, coord, caption_lines)


def _coordinates(frame: Frame, scene: _Scene, coord: float, page: bool) -> list[str]:
    """The column and row numbers on the four sides of the board (on a page of many positions each side is a
    group, so that a label is drawn the same way until the board grows past it)."""
    minx, maxx, miny, maxy = scene.minx, scene.maxx, scene.miny, scene.maxy
    out: list[str] = []
    if page:
        xs_at: list[tuple[float, int]] = [(frame.xy(x, maxy)[0] + T / 2, x) for x in range(minx, maxx + 1)]
        ys_at: list[tuple[float, int]] = [(frame.xy(minx, y)[1] + T / 2 + coord / 3, y)
                                          for y in range(miny, maxy + 1)]
        grow = (coord - 15) / 2
        sides: list[tuple[float, float, list[tuple[float, int]], str, bool]] = [
            (0, frame.oy - 13 - grow, xs_at, "middle", True), (0, frame.oy + frame.h + 25 + grow, xs_at, "middle", True),
            (frame.ox - 12, 0, ys_at, "end", False), (frame.ox + frame.w + 12, 0, ys_at, "start", False)]
        for sx, sy, at, anchor, across in sides:
            row = [st.text(c if across else 0, 0 if across else c, v, size=coord, anchor=anchor, fill=st.GRID_TEXT,
                           cls="coord") for c, v in at]
            out.append(f'<g transform="translate({num(sx)},{num(sy)})">' + "".join(row) + "</g>")
        return out
    for x in range(minx, maxx + 1):
        cx = frame.xy(x, maxy)[0] + T / 2
        out.append(st.text(cx, frame.oy - 13 - (coord - 15) / 2, x, size=coord, anchor="middle", fill=st.GRID_TEXT, cls="coord"))
        out.append(st.text(cx, frame.oy + frame.h + 25 + (coord - 15) / 2, x, size=coord, anchor="middle", fill=st.GRID_TEXT,
                           cls="coord"))
    for y in range(miny, maxy + 1):
        cy = frame.xy(minx, y)[1] + T / 2 + coord / 3
        out.append(st.text(frame.ox - 12, cy, y, size=coord, anchor="end", fill=st.GRID_TEXT, cls="coord"))
        out.append(st.text(frame.ox + frame.w + 12, cy, y, size=coord, fill=st.GRID_TEXT, cls="coord"))
    return out


def _legal_squares(frame: Frame, scene: _Scene, tileset: TileSet, tdefs: TileDefs, used: set[str]) -> list[str]:
    """The next tile itself, ghosted, on each empty square where it fits, in each rotation that fits."""
    out: list[str] = []
    next_tile = scene.next_tile
    next_design = tileset[next_tile] if scene.legal_spots and next_tile is not None else None
    for (x, y), rots in sorted(scene.legal_spots.items()):
        X, Y = frame.xy(x, y)
        parts = [f'<g class="legal" data-xy="{x},{y}" data-rotations="{" ".join(map(str, sorted(rots)))}">']
        if next_design is not None:
            # one rotation: the tile at full size; several: a half-size tile per rotation, in the
            # quarter of the square that rotation's number names (0 top left, 90 top right, ...)
            fits = sorted(rots)
            for r in fits:
                ref = tdefs.ref(next_design, r)
                used.add(ref)
                if len(fits) == 1:
                    parts.append(f'<use opacity="0.5" xlink:href="#{ref}" x="{num(X)}" y="{num(Y)}"/>'
                                 f'<rect x="{num(X)}" y="{num(Y)}" width="{T}" height="{T}" fill="#ffffff" '
                                 f'fill-opacity="0.25"/>')
                else:
                    qx, qy = X + (T / 2 if r in (90, 270) else 0), Y + (T / 2 if r in (180, 270) else 0)
                    parts.append(f'<use opacity="0.75" xlink:href="#{ref}" '
                                 f'transform="translate({num(qx)},{num(qy)}) scale(0.5)"/>')
        parts.append(f'<rect x="{num(X + 2)}" y="{num(Y + 2)}" width="{T - 4}" height="{T - 4}" '
                     f'rx="6" fill="none" stroke="#2f7d32" stroke-width="3" stroke-dasharray="8 5"/>')
        label = " ".join(f"{r}\u00b0" for r in sorted(rots))
        parts.append(mk.label(X + T / 2, Y + T - 11, label, size=11, colour="#1e5a22"))
        parts.append("</g>")
        out.append("".join(parts))
    return out


def _tiles_and_ghosts(frame: Frame, scene: _Scene, tdefs: TileDefs, used: set[str]) -> list[str]:
    """The placed tiles, then the markup's ghost tiles (dashed, half seen)."""
    out: list[str] = []
    for x, y, d, r in scene.view.tiles:
        ref = tdefs.ref(d, r)
        used.add(ref)
        X, Y = frame.xy(x, y)
        out.append(f'<use class="tile" data-tile="{esc(d.id)}" data-xy="{x},{y}" xlink:href="#{ref}" '
                   f'x="{num(X)}" y="{num(Y)}"/>')
    for d, x, y, r in scene.ghosts:
        ref = tdefs.ref(d, r)
        used.add(ref)
        X, Y = frame.xy(x, y)
        out.append(f'<g class="ghost" opacity="0.55"><use xlink:href="#{ref}" x="{num(X)}" y="{num(Y)}"/>'
                   f'<rect x="{num(X)}" y="{num(Y)}" width="{T}" height="{T}" fill="none" stroke="#ffffff" '
                   f'stroke-width="4" stroke-dasharray="10 6"/></g>')
    return out


def _last_tile(frame: Frame, position: PositionLike, scene: _Scene, page: bool) -> list[str]:
    """The outline, in the player's colour, of the tile the last turn placed."""
    last = position.last
    if last is None or last.number <= 0:
        return []
    out: list[str] = []
    who = st.player_fill(last.player)
    shown = {(t[0], t[1]) for t in scene.view.tiles}
    for a in last.actions:
        if not (isinstance(a, PlaceTile) and (a.x, a.y) in shown):
            continue
        X, Y = frame.xy(a.x, a.y)
        if page:  # one drawing per colour, moved
            out.append(f'<g class="last" transform="translate({num(X)},{num(Y)})"><rect x="2" y="2" '
                       f'width="{T - 4}" height="{T - 4}" fill="none" stroke="#ffffff" stroke-width="5"/>'
                       f'<rect x="2" y="2" width="{T - 4}" height="{T - 4}" fill="none" stroke="{who}" '
                       f'stroke-width="2.5" stroke-dasharray="9 5"/></g>')
            continue
        out.append(f'<g class="last"><rect x="{num(X + 2)}" y="{num(Y + 2)}" width="{T - 4}" '
                   f'height="{T - 4}" fill="none" stroke="#ffffff" stroke-width="5"/>'
                   f'<rect x="{num(X + 2)}" y="{num(Y + 2)}" width="{T - 4}" height="{T - 4}" fill="none" '
                   f'stroke="{who}" stroke-width="2.5" stroke-dasharray="9 5"/></g>')
    return out


def _board_pieces(frame: Frame, view: BoardView) -> list[str]:
    """The pieces on the tiles: mining-token stacks, tents, cowboys (side by side where they share a square)."""
    out: list[str] = []
    for p in view.stacks:
        X, Y = frame.xy(p.x, p.y)
        ax, ay = segment_anchor(p.design, p.rotation, p.local)
        out.append(stack(X + ax + 17, Y + ay + 6, p.count))
    for p in view.tents:
        X, Y = frame.xy(p.x, p.y)
        ax, ay = tent_anchor(p.design, p.rotation, p.local)
        out.append(tent(X + ax, Y + ay, p.owner))
    for p, aside in zip(view.cowboys, side_by_side([(p.x, p.y, p.local) for p in view.cowboys])):
        X, Y = frame.xy(p.x, p.y)
        ax, ay = segment_anchor(p.design, p.rotation, p.local)
        out.append(cowboy(X + ax + aside, Y + ay, p.owner, p.kind))
    return out


def _markup(frame: Frame, position: PositionLike, scene: _Scene, diagram: bool) -> str:
    """The diagram markup, on top of everything on the board, its labels placed clear of what they name."""
    board = position.state.board

    def feature_at(x: int, y: int, place: int) -> tuple[float, float]:
        t = board.tiles.get((x, y))
        if t is None:
            return PLACE_XY[place]
        return segment_anchor(t.design, t.rotation, t.orientation.place_segment[place])

    return tiled.markup_layer(position.markup, frame, scene.ghosts, board.tiles, feature_at, inside=diagram)


def render_goldrush(position: PositionLike, *, legal: bool = False, width: int | None = None,
                    defs: TileDefs | None = None, diagram: bool = False,
                    crop: tuple[int, int, int, int] | None = None, caption: str | None = None,
                    panel: bool = True) -> str:
    """The SVG of a Gold Rush position (``defs``: a shared :class:`TileDefs`, emitted by the caller).

    ``panel=False`` draws the board alone, its coordinates large enough to read when the viewer shrinks it
    (the viewer shows the panel in words beside it: :func:`panel_text`).

    ``diagram`` draws a picture for a rules discussion: only the board around
    the markup (or the ``crop`` box ``x0, y0, x1, y1``), no player panel, the
    ``caption`` written above, 700 pixels wide unless ``width`` says otherwise.
    """
    page = defs is not None  # a page of many positions: the tile drawings are the page's, written once
    tdefs = TileDefs() if defs is None else defs
    scene = _scene(position, legal, diagram, crop)
    lay = _layout(scene, diagram, panel, caption)
    if diagram:
        width = width or 700
    frame = lay.frame
    out = [f'<rect class="background" width="{num(lay.W)}" height="{num(lay.H)}" fill="{st.PAPER}"/>']
    out += tiled.caption_svg(lay.caption_lines)
    board_start = len(out)
    if page:
        # the board in its own coordinates (tile x,y at x*T, -y*T) inside one translated group, so that a
        # tile is drawn the same way in every position however the board grows
        shift = (frame.ox - scene.minx * T, frame.oy + scene.maxy * T)
        frame = Frame(scene.minx, scene.maxx, scene.miny, scene.maxy, scene.minx * T, -scene.maxy * T)
    bx, by = frame.ox - M / 2, frame.oy - M / 2
    out.append(f'<rect class="board-area" x="{num(bx)}" y="{num(by)}" width="{num(frame.w + M)}" '
               f'height="{num(frame.h + M)}" rx="10" fill="#e9dfc6" stroke="{st.PANEL_LINE}" stroke-width="1.5"/>')
    used: set[str] = set()
    out += _coordinates(frame, scene, lay.coord, page)
    out += _legal_squares(frame, scene, position.state.tileset, tdefs, used)
    out += _tiles_and_ghosts(frame, scene, tdefs, used)
    out += _last_tile(frame, position, scene, page)
    out += _board_pieces(frame, scene.view)
    out.append(_markup(frame, position, scene, diagram))
    if page:
        out[board_start:] = [f'<g class="board-layer" transform="translate({num(shift[0])},{num(shift[1])})">',
                             *out[board_start:], "</g>"]
    if not diagram and panel:
        out.append(_panel(position, scene.view, lay.px, lay.py, lay.panel_w, lay.panel_h, lay.side, page,
                          scene.next_tile if scene.legal_spots else None, lay.k))
    head = st.svg_open(lay.W, lay.H, (0, 0, lay.W, lay.H), px_width=width, cls="grn goldrush")
    if page:
        return head + "".join(out) + "</svg>"
    return head + tdefs.defs(used) + "".join(out) + "</svg>"


def _pieces(view: BoardView, p: str) -> tuple[str, str, str]:
    """A player's cowboys in supply, tent, and mining tokens (faces known, and how many unknown), in words."""
    supply = view.supply.get(p, 0)
    count, known = view.tokens.get(p, (0, []))
    unknown = count - len(known)
    vals = ", ".join(str(v) for v in known) + (", " if known and unknown else "") \
        + (f"{unknown} unknown" if unknown else "")
    tokens = f"{count} token{'s' if count != 1 else ''}" + (f" ({vals})" if count else "")
    tent_txt = "tent in supply" if view.tent_home.get(p, True) else "tent placed"
    return f"{supply} cowboy{'s' if supply != 1 else ''} in supply", tent_txt, tokens


def panel_text(position: PositionLike) -> Panel:
    """The player panel in words, for the viewer to show beside the board: the bag and the mining tokens, and
    each player's cowboys, tent and tokens."""
    view = board_view(position.state)
    over = getattr(position.state, "is_over", False)
    bag = f"{view.bag_left} tile{'s' if view.bag_left != 1 else ''} in the bag"
    if view.token_supply or not over:
        bag += f", {view.token_supply} mining tokens in the supply"
    players: dict[str, tuple[str, ...]] = {}
    for p in view.players:
        players[p] = _pieces(view, p)
    return Panel((bag,), players)


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n - 1] + "\u2026"


def _panel(position: PositionLike, view: BoardView, x: float, y: float, w: float, h: float, side: bool, page: bool,
           legal_tile: str | None = None, scale: float = 1.0) -> str:
    """The player panel; ``page``: a page of many positions, where the texts that change every turn are
    written short, their size and colour in a group around them that stays the same."""
    from grn.notation.writer import command_text

    def text(x: float, y: float, content: object, *, size: float, fill: str, cls: str | None = None,
             **more: Any) -> str:
        if not page:
            return st.text(x, y, content, size=size, fill=fill, cls=cls, **more)
        inner = st.text(x, y, content, size=size, fill=fill, cls=cls, **more)
        inner = inner.replace(f' font-size="{num(size)}" fill="{fill}"', "", 1)
        return f'<g font-size="{num(size)}" fill="{fill}">{inner}</g>'

    names = {s.key: s.name for s in position.seats}
    out = [f'<g class="panel" transform="translate({num(x)},{num(y)}) scale({num(round(scale, 3))})">',
           f'<rect x="10" y="6" width="{num(w - 20)}" height="{num(h - 16)}" rx="10" fill="{st.PANEL}" '
           f'stroke="{st.PANEL_LINE}" stroke-width="1.5"/>']
    rec = position.record
    out.append(st.text(26, 38, _clip(rec.tag("Event") or "Carcassonne: Gold Rush", 40), size=21, weight="bold"))
    last = position.last
    if last is None or last.number == 0:
        sub = "start of the game"
    else:
        acts = " ".join(command_text(a) for a in last.actions)
        sub = f"after turn {last.number}: {last.player} {acts}"
    out.append(text(26, 62, _clip(sub, 52), size=15, fill=st.INK_SOFT))
    state = position.state
    over = getattr(state, "is_over", False)
    bag = f"{view.bag_left} tile{'s' if view.bag_left != 1 else ''} in the bag"
    if view.token_supply or not over:
        bag += f", {view.token_supply} mining tokens in the supply"
    out.append(text(26, 84, bag, size=14, fill=st.INK_SOFT, cls="bag"))
    if legal_tile:
        out.append(st.text(26, 104, f"next tile {legal_tile}: its legal places are dashed (with rotations)",
                           size=13, fill="#1e5a22", cls="legal-note"))
    current = None if over else getattr(state, "current_player", None)
    row = 130 if side else 118
    step = 118 if side else 86
    for i, p in enumerate(view.players):
        ry = row + i * step
        fill = st.player_fill(p)
        out.append(f'<g class="player {esc(p)}">')
        out.append(f'<rect x="24" y="{ry - 6}" width="{num(w - 48)}" height="{step - 12}" rx="8" fill="#fbf6ea" '
                   f'stroke="{fill}" stroke-width="{3 if p == current else 1.2}"/>')
        out.append(cowboy(48, ry + 24, p, "", 1.5, cls="player-icon"))
        name = _clip(names.get(p, p), 24)
        nxt = "  \u25c0 to play" if p == current else ""
        out.append(st.text(72, ry + 20, name, size=18, weight="bold", cls="player-name"))
        out.append(text(72, ry + 40, p + nxt, size=13, fill=st.INK_SOFT))
        out.append(text(w - 36, ry + 34, view.scores.get(p, 0), size=30, fill=st.INK, weight="bold", anchor="end",
                           cls="score"))
        cowboys, tent_txt, tokens = _pieces(view, p)
        info = f"{cowboys} \u00b7 {tent_txt} \u00b7 {tokens}"
        if side:
            out.append(text(72, ry + 62, f"{cowboys}, {tent_txt}",
                               size=13, fill=st.INK))
            out.append(text(72, ry + 82, _clip(tokens, 44), size=13, fill=st.INK))
        else:
            out.append(text(72, ry + 60, _clip(info, 80), size=13, fill=st.INK))
        out.append("</g>")
    out.append("</g>")
    return "".join(out)


def render_tile_sheet(tileset: TileSet, *, columns: int = 6) -> str:
    """An SVG sheet of every tile id of ``tileset`` at rotation 0, with id, copies and symbols."""
    designs = designs_in_order(tileset)
    cell_w, cell_h = 124, 168
    rows = (len(designs) + columns - 1) // columns
    head = 44
    w = columns * cell_w + 16
    h = rows * cell_h + head + 10
    out = [st.svg_open(w, h, (0, 0, w, h), cls="grn tilesheet")]
    out.append(f'<rect width="{w}" height="{h}" fill="{st.PAPER}"/>')
    title = f"Tile set {getattr(tileset, 'name', '')}: {len(designs)} tile ids, {tileset.total} tiles"
    out.append(st.text(12, 28, title, size=18, weight="bold", fill=st.INK))
    for i, d in enumerate(designs):
        col, row = i % columns, i // columns
        x, y = 14 + col * cell_w, head + row * cell_h
        start = " (start)" if d.id == tileset.start else ""
        out.append(f'<g class="sheet-tile" transform="translate({x},{y})">')
        out.append(f'<rect x="-2" y="-2" width="104" height="104" fill="none" stroke="{st.INK}" '
                   f'stroke-width="1.5"/>')
        out.append(tile_drawing(d, 0))
        out.append(st.text(50, 118, f"{d.id}  x{d.count}{start}", size=13, weight="bold", anchor="middle"))
        words = symbol_summary(d).split(", ")
        for k, line in enumerate(_wrap(words, 20)):
            out.append(st.text(50, 134 + 13 * k, line, size=10.5, fill=st.INK_SOFT, anchor="middle"))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _wrap(words: list[str], chars: int) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 2 + len(w) <= chars:
            lines[-1] += ", " + w
        else:
            lines.append(w)
    return lines
