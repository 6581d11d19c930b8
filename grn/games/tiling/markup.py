"""What diagram markup in a tile-laying game points at: a tile ``x,y``, a feature ``x,y:PLACE``, or a
ghost tile ``17@2,0:90``.

One reading for the ruleset's checks and every game's drawing, so a coordinate the checks let
through is one the drawing can use: each number has at most 9 digits, like every number in GRN.
"""

from __future__ import annotations

import re

_POINT = re.compile(r"^(-?[0-9]{1,9}),(-?[0-9]{1,9})(?::([A-Z]{1,3}))?$")
_LOOSE_POINT = re.compile(r"^-?\d+,-?\d+(?::([A-Z]+))?$")
_GHOST = re.compile(r"^([A-Za-z0-9_]+)@(-?[0-9]{1,9}),(-?[0-9]{1,9})(?::([0-9]{1,9}))?$")


def point(word: str) -> tuple[int, int, str | None] | None:
    """``x,y`` or ``x,y:PLACE`` as ``(x, y, PLACE or None)``; None for anything else."""
    m = _POINT.match(word)
    return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else None


def point_problem(word: str) -> str | None:
    """Why ``word`` is not a tile or feature point, in words; None when it is one (its place unchecked)."""
    if _POINT.match(word):
        return None
    if _LOOSE_POINT.match(word):
        return f"{word[:40]!r}{'...' if len(word) > 40 else ''}: a coordinate has at most 9 digits"
    return f"{word!r} is not a tile x,y (or a feature x,y:PLACE)"


def is_point_shaped(word: str) -> bool:
    """``word`` has the shape of a point, whatever the length of its numbers and its place."""
    return _LOOSE_POINT.match(word) is not None


def ghost(word: str) -> tuple[str, int, int, int] | None:
    """``17@2,0:90`` as ``(tile, x, y, rotation)``; None for anything else (the rotation is not checked)."""
    m = _GHOST.match(word)
    return (m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4) or 0)) if m else None
