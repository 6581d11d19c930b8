"""Drawing positions, tile sets and whole game files: SVG and self-contained HTML.

* :func:`render_svg` -- one position (:func:`grn.position.position_at`) as an SVG
  document: the Gold Rush board or the Gold card layout, with the record's
  diagram markup on top.
* :func:`render_tile_sheet` -- every design of a tile set with its id, copies
  and symbols (the drawn sheet of ``docs/tileset.md``).
* :func:`render_html` -- one self-contained HTML file (no network, no external
  assets) to step through every position of every game of a file.

The pictures are plain SVG strings; every text that comes from a record is
escaped (:func:`grn.render.style.esc`).
"""

from __future__ import annotations

from typing import Any, Iterable

from grn.render import style as st

__all__ = ["render_svg", "render_tile_sheet", "render_html", "RenderError"]


class RenderError(Exception):
    """The position belongs to a game the renderer cannot draw."""


def render_svg(position: Any, *, legal: bool = False, reveal: bool = False, width: int | None = None) -> str:
    """The SVG document of ``position`` (a :class:`grn.position.Position`).

    ``legal`` (Gold Rush) overlays every legal placement of the next tile when
    the record names it; ``reveal`` (Gold) shows the faces known so far on the
    face-down cards, dimmed; ``width`` fixes the picture's width in pixels
    (the drawing scales with its ``viewBox`` either way).
    """
    game = getattr(position, "game", None)
    if game == "goldrush":
        from grn.render.goldrush import render_goldrush

        return render_goldrush(position, legal=legal, width=width)
    if game == "gold":
        from grn.render.gold import render_gold

        return render_gold(position, reveal=reveal, width=width)
    raise RenderError(f"cannot draw a position of the game {game!r}")


def render_tile_sheet(tileset: Any, *, columns: int = 6) -> str:
    """An SVG sheet of every tile id of ``tileset`` at rotation 0, with id, copies and symbols."""
    from grn.render.tiles import designs_in_order, symbol_summary, tile_drawing

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


def render_html(records: Iterable[Any], *, file_name: str, tileset: Any = None,
                reports: Any = None) -> str:
    """One self-contained HTML page stepping through every position of every game in ``records``.

    ``tileset`` replaces the shipped Gold Rush tile set.
    """
    from grn.render.html import render_html as _render

    return _render(records, file_name=file_name, tileset=tileset, reports=reports)
