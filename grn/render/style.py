"""Palette, player colours, sizes and the small SVG text helpers every drawing shares.

All drawings work in *tile units*: a tile is :data:`TILE` (100) units wide and
the whole picture is scaled with the SVG ``viewBox``.  Text that comes from a
record (names, comments, labels) only ever reaches the SVG through :func:`esc`
(text nodes and attribute values alike) and colours from a record only through
:func:`colour_of`, which accepts known colour names and ``#rgb``/``#rrggbb``.
"""

from __future__ import annotations

import html
import re

#: Side of one tile, in drawing units.
TILE = 100
#: Margin around a board, in drawing units.
MARGIN = 40
#: Font used for every text.
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# -- paper and ink ------------------------------------------------------------
PAPER = "#f7f1e3"
PANEL = "#efe5cf"
PANEL_LINE = "#b9a57f"
INK = "#2b2118"
INK_SOFT = "#6b5a45"
GRID_TEXT = "#7a6a52"
HIGHLIGHT = "#ff7f0e"
LAST_TILE = "#ffffff"
MARKUP_DEFAULT = "#ff6a00"
# a lump of ore, the family's common symbol: the nuggets on Gold Rush's mountains and on Gold's gold cards
LUMP = "#f4c430"
LUMP_LINE = "#8a6508"
LUMP_SHINE = "#fff4c2"

#: Player colours (fill, outline, text drawn on the fill).
PLAYER: dict[str, tuple[str, str, str]] = {
    "red": ("#d62d20", "#6e120c", "#ffffff"),
    "yellow": ("#f7c600", "#6b5400", "#2b2118"),
    "green": ("#2e9e3e", "#134a1b", "#ffffff"),
    "blue": ("#1f63c6", "#0b2c5e", "#ffffff"),
    "black": ("#2b2b2b", "#000000", "#ffffff"),
}
#: Extra colour words accepted in markup.
MARKUP_COLOURS: dict[str, str] = {
    "orange": "#ff7f0e", "white": "#ffffff", "purple": "#8e44ad", "grey": "#7f7f7f",
    "gray": "#7f7f7f", "brown": "#8b5a2b", "pink": "#e377c2", "cyan": "#17becf",
}

_HEX_RE = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def player_fill(colour: str) -> str:
    """The fill of a player colour (grey for an unknown word)."""
    return PLAYER.get(colour, ("#888888", "#333333", "#ffffff"))[0]


def player_line(colour: str) -> str:
    """The outline of a player colour."""
    return PLAYER.get(colour, ("#888888", "#333333", "#ffffff"))[1]


def player_text(colour: str) -> str:
    """The colour of text drawn on a player colour."""
    return PLAYER.get(colour, ("#888888", "#333333", "#ffffff"))[2]


def colour_of(word: str | None, default: str = MARKUP_DEFAULT) -> str:
    """A safe SVG colour for a markup colour word: a player colour, a known name or ``#hex``."""
    if not word:
        return default
    w = word.strip().lower()
    if w in PLAYER:
        return PLAYER[w][0]
    if w in MARKUP_COLOURS:
        return MARKUP_COLOURS[w]
    if _HEX_RE.match(w):
        return w
    return default


def esc(text: object) -> str:
    """``text`` escaped for an XML/HTML text node or a double- or single-quoted attribute.

    Characters XML 1.0 forbids are dropped so the SVG stays well formed.
    """
    return html.escape(_BAD_XML.sub("", str(text)), quote=True)


def num(v: float) -> str:
    """A coordinate, short: ``12``, ``12.5``."""
    if v == int(v):
        return str(int(v))
    return f"{v:.2f}".rstrip("0").rstrip(".")


def pts(points: list[tuple[float, float]] | tuple[tuple[float, float], ...]) -> str:
    """Points for a ``polygon``/``polyline`` attribute."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def lump(x: float, y: float, s: float = 1.0) -> str:
    """A gold nugget centred on ``(x, y)`` at scale ``s``: the symbol both Gold Rush's tiles and Gold's cards print."""
    shape = ((-5.5, 1.5), (-3.5, -3.5), (1, -5), (5.5, -2.5), (5.5, 2.5), (1, 5), (-4, 4.5))
    p = [(x + dx * s, y + dy * s) for dx, dy in shape]
    return (f'<polygon points="{pts(p)}" fill="{LUMP}" stroke="{LUMP_LINE}" stroke-width="{num(1.3 * s)}" '
            f'stroke-linejoin="round"/>'
            f'<path d="M{num(x - 2.5 * s)},{num(y - 1.5 * s)} l{num(2.5 * s)},{num(-1.6 * s)}" '
            f'stroke="{LUMP_SHINE}" stroke-width="{num(1.3 * s)}" stroke-linecap="round"/>')


def text(x: float, y: float, content: object, *, size: float = 14, fill: str = INK, anchor: str = "start",
         weight: str = "normal", cls: str | None = None, extra: str = "") -> str:
    """A ``<text>`` element; ``content`` is escaped."""
    c = f' class="{esc(cls)}"' if cls else ""
    w = f' font-weight="{weight}"' if weight != "normal" else ""
    a = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}"{a}{w}{c}{extra}>'
            f'{esc(content)}</text>')


def svg_open(width: float, height: float, view: tuple[float, float, float, float], *,
             px_width: int | None = None, cls: str = "grn") -> str:
    """The opening ``<svg>`` tag: scaled by ``viewBox``; ``px_width`` fixes the pixel width."""
    vx, vy, vw, vh = view
    if px_width:
        size = f'width="{px_width}" height="{num(round(px_width * vh / vw, 1))}"'
    else:
        size = f'width="{num(width)}" height="{num(height)}"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'version="1.1" class="{cls}" {size} viewBox="{num(vx)} {num(vy)} {num(vw)} {num(vh)}" '
            f'font-family="{FONT}">')
