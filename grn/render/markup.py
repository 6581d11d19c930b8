"""Drawing diagram markup shared by both games: highlight rings, arrows, labels.

Everything here takes coordinates already resolved by the game renderer; the
words of a record reach the SVG only through :func:`grn.render.style.esc`
(labels) and :func:`grn.render.style.colour_of` (colours).
"""

from __future__ import annotations

import math

from grn.core.record import Markup, MarkupText
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
    """A highlight frame around a box: an outline only, so that what it frames stays in sight."""
    return (f'<g class="markup highlight"><rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
            f'rx="{num(rx)}" fill="none" stroke="#ffffff" stroke-width="{num(width + 3)}" stroke-opacity="0.8"/>'
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
            f'rx="{num(rx)}" fill="none" stroke="{colour}" stroke-width="{num(width)}"/></g>')


def dot(x: float, y: float, colour: str, r: float = 13) -> str:
    """A highlight marker on a feature (a ring with a dot)."""
    return (f'<g class="markup highlight feature"><circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="none" '
            f'stroke="#ffffff" stroke-width="7"/><circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="none" '
            f'stroke="{colour}" stroke-width="4"/></g>')


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


Box = tuple[float, float, float, float]  # x, y, width, height


def label_size(content: str, size: float = 15) -> tuple[float, float]:
    """The width and height of a label's box (as :func:`label` draws it)."""
    content = content if len(content) <= 60 else content[:57] + "..."
    return max(20.0, 0.6 * size * len(content) + 12), size + 10


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _crosses(box: Box, seg: tuple[float, float, float, float]) -> bool:
    """Whether the segment passes through the box (sampled finely: arrows are short)."""
    x1, y1, x2, y2 = seg
    steps = max(2, int(math.hypot(x2 - x1, y2 - y1) / 4))
    for i in range(steps + 1):
        t = i / steps
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        if box[0] <= px <= box[0] + box[2] and box[1] <= py <= box[1] + box[3]:
            return True
    return False


def place_label(target: Box, w: float, h: float, obstacles: list[Box], segments: list[tuple[float, float, float, float]],
                bounds: Box, gap: float = 6, avoid: list[Box] | None = None) -> Box:
    """Where a label of size ``w`` x ``h`` goes beside ``target``: clear of the obstacles (tiles, ghosts and
    labels the markup points at), of the arrows' segments, and inside ``bounds``; the first free of above,
    below, right, left and the corners, or above when none is free.  Places also clear of ``avoid``
    (the other tiles) come first.  Placed labels join ``obstacles``."""
    x, y, tw, th = target
    cx, cy = x + tw / 2, y + th / 2
    candidates = [(cx - w / 2, y - gap - h), (cx - w / 2, y + th + gap), (x + tw + gap, cy - h / 2),
                  (x - gap - w, cy - h / 2), (x + tw + gap, y - gap - h), (x - gap - w, y - gap - h),
                  (x + tw + gap, y + th + gap), (x - gap - w, y + th + gap),
                  # below or above, flush with one side of the target: a wide label beside a narrow board
                  (x, y + th + gap), (x + tw - w, y + th + gap), (x, y - gap - h), (x + tw - w, y - gap - h)]
    chosen: Box | None = None
    for blocked in ((obstacles + (avoid or [])), obstacles):
        for lx, ly in candidates:
            box = (lx, ly, w, h)
            inside = (bounds[0] <= lx and bounds[1] <= ly and lx + w <= bounds[0] + bounds[2]
                      and ly + h <= bounds[1] + bounds[3])
            if inside and not any(_overlap(box, o) for o in blocked) and not any(_crosses(box, s) for s in segments):
                chosen = box
                break
        if chosen is not None:
            break
    if chosen is None:
        chosen = (candidates[0][0], candidates[0][1], w, h)
    obstacles.append(chosen)
    return chosen


def leader(box: Box, target: Box, colour: str = st.INK) -> str:
    """A thin line from a label's box to the middle of what it names."""
    bx, by = box[0] + box[2] / 2, box[1] + box[3] / 2
    tx, ty = target[0] + target[2] / 2, target[1] + target[3] / 2
    # from the box's edge toward the target, stopping at the target's edge
    dx, dy = tx - bx, ty - by
    n = math.hypot(dx, dy) or 1.0
    sx = bx + dx / n * min(box[2] / 2, abs(box[3] / 2 * n / dy) if dy else box[2] / 2)
    sy = by + dy / n * min(box[3] / 2, abs(box[2] / 2 * n / dx) if dx else box[3] / 2)
    ex, ey = tx - dx / n * min(target[2], target[3]) * 0.3, ty - dy / n * min(target[2], target[3]) * 0.3
    return (f'<line class="markup leader" x1="{num(sx)}" y1="{num(sy)}" x2="{num(ex)}" y2="{num(ey)}" '
            f'stroke="{colour}" stroke-width="1.5" stroke-dasharray="4 3"/>')


def label(x: float, y: float, content: str, *, size: float = 15, colour: str = st.INK) -> str:
    """A text label in a pale box centred on (x, y); ``content`` is escaped."""
    content = content if len(content) <= 60 else content[:57] + "..."
    w, h = label_size(content, size)
    return (f'<g class="markup label"><rect x="{num(x - w / 2)}" y="{num(y - h / 2)}" width="{num(w)}" '
            f'height="{num(h)}" rx="5" fill="#fffbe8" fill-opacity="0.93" stroke="{colour}" stroke-width="1.5"/>'
            f'<text x="{num(x)}" y="{num(y + size * 0.36)}" font-size="{num(size)}" text-anchor="middle" '
            f'fill="{colour}">{esc(content)}</text></g>')
