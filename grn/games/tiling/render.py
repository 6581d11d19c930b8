"""Drawing shared by the tile-laying games: the board's frame, what the markup adds to the board, the crop
and caption of a diagram, and the markup layer (labels placed clear of what they point at).

A game's drawing keeps what is its own (tiles, pieces, the player panel) and says where a feature of a
tile lies with an :data:`Anchor`; this module names no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from grn.render import markup as mk
from grn.render import style as st
from grn.games.tiling import markup as tile_markup
from grn.games.tiling.places import POSITIONS, ROTATIONS

if TYPE_CHECKING:
    from grn.core.record import Markup
    from grn.games.tiling.tiles import TileSet

#: A board square, in drawing units.
T = st.TILE
#: The margin around the board (room for the coordinates).
M = 46
#: How far from the start tile markup may point and still be drawn (a typo's 10,000 would be a vast board).
_FAR = 200

#: Where the feature at place ``POSITIONS[index]`` of the square ``x, y`` lies in that square (0 to T):
#: ``anchor(x, y, index)``, on a placed tile or an empty square.
Anchor = Callable[[int, int, int], "tuple[float, float]"]


class Frame:
    """Board coordinates -> drawing units: the squares ``minx..maxx`` by ``miny..maxy``, the top left at ``ox, oy``
    (``y`` grows north on the board, down in the drawing)."""

    def __init__(self, minx: int, maxx: int, miny: int, maxy: int, ox: float, oy: float) -> None:
        self.minx, self.maxx, self.miny, self.maxy = minx, maxx, miny, maxy
        self.ox, self.oy = ox, oy

    def xy(self, x: int, y: int) -> tuple[float, float]:
        """The top left corner of square ``x, y``."""
        return self.ox + (x - self.minx) * T, self.oy + (self.maxy - y) * T

    @property
    def w(self) -> float:
        return (self.maxx - self.minx + 1) * T

    @property
    def h(self) -> float:
        return (self.maxy - self.miny + 1) * T

    def __repr__(self) -> str:
        return f"<Frame {self.minx}..{self.maxx} x {self.miny}..{self.maxy} at {self.ox:g},{self.oy:g}>"


@dataclass
class MarkupExtent:
    """What the markup adds to a board: the ghost tiles ``(design, x, y, rotation)``, the squares the
    board must show, and those a diagram centres on (what the markup names, and room above a label)."""

    ghosts: list[tuple[Any, int, int, int]] = field(default_factory=list)
    cells: list[tuple[int, int]] = field(default_factory=list)
    focus: list[tuple[int, int]] = field(default_factory=list)


def markup_extent(markup: Iterable[Markup], tileset: TileSet, *, label_room: bool = True) -> MarkupExtent:
    """The ghosts and squares of ``markup``; a ghost of a tile not in ``tileset``, a rotation that is not
    one, or a point far off the board is left out (the checks report them).  ``label_room``: the square
    above a label's target too (a diagram, as tall as its content, finds its labels a place inside)."""
    out = MarkupExtent()
    for m in markup:
        words = mk.word_args(m)
        if m.kind == "ghost":
            g = tile_markup.ghost(words[0]) if words else None
            if g and g[0] in tileset and g[3] in ROTATIONS and abs(g[1]) < _FAR and abs(g[2]) < _FAR:
                out.ghosts.append((tileset[g[0]], g[1], g[2], g[3]))
                out.cells.append((g[1], g[2]))
                out.focus.append((g[1], g[2]))
            continue
        for w in words:
            p = tile_markup.point(w)
            if p and abs(p[0]) < _FAR and abs(p[1]) < _FAR:
                out.cells.append((p[0], p[1]))
                out.focus.append((p[0], p[1]))
                if m.kind == "label" and label_room:
                    # room above the tile for the label, clear of what it names
                    out.cells.append((p[0], p[1] + 1))
                    out.focus.append((p[0], p[1] + 1))
    return out


def diagram_box(focus: list[tuple[int, int]], tiles: Iterable[tuple[int, int]],
                crop: tuple[int, int, int, int] | None) -> tuple[int, int, int, int] | None:
    """The squares a diagram shows, ``(minx, maxx, miny, maxy)``: the ``crop`` box ``x0, y0, x1, y1`` when
    given, else what the markup names and the tiles right around it; None (the whole board) without either."""
    if crop is not None:
        return min(crop[0], crop[2]), max(crop[0], crop[2]), min(crop[1], crop[3]), max(crop[1], crop[3])
    if not focus:
        return None
    near = [(x, y) for x, y in tiles if any(abs(x - fx) <= 1 and abs(y - fy) <= 1 for fx, fy in focus)]
    cells = focus + near
    return (min(c[0] for c in cells), max(c[0] for c in cells), min(c[1] for c in cells),
            max(c[1] for c in cells))


def coord_size(board_w: float, board_h: float) -> float:
    """The font size of the coordinates of a board ``board_w`` by ``board_h`` units drawn without its panel for
    the viewer, which scales the picture to its column: about 11 pixels or more where the larger side is shown
    700 pixels long, however many squares the board has (15 units on a small board)."""
    return float(min(26, max(15, round(max(board_w, board_h) / 52))))


def wrap_text(text: str, chars: int) -> list[str]:
    """``text`` in lines of at most ``chars`` characters (a long word has a line of its own)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


#: The width a diagram's caption may take (drawing units): a diagram of a small board is this wide, the
#: board centred under its caption, so that the caption reads in a few long lines.
CAPTION_WIDTH = 660.0


def diagram_width(board_width: float, caption: str | None) -> float:
    """How wide a diagram is: its board, or as much of :data:`CAPTION_WIDTH` as its caption needs."""
    return max(board_width, min(CAPTION_WIDTH, len(caption or "") * 9.2 + M))


def caption_lines(caption: str | None, board_width: float) -> list[str]:
    """A diagram's caption in lines that fit above a board ``board_width`` wide."""
    return wrap_text(caption or "", max(24, int((board_width - M) / 9.2)))


def caption_height(lines: list[str]) -> float:
    """The room the caption ``lines`` take above the board."""
    return 16 + 21 * len(lines) if lines else 0


def caption_svg(lines: list[str]) -> list[str]:
    """The caption, one ``<text>`` a line (bold when it is one line: a title)."""
    return [st.text(M / 2, 26 + 21 * i, line, size=16, fill=st.INK, cls="caption",
                    weight="bold" if i == 0 and len(lines) == 1 else "normal") for i, line in enumerate(lines)]


def side_by_side(spots: list[tuple[int, int, int]], gap: float = 22) -> list[float]:
    """How far to move each piece sideways so that pieces on one spot (``x, y, segment``) stand side by
    side: a set-up position may put two on one feature of one tile, which play never does."""
    total: dict[tuple[int, int, int], int] = {}
    for spot in spots:
        total[spot] = total.get(spot, 0) + 1
    seen: dict[tuple[int, int, int], int] = {}
    out = []
    for spot in spots:
        k = seen[spot] = seen.get(spot, -1) + 1
        out.append((k - (total[spot] - 1) / 2) * gap)
    return out


def markup_layer(markup: Iterable[Any], frame: Frame, ghosts: Iterable[tuple[Any, int, int, int]],
                 tiles: Iterable[tuple[int, int]], anchor: Anchor, *, inside: bool = False) -> str:
    """Highlights and arrows, then labels placed clear of the tiles, ghosts and arrows the markup points at.

    ``tiles`` are the squares that hold a tile (a label avoids covering them when it can); ``anchor``
    says where a feature lies in its square; ``inside``: labels stay on the board's squares, off the
    coordinates in its margin (a diagram, which has no spare row for them).
    """
    markup = list(markup)
    out = ['<g class="markup-layer">']

    def cell(x: int, y: int) -> mk.Box:
        return (*frame.xy(x, y), float(T), float(T))

    # what labels must not hide: every square the markup names, the ghosts, and the arrows
    obstacles: list[mk.Box] = [cell(x, y) for _, x, y, _ in ghosts]
    segments: list[tuple[float, float, float, float]] = []
    labels: list[tuple[tuple[int, int], str]] = []
    for m in markup:
        for w in mk.word_args(m):
            p = tile_markup.point(w)
            if p is not None and m.kind != "ghost":
                obstacles.append(cell(p[0], p[1]))
    # two highlights of one feature (a cowboy or the tent on the new tile's mountain) side by side, not one
    # on the other: each is a tap target of the recorder (R350)
    spots: dict[Any, int] = {}
    for m in markup:
        words = mk.word_args(m)
        if m.kind == "highlight" and words:
            spot = tile_markup.point(words[0])
            if spot is not None and spot[2] is not None:
                spots[spot] = spots.get(spot, 0) + 1
    seen: dict[Any, int] = {}
    for m in markup:
        words = mk.word_args(m)
        if m.kind == "highlight" and words:
            p = tile_markup.point(words[0])
            if p is None:
                continue
            colour = st.colour_of(words[1] if len(words) > 1 else None)
            X, Y = frame.xy(p[0], p[1])
            if p[2] is None:
                out.append(mk.ring(X + 3, Y + 3, T - 6, T - 6, colour, width=6, rx=4))
                continue
            ax, ay = anchor(p[0], p[1], POSITIONS.index(p[2])) if p[2] in POSITIONS else (T / 2, T / 2)
            k = seen[p] = seen.get(p, -1) + 1
            shift = (k - (spots[p] - 1) / 2) * 34  # a ring's width (r=15) and a gap
            out.append(mk.dot(X + ax + shift, Y + ay, colour, r=15))
        elif m.kind == "arrow" and len(words) >= 2:
            a, b = tile_markup.point(words[0]), tile_markup.point(words[1])
            if a is None or b is None:
                continue
            colour = st.colour_of(words[2] if len(words) > 2 else None)
            ax, ay = frame.xy(a[0], a[1])
            bx, by = frame.xy(b[0], b[1])
            segments.append((ax + T / 2, ay + T / 2, bx + T / 2, by + T / 2))
            out.append(mk.arrow(ax + T / 2, ay + T / 2, bx + T / 2, by + T / 2, colour, width=7, shorten=22))
        elif m.kind == "label" and words:
            p = tile_markup.point(words[0])
            text = mk.text_arg(m)
            if p is not None and text is not None:
                labels.append(((p[0], p[1]), text))
    # inside: off the rows of coordinates above and below the board (the side margins may take a label's end)
    bounds = (frame.ox - M, frame.oy if inside else frame.oy - M, frame.w + 2 * M, frame.h + (0 if inside else 2 * M))
    shown = [cell(x, y) for x, y in tiles if frame.minx <= x <= frame.maxx and frame.miny <= y <= frame.maxy]
    for (x, y), text in labels:
        lw, lh = mk.label_size(text, 16)
        target = cell(x, y)
        box = mk.place_label(target, lw, lh, obstacles, segments, bounds, avoid=shown)
        out.append(mk.leader(box, target))
        out.append(mk.label(box[0] + lw / 2, box[1] + lh / 2, text, size=16))
    out.append("</g>")
    return "".join(out)
