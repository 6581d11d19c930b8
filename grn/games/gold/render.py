"""The card game Gold: the layout of a position, the mine entrances and the gold beneath them.

The table is the layout grid (``a1`` .. ``h8`` with rank 1 at the bottom, or
``p1`` .. ``p64`` for a free layout, drawn eight to a row): face-down cards
show their backs, places whose card has left the table are empty outlines.
The cards the last turn turned over are drawn face up in a frame of the
player's colour (dimmed when they left the table).  With ``reveal`` the faces
seen so far are shown, dimmed, on the face-down cards (an analysis aid: the
players remember them).  Beside the table each player's mine entrance with
the gold cards beneath it and their total.

Class names for tests and styling: ``card back``, ``card empty``,
``card known``, ``card flipped``, ``entrance <colour>``, ``gold-card``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from grn.games.gold.commands import Card, FlipCard
from grn.render import markup as mk
from grn.render import style as st
from grn.games.gold import palette as pal
from grn.render.style import esc, lump as nugget, num

if TYPE_CHECKING:
    from grn.rules.ruleset import PositionLike
    from grn.core.record import Markup
    from grn.games.gold.rules import GoldState

CW, CH, GAP = 60, 84, 10
LEFT, TOP = 44, 70
_GRID_RE = re.compile(r"^([a-z])(\d+)$")


def layout_cells(positions: tuple[str, ...]) -> tuple[dict[str, tuple[int, int]], int, int, bool]:
    """Position -> (column, row from the top), columns, rows, and whether it is a lettered grid."""
    parsed = [_GRID_RE.match(p) for p in positions]
    if all(parsed) and len(set(positions)) == len(positions):
        files = [ord(m.group(1)) - ord("a") for m in parsed if m]  # type: ignore[union-attr]
        ranks = [int(m.group(2)) for m in parsed if m]  # type: ignore[union-attr]
        if min(files) >= 0 and min(ranks) >= 1:
            ncol, nrow = max(files) + 1, max(ranks)
            return ({p: (f, nrow - r) for p, f, r in zip(positions, files, ranks)}, ncol, nrow, True)
    ncol = 8
    nrow = (len(positions) + ncol - 1) // ncol
    return ({p: (i % ncol, i // ncol) for i, p in enumerate(positions)}, ncol, nrow, False)


def _cell_xy(cell: tuple[int, int]) -> tuple[float, float]:
    return LEFT + cell[0] * (CW + GAP), TOP + cell[1] * (CH + GAP)


BACK_ID = "grn-card-back"


def card_back_def(ident: str = BACK_ID) -> str:
    """The drawing of a card back, once, in ``<defs>``; cards use it with ``<use>``."""
    x = y = 0
    cx, cy = CW / 2, CH / 2
    return (f'<g id="{ident}"><rect x="{x}" y="{y}" width="{CW}" height="{CH}" rx="6" '
            f'fill="{pal.CARD_BACK}" stroke="{pal.CARD_BACK_LINE}" stroke-width="2"/>'
            f'<rect x="6" y="6" width="{CW - 12}" height="{CH - 12}" rx="3" fill="none" '
            f'stroke="{pal.CARD_BACK_PATTERN}" stroke-width="2"/>'
            f'<polygon points="{num(cx)},{num(cy - 18)} {num(cx + 13)},{num(cy)} {num(cx)},{num(cy + 18)} '
            f'{num(cx - 13)},{num(cy)}" fill="{pal.CARD_BACK_PATTERN}" stroke="{pal.CARD_BACK_LINE}" '
            f'stroke-width="1.2"/><circle cx="{num(cx)}" cy="{num(cy)}" r="4" fill="{pal.CARD_BACK_LINE}"/></g>')


def card_back(x: float, y: float, cls: str = "card back") -> str:
    return f'<use class="{cls}" xlink:href="#{BACK_ID}" x="{num(x)}" y="{num(y)}"/>'


def card_face(x: float, y: float, card: Card, *, opacity: float = 1.0, cls: str = "card face",
              scale: float = 1.0) -> str:
    """A card face: gold (nugget and value), a miner (colour, pick and value) or dynamite."""
    w, h = CW * scale, CH * scale
    cx, cy = x + w / 2, y + h / 2
    op = f' opacity="{num(opacity)}"' if opacity < 1 else ""
    out = [f'<g class="{cls}"{op}>']
    if card.kind == "gold":
        out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="6" fill="#fff3c4" '
                   f'stroke="{pal.GOLD_LINE}" stroke-width="2"/>')
        out.append(nugget(cx, cy - 10 * scale, 2.2 * scale))
        out.append(st.text(cx, cy + 26 * scale, card.value, size=24 * scale, anchor="middle", weight="bold",
                           fill=pal.GOLD_LINE))
    elif card.kind == "miner":
        fill, line, ink = st.player_fill(card.colour or ""), st.player_line(card.colour or ""), \
            st.player_text(card.colour or "")
        out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="6" fill="{fill}" '
                   f'stroke="{line}" stroke-width="2"/>')
        # a pickaxe
        out.append(f'<path d="M{num(cx - 13 * scale)},{num(cy - 12 * scale)} Q{num(cx)},{num(cy - 24 * scale)} '
                   f'{num(cx + 13 * scale)},{num(cy - 12 * scale)} M{num(cx)},{num(cy - 18 * scale)} '
                   f'L{num(cx)},{num(cy + 4 * scale)}" stroke="{ink}" stroke-width="{num(3.2 * scale)}" fill="none" '
                   f'stroke-linecap="round"/>')
        out.append(st.text(cx, cy + 28 * scale, card.value, size=24 * scale, anchor="middle", weight="bold",
                           fill=ink))
    else:
        out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="6" fill="{pal.CARD_FACE}" '
                   f'stroke="{pal.DYNAMITE}" stroke-width="2"/>')
        for dx in (-8, 0, 8):
            out.append(f'<rect x="{num(cx + (dx - 3.5) * scale)}" y="{num(cy - 16 * scale)}" width="{num(7 * scale)}" '
                       f'height="{num(26 * scale)}" rx="{num(2 * scale)}" fill="{pal.DYNAMITE}" stroke="#6e1a12" '
                       f'stroke-width="1"/>')
        out.append(f'<path d="M{num(cx)},{num(cy - 16 * scale)} q{num(4 * scale)},{num(-8 * scale)} '
                   f'{num(10 * scale)},{num(-8 * scale)}" stroke="{st.INK}" stroke-width="1.6" fill="none"/>'
                   f'<circle cx="{num(cx + 11 * scale)}" cy="{num(cy - 24 * scale)}" r="{num(3 * scale)}" '
                   f'fill="#ffb300"/>')
        out.append(st.text(cx, cy + 28 * scale, "D", size=18 * scale, anchor="middle", weight="bold",
                           fill=pal.DYNAMITE))
    out.append("</g>")
    return "".join(out)


def _entrance(x: float, y: float, colour: str) -> str:
    fill, line = st.player_fill(colour), st.player_line(colour)
    return (f'<g class="entrance {esc(colour)}"><path d="M{num(x)},{num(y + 30)} L{num(x)},{num(y + 12)} '
            f'Q{num(x)},{num(y)} {num(x + 18)},{num(y)} Q{num(x + 36)},{num(y)} {num(x + 36)},{num(y + 12)} '
            f'L{num(x + 36)},{num(y + 30)} Z" fill="{fill}" stroke="{line}" stroke-width="2"/>'
            f'<path d="M{num(x + 8)},{num(y + 30)} L{num(x + 8)},{num(y + 14)} Q{num(x + 8)},{num(y + 8)} '
            f'{num(x + 18)},{num(y + 8)} Q{num(x + 28)},{num(y + 8)} {num(x + 28)},{num(y + 14)} '
            f'L{num(x + 28)},{num(y + 30)} Z" fill="#1b120b"/></g>')


def _grid_labels(ncol: int, nrow: int) -> list[str]:
    """The letters under the columns and the numbers left of the rows of a lettered layout."""
    out = [st.text(LEFT + c * (CW + GAP) + CW / 2, TOP + nrow * (CH + GAP) + 24, chr(ord("a") + c), size=15,
                   anchor="middle", fill=st.GRID_TEXT, weight="bold", cls="coord") for c in range(ncol)]
    out += [st.text(26, TOP + r * (CH + GAP) + CH / 2 + 5, nrow - r, size=15, anchor="middle", fill="#e7dcc0",
                    weight="bold", cls="coord") for r in range(nrow)]
    return out


def _table(state: GoldState, positions: tuple[str, ...], cells: dict[str, Any], lettered: bool,
           flipped: dict[str, Card], known: dict[str, Card]) -> list[str]:
    """The cards on the table that the last turn did not flip: face down (with a face seen before, when
    revealed), or an empty place where a card has gone; each with its position's name unless lettered."""
    down = set(state.face_down())
    gone = set(state.removed())
    out: list[str] = []
    for pos in positions:
        x, y = _cell_xy(cells[pos])
        if pos in flipped:
            continue
        if pos in gone:
            out.append(f'<rect class="card empty" x="{num(x + 2)}" y="{num(y + 2)}" width="{CW - 4}" '
                       f'height="{CH - 4}" rx="6" fill="none" stroke="{pal.TABLE_LINE}" stroke-width="2" '
                       f'stroke-dasharray="6 5"/>')
        elif pos in down:
            out.append(card_back(x, y))
            if pos in known:
                out.append(card_face(x + 9, y + 12.6, known[pos], opacity=0.6, cls="card known", scale=0.7))
        if not lettered:
            out.append(st.text(x + CW / 2, y + CH - 5, pos, size=11, anchor="middle",
                               fill="#e7dcc0" if pos in down else st.GRID_TEXT, cls="coord"))
    return out


def _flipped_cards(position: PositionLike, cells: dict[str, Any], flipped: dict[str, Card]) -> list[str]:
    """The cards the last turn turned up, outlined in the colour of the player who turned them, each tagged
    with where it went (left the table, or back face down)."""
    state = position.state
    down = set(state.face_down())
    gone = set(state.removed())
    last = position.last
    colour = st.player_fill(last.player) if last is not None else st.HIGHLIGHT
    if last is not None:
        for s in position.seats:
            if last.player in s.colours:
                colour = st.player_fill(s.key)
    out: list[str] = []
    for pos, face in flipped.items():
        if pos not in cells:
            continue
        x, y = _cell_xy(cells[pos])
        state_cls = "gone" if pos in gone else "returned"
        if pos in down:
            out.append(card_back(x, y))
        out.append(card_face(x, y, face, opacity=0.55 if pos in gone else 1.0, cls=f"card flipped {state_cls}"))
        out.append(f'<rect x="{num(x - 4)}" y="{num(y - 4)}" width="{CW + 8}" height="{CH + 8}" rx="9" '
                   f'fill="none" stroke="{colour}" stroke-width="4"/>')
        tag = "left" if pos in gone else "back down"
        out.append(f'<rect x="{num(x + 2)}" y="{num(y + 2)}" width="{CW - 4}" height="13" rx="3" '
                   f'fill="#000000" fill-opacity="0.55"/>')
        out.append(st.text(x + CW / 2, y + 12, tag, size=10, anchor="middle", fill="#ffffff"))
    return out


def _gold_cards(cards: list[Any], gx: float, gy: float) -> list[str]:
    """A player's gold cards as chips, twelve a row, two rows at most (then a count of the rest)."""
    out: list[str] = []
    shown = cards if len(cards) <= 24 else cards[:22]
    for k, g in enumerate(shown):
        cx = gx + (k % 12) * 22
        cy = gy + (k // 12) * 34
        out.append(f'<g class="gold-card"><rect x="{cx}" y="{cy}" width="19" height="28" rx="3" fill="#fff3c4" '
                   f'stroke="{pal.GOLD_LINE}" stroke-width="1.2"/>'
                   + st.text(cx + 9.5, cy + 19, g.value, size=13, anchor="middle", weight="bold",
                             fill=pal.GOLD_LINE) + "</g>")
    if len(cards) > 24:
        out.append(st.text(gx + 10 * 22 + 2, gy + 34 + 19, f"+{len(cards) - 22}", size=12, weight="bold",
                           fill=st.INK_SOFT))
    return out


def _players(position: PositionLike, panel_x: int, panel_w: int, h: int, row_h: int) -> list[str]:
    """The panel beside the table: each player's entrance, colours, name, score and gold cards, then the
    table's state (how many cards face down and gone, the Gold Rush, the end)."""
    state = position.state
    names = {s.key: s.name for s in position.seats}
    owned = {s.key: s.colours for s in position.seats}
    for p in state.players:
        names.setdefault(p, p)
        owned.setdefault(p, tuple(state.colours.get(p, (p,))))
    out = [f'<rect x="{panel_x}" y="66" width="{panel_w - 12}" height="{h - 76}" rx="10" fill="{st.PANEL}" '
           f'stroke="{st.PANEL_LINE}" stroke-width="1.5"/>']
    py = 80
    scores = state.scores
    current = state.current_player if not state.is_over else None
    for p in state.players:
        cols = owned.get(p, (p,))
        out.append(f'<g class="player {esc(p)}">')
        out.append(_entrance(panel_x + 14, py + 4, cols[0]))
        if len(cols) > 1:
            for k, c in enumerate(cols[1:]):
                out.append(f'<circle cx="{panel_x + 60 + 14 * k}" cy="{py + 32}" r="6" fill="{st.player_fill(c)}" '
                           f'stroke="{st.player_line(c)}" stroke-width="1.5"/>')
        marker = " \u25c0 next" if p == current else ""
        out.append(st.text(panel_x + 58, py + 18, _clip(names.get(p, p), 22), size=16, weight="bold",
                           cls="player-name"))
        out.append(st.text(panel_x + 58 + (14 * (len(cols) - 1) + 6 if len(cols) > 1 else 0), py + 37,
                           "+".join(cols) + marker, size=12, fill=st.INK_SOFT))
        out.append(st.text(panel_x + panel_w - 26, py + 24, scores.get(p, 0), size=26, weight="bold",
                           anchor="end", cls="score"))
        cards = state.gold_of(p)
        out += _gold_cards(cards, panel_x + 14, py + 48)
        n = len(cards)
        out.append(st.text(panel_x + 14, py + row_h - 12,
                           f"{n} gold card{'s' if n != 1 else ''}, worth {scores.get(p, 0)}", size=12,
                           fill=st.INK_SOFT))
        out.append("</g>")
        py += row_h
    info = f"{len(state.face_down())} face down, {len(state.removed())} gone"
    if state.is_over:
        info += " - game over"
    elif state.phase == "rush":
        info += " - Gold Rush!"
    out.append(st.text(panel_x + 14, py + 14, info, size=13, fill=st.INK))
    return out


def render_gold(position: PositionLike, *, reveal: bool = False, width: int | None = None,
                shared_defs: bool = False) -> str:
    """The SVG of a Gold position (``shared_defs``: the card back is defined by the caller)."""
    state = position.state
    positions: tuple[str, ...] = tuple(state.positions)
    cells, ncol, nrow, lettered = layout_cells(positions)
    known = state.known_faces() if reveal else {}
    grid_w = LEFT + ncol * (CW + GAP) + 10
    grid_h = TOP + nrow * (CH + GAP) + 34
    panel_x = grid_w + 10
    panel_w = 300
    # every player's block has room for two rows of gold chips, so the line under them never overlaps
    # them and the picture keeps one size from the first position to the last (pages scale it to fit)
    row_h = 48 + 34 * 2 + 30
    h = max(grid_h, 96 + row_h * len(state.players) + 40)
    w = panel_x + panel_w
    out = [st.svg_open(w, h, (0, 0, w, h), px_width=width, cls="grn gold")]
    if not shared_defs:
        out.append("<defs>" + card_back_def() + "</defs>")
    out.append(f'<rect class="background" width="{w}" height="{h}" fill="{st.PAPER}"/>')
    out.append(f'<rect class="table" x="10" y="{TOP - 14}" width="{grid_w - 10}" height="{nrow * (CH + GAP) + 20}" '
               f'rx="12" fill="{pal.TABLE}" stroke="{pal.TABLE_LINE}" stroke-width="3"/>')
    out.append(st.text(16, 30, _title(position), size=20, weight="bold"))
    out.append(st.text(16, 52, _subtitle(position), size=14, fill=st.INK_SOFT))
    if lettered:
        out += _grid_labels(ncol, nrow)
    flipped: dict[str, Card] = {}
    last = position.last
    if last is not None and last.number > 0:
        flipped = {a.pos: a.face for a in last.actions if isinstance(a, FlipCard)}
    out += _table(state, positions, cells, lettered, flipped, known)
    out += _flipped_cards(position, cells, flipped)
    out += _players(position, panel_x, panel_w, h, row_h)
    out.append(_markup(position.markup, cells))  # on top
    out.append("</svg>")
    return "".join(out)


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n - 1] + "\u2026"


def _title(position: PositionLike) -> str:
    rec = position.record
    event = rec.tag("Event") or "Gold"
    return _clip(event, 48)


def _subtitle(position: PositionLike) -> str:
    last = position.last
    if last is None or last.number == 0:
        return "start of the game"
    from grn.notation.writer import command_text

    acts = " ".join(command_text(a) for a in last.actions)
    return _clip(f"after turn {last.number}: {last.player} {acts}", 70)


def _centre(cells: dict[str, tuple[int, int]], pos: str) -> tuple[float, float] | None:
    cell = cells.get(pos)
    if cell is None:
        return None
    x, y = _cell_xy(cell)
    return x + CW / 2, y + CH / 2


def _markup(markup: list[Markup], cells: dict[str, tuple[int, int]]) -> str:
    out = ['<g class="markup-layer">']
    for m in markup:
        words = mk.word_args(m)
        if m.kind == "highlight" and words:
            c = _centre(cells, words[0])
            if c is None:
                continue
            colour = st.colour_of(words[1] if len(words) > 1 else None)
            out.append(mk.ring(c[0] - CW / 2 - 5, c[1] - CH / 2 - 5, CW + 10, CH + 10, colour, width=5))
        elif m.kind == "arrow" and len(words) >= 2:
            a, b = _centre(cells, words[0]), _centre(cells, words[1])
            if a is None or b is None:
                continue
            colour = st.colour_of(words[2] if len(words) > 2 else None)
            out.append(mk.arrow(a[0], a[1], b[0], b[1], colour, width=6, shorten=12))
        elif m.kind == "label" and words:
            c = _centre(cells, words[0])
            t = mk.text_arg(m)
            if c is None or t is None:
                continue
            out.append(mk.label(c[0], c[1] + CH / 2 - 4, t, size=13))
    out.append("</g>")
    return "".join(out)
