"""The places on a tile's border, rotations, and how places meet across an edge.

A tile's border has twelve places, clockwise from the west half of the north
edge (``docs/design.md``, "Tile places and rotation").  ``N``, ``E``, ``S``,
``W`` are the middles of the edges (where a path meets the edge); ``NNW`` and
``NNE`` are the west and east halves of the north edge, and so on.  ``C`` is
the centre of the tile.
"""

from __future__ import annotations

from typing import Final

POSITIONS: Final[tuple[str, ...]] = (
    "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW",
)
CENTRE: Final = "C"
#: Every spelling a feature location may take.
LOCATIONS: Final[tuple[str, ...]] = POSITIONS + (CENTRE,)
#: Quarter turns, in degrees clockwise.
ROTATIONS: Final[tuple[int, ...]] = (0, 90, 180, 270)
#: Place name -> index (0..11).
PLACE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(POSITIONS)}
#: Indices of the edge middles N, E, S, W.
EDGE_MIDDLES: Final[tuple[int, ...]] = (1, 4, 7, 10)


def opposite_place(i: int) -> int:
    """The place on the neighbouring tile that touches place ``i``."""
    e, k = divmod(i, 3)
    return ((e + 2) % 4) * 3 + (2 - k)


def rotate_place(i: int, rotation: int) -> int:
    """Where place ``i`` ends up when the tile is turned ``rotation`` degrees clockwise."""
    return (i + 3 * (rotation // 90)) % 12


def spot_text(x: int, y: int, rotation: int = 0) -> str:
    """``x,y`` or ``x,y:rotation``: how GRN writes where a tile goes."""
    return f"{x},{y}" + (f":{rotation}" if rotation else "")
