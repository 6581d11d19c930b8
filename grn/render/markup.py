"""Drawing diagram markup shared by both games: highlight rings, arrows, labels.

Everything here takes coordinates already resolved by the game renderer; the
words of a record reach the SVG only through :func:`grn.render.style.esc`
(labels) and :func:`grn.render.style.colour_of` (colours).
"""

from __future__ import annotations

import math

from grn.record import Markup, MarkupText
from grn.render import style as st
from grn.render.style import esc, num


def word_args(m: Markup) -> list[str]:
    """The plain-word arguments of a markup."""
    return [a for a in m.args if isinstance(a, str)]


def text_arg(m: Markup) -> str | None:
    """The quoted text argument of a markup (a label's text)."""
    for a in m.args:
        if isinstance(a, MarkupText):
            return a.text
    return None


def ring(x: float, y: float, w: float, h: float, colour: str, *, width: float = 5, rx: float = 6) -> str:
    """A highlight frame around a box."""
    return (f'<rect class="markup highlight" x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
            f'rx="{num(rx)}" fill="{colour}" fill-opacity="0.18" stroke="{colour}" stroke-width="{num(width)}"/>')


def dot(x: float, y: float, colour: str, r: float = 13) -> str:
    """A highlight marker on a feature (a ring with a dot)."""
    return (f'<g class="markup highlight feature"><circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="none" '
            f'stroke="#ffffff" stroke-width="7"/><circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{colour}" '
            f'fill-opacity="0.3" stroke="{colour}" stroke-width="4"/></g>')


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str, *, width: float = 6,
          shorten: float = 18) -> str:
    """An arrow from (x1, y1) to (x2, y2) with a drawn head (no marker ids)."""
    dx, dy = x2 - x1, y2 - y1
    n = math.hypot(dx, dy)
    if n < 1:
        return ""
    ux, uy = dx / n, dy / n
    sx, sy = x1 + ux * shorten, y1 + uy * shorten
    ex, ey = x2 - ux * shorten, y2 - uy * shorten
    head = width * 3.2
    bx, by = ex - ux * head, ey - uy * head
    px, py = -uy * head * 0.6, ux * head * 0.6
    return (f'<g class="markup arrow"><line x1="{num(sx)}" y1="{num(sy)}" x2="{num(bx)}" y2="{num(by)}" '
            f'stroke="#ffffff" stroke-width="{num(width + 4)}" stroke-linecap="round" stroke-opacity="0.8"/>'
            f'<line x1="{num(sx)}" y1="{num(sy)}" x2="{num(bx)}" y2="{num(by)}" stroke="{colour}" '
            f'stroke-width="{num(width)}" stroke-linecap="round"/>'
            f'<polygon points="{num(ex)},{num(ey)} {num(bx + px)},{num(by + py)} {num(bx - px)},{num(by - py)}" '
            f'fill="{colour}" stroke="#ffffff" stroke-width="1.5" stroke-linejoin="round"/></g>')


def label(x: float, y: float, content: str, *, size: float = 15, colour: str = st.INK) -> str:
    """A text label in a pale box centred on (x, y); ``content`` is escaped."""
    content = content if len(content) <= 60 else content[:57] + "..."
    w = max(20.0, 0.6 * size * len(content) + 12)
    h = size + 10
    return (f'<g class="markup label"><rect x="{num(x - w / 2)}" y="{num(y - h / 2)}" width="{num(w)}" '
            f'height="{num(h)}" rx="5" fill="#fffbe8" fill-opacity="0.93" stroke="{colour}" stroke-width="1.5"/>'
            f'<text x="{num(x)}" y="{num(y + size * 0.36)}" font-size="{num(size)}" text-anchor="middle" '
            f'fill="{colour}">{esc(content)}</text></g>')
