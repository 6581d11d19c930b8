"""Drawing positions, tile sets and whole game files: SVG and self-contained HTML.

* :func:`render_svg` -- one position (:func:`grn.position.position_at`) as an SVG
  document drawn by the game's ruleset, with the record's diagram markup on top.
* :func:`render_tile_sheet` -- every design of a tile set with its id, copies
  and symbols (the drawn sheet of ``docs/tileset.md``).
* :func:`render_html` -- one self-contained HTML file (no network, no external
  assets) to step through every position of every game of a file.

The pictures are plain SVG strings; every text that comes from a record is
escaped (:func:`grn.render.style.esc`).
"""

from __future__ import annotations

from typing import Any, Iterable


__all__ = ["render_svg", "render_tile_sheet", "render_html", "RenderError"]


class RenderError(Exception):
    """The position belongs to a game the renderer cannot draw."""


def render_svg(position: Any, *, legal: bool = False, reveal: bool = False, width: int | None = None) -> str:
    """The SVG document of ``position`` (a :class:`grn.position.Position`).

    ``legal`` (tile-laying games) overlays every legal placement of the next
    tile when the record names it; ``reveal`` (card games) shows the faces known
    so far on the face-down cards, dimmed; ``width`` fixes the picture's width in pixels
    (the drawing scales with its ``viewBox`` either way).
    """
    ruleset = position.ruleset
    try:
        return ruleset.render_svg(position, legal=legal, reveal=reveal, width=width)
    except NotImplementedError as exc:
        raise RenderError(str(exc)) from None


def render_tile_sheet(tileset: Any, *, columns: int = 6) -> str:
    """An SVG sheet of every tile id of ``tileset`` (drawn by the ruleset its ``game`` names)."""
    from grn import games

    return games.find_ruleset(tileset.game).render_tile_sheet(tileset, columns=columns)


def render_html(records: Iterable[Any], *, file_name: str, tileset: Any = None,
                reports: Any = None) -> str:
    """One self-contained HTML page stepping through every position of every game in ``records``.

    ``tileset`` replaces the game's shipped tile set.
    """
    from grn.render.html import render_html as _render

    return _render(records, file_name=file_name, tileset=tileset, reports=reports)
