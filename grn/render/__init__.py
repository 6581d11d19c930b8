"""Drawing positions, tile sets and whole game files: SVG and self-contained HTML.

* :func:`render_svg` -- one position (:func:`grn.rules.position.position_at`) as an SVG
  document drawn by the game's ruleset, with the record's diagram markup on top.
* :func:`render_tile_sheet` -- every design of a tile set with its id, copies
  and symbols (the drawn sheet of ``docs/tileset.md``).
* :func:`render_html` -- one self-contained HTML file (no network, no external
  assets) to step through every position of every game of a file, or the
  viewer alone to embed in another page; :mod:`grn.render.site` writes a
  static site of many games.

The pictures are plain SVG strings; every text that comes from a record is
escaped (:func:`grn.render.style.esc`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from grn.rules import registry
from grn.core.record import Comment
from grn.rules.ruleset import Drawing

if TYPE_CHECKING:
    from grn.rules.ruleset import PositionLike


__all__ = ["render_svg", "render_tile_sheet", "render_html", "RenderError"]


class RenderError(Exception):
    """The position belongs to a game the renderer cannot draw."""


def render_svg(position: PositionLike, *, legal: bool = False, reveal: bool = False, width: int | None = None,
               diagram: bool = False, crop: tuple[int, int, int, int] | None = None) -> str:
    """The SVG document of ``position`` (a :class:`grn.rules.position.Position`).

    ``legal`` (tile-laying games) overlays every legal placement of the next
    tile when the record names it; ``reveal`` (card games) shows the faces known
    so far on the face-down cards, dimmed; ``width`` fixes the picture's width in pixels
    (the drawing scales with its ``viewBox`` either way).  ``diagram`` draws a
    picture for a rules forum: only the board around the markup (or ``crop``),
    no player panel, the question (:func:`diagram_caption`) as its caption, 700
    pixels wide.
    """
    ruleset = position.ruleset
    assert ruleset is not None  # a replayed position knows its game
    drawing = Drawing(legal=legal, reveal=reveal, width=width, diagram=diagram, crop=crop if diagram else None,
                      caption=diagram_caption(position) if diagram else None)
    try:
        return ruleset.render_svg(position, drawing)
    except NotImplementedError as exc:
        raise RenderError(str(exc)) from None


def diagram_caption(position: PositionLike) -> str | None:
    """The question a diagram shows: the ``Caption`` tag, else the first comment before the first turn,
    else the comments of the position's last turn."""
    record = position.record
    caption = record.tag("Caption")
    if caption:
        return str(caption)
    intro = [n.text.strip() for n in record.intro if isinstance(n, Comment)]
    if intro:
        return intro[0]
    if position.last is not None:
        said = [c.text.strip() for c in position.last.comments]
        if said:
            return " ".join(said)
    return None


def render_tile_sheet(tileset: Any, *, columns: int = 6) -> str:
    """An SVG sheet of every tile id of ``tileset`` (drawn by the ruleset its ``game`` names)."""
    return registry.find_ruleset(tileset.game).render_tile_sheet(tileset, columns=columns)


def render_html(records: Iterable[Any], *, file_name: str, tileset: Any = None,
                reports: Any = None, embed: bool = False) -> str:
    """One self-contained HTML page to view every game in ``records`` (moves, variations, scores).

    ``tileset`` replaces the game's shipped tile set; ``embed`` writes only the
    viewer (one ``<div>`` and one ``<script>``) to paste into another page.
    """
    from grn.render.html import render_html as _render

    return _render(records, file_name=file_name, tileset=tileset, reports=reports, embed=embed)
