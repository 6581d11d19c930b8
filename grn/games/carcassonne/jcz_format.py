"""JCloisterZone saved games (``.jcz``): the facts of the format grn reads and writes.

A ``.jcz`` file is JSON: ``setup`` (``sets``, ``elements``, ``rules``,
``start``), ``players`` (``name``, ``slot``), ``replay`` (the messages of
the game: ``PLACE_TILE``, ``PLACE_TOKEN`` for the second gold ingot,
``DEPLOY_MEEPLE`` or ``PASS``, then ``COMMIT``), optional
``gameAnnotations`` (``drawOrder``: the tiles in the order drawn;
``endTurn``: the game ends after that turn) and optional ``test``
(``assertions`` such as "Alice has 9 points").  JCloisterZone's y axis grows
south, GRN's north; its rotations (``R90``) are clockwise like GRN's; its
feature locations are read on the board, after the turn.  This module holds
the names (``jcz.json``), the locations, and reading JSON values with their
path; :mod:`.jcz_read` and :mod:`.jcz_write` convert.  docs/interop.md has the
whole mapping and what is kept and what is not.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from grn.rules.interop import ConversionProblem, one_line

#: The replay messages a base game (with The Gold Mines) is made of.
MESSAGES = ("PLACE_TILE", "PLACE_TOKEN", "DEPLOY_MEEPLE", "PASS", "COMMIT")
#: The follower of the base game; JCloisterZone's other figures belong to expansions.
SMALL = "small"
#: JCloisterZone's appVersion written on export (its own engine tests' version of the format).
APP_VERSION = "5.7.0"
#: The largest number GRN writes (R45: at most 9 digits).
LIMIT = 999_999_999
#: The key of a ``.jcz`` file where grn keeps what JCloisterZone has no word for (R55).
GRN_KEY = "grn"

# Location names: each edge is two bits shifted left by 8 (JCloisterZone's board/Location.java).
_EDGE_BITS = {"N": 0x0300, "E": 0x0C00, "S": 0x3000, "W": 0xC000}
_EDGE_NAMES: dict[str, int] = {
    "N": 0x0300, "E": 0x0C00, "S": 0x3000, "W": 0xC000, "NW": 0xC300, "SW": 0xF000, "SE": 0x3C00,
    "NE": 0x0F00, "WE": 0xCC00, "NS": 0x3300, "NWSE": 0xFF00, "_N": 0xFC00, "_W": 0x3F00, "_S": 0xCF00,
    "_E": 0xF300,
}
#: The half edges of fields, in JCloisterZone's bit order, and the GRN place of each.
_HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
_HALF_PLACE = dict(zip(_HALVES, ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")))
PLACES = frozenset(("NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW", "C"))
_WHOLE = (("N", "NL", "NR"), ("E", "EL", "ER"), ("S", "SL", "SR"), ("W", "WL", "WR"))
#: The cloister's location: ``I`` in JCloisterZone 5.7 and later, which grn writes; ``CLOISTER`` up to 5.6.3,
#: which grn still reads (R86).
CLOISTER = "I"
OLD_CLOISTER = "CLOISTER"
ROTATIONS = {"R0": 0, "R90": 90, "R180": 180, "R270": 270}
MEEPLE_ID = re.compile(r"^(\d{1,3})\.([a-z-]+)\.(\d{1,3})$")
POINTS = re.compile(r"^\s*(.+?) has (-?\d{1,9}) points?\s*$")


@lru_cache(maxsize=1)
def mapping_data() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(resources.files(__package__).joinpath("jcz.json").read_text("utf-8"))
    return raw


def jcz_tile_ids() -> dict[str, str]:
    """GRN tile id -> JCloisterZone tile id."""
    tiles: dict[str, str] = mapping_data()["tiles"]
    return tiles


def grn_tile_of() -> dict[str, str]:
    """JCloisterZone tile id (with the garden copies of its ``basic:2`` set) -> GRN tile id."""
    table = {jid: tid for tid, jid in jcz_tile_ids().items()}
    table.update(mapping_data()["garden"])
    return table


def slot_colours() -> list[str]:
    """The GRN colour of each JCloisterZone player slot (R53)."""
    slots: list[str] = mapping_data()["slots"]
    return slots


# ----------------------------------------------------------------------
# checked access to JSON, each problem naming its JSON path
def kind_of(value: Any) -> str:
    """What a JSON value is, in words for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)


def as_object(value: Any, path: str) -> dict[str, Any]:
    """``value`` if it is a JSON object, else the problem at ``path``."""
    if not isinstance(value, dict):
        raise ConversionProblem(f"expected an object, found {kind_of(value)}", path)
    return value


def as_list(value: Any, path: str) -> list[Any]:
    """``value`` if it is a JSON list, else the problem at ``path``."""
    if not isinstance(value, list):
        raise ConversionProblem(f"expected a list, found {kind_of(value)}", path)
    return value


def as_str(value: Any, path: str) -> str:
    """``value`` if it is a JSON string, else the problem at ``path``."""
    if not isinstance(value, str):
        raise ConversionProblem(f"expected a string, found {kind_of(value)}", path)
    return value


def as_int(value: Any, path: str, low: int = -LIMIT, high: int = LIMIT) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (R45: at most 9 digits), else the problem."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and (not math.isfinite(value) or not value.is_integer())):
        raise ConversionProblem(f"expected a whole number, found {kind_of(value)}", path)
    number = int(value)
    if not low <= number <= high:
        said = str(number) if abs(number) < 10 ** 12 else f"a number of {len(str(abs(number)))} digits"
        raise ConversionProblem(f"{said} is out of range ({low} to {high})", path)
    return number


def required(doc: dict[str, Any], key: str, path: str) -> Any:
    """``doc[key]``, or the problem that it is missing from the object at ``path``."""
    if key not in doc:
        raise ConversionProblem(f"{key!r} is missing", path)
    return doc[key]


def position_of(value: Any, path: str) -> tuple[int, int]:
    """A JCloisterZone position ``[x, y]`` (y grows south) as GRN ``(x, y)`` (y grows north)."""
    pair = as_list(value, path)
    if len(pair) != 2:
        raise ConversionProblem(f"a position is [x, y], not {len(pair)} numbers", path)
    return as_int(pair[0], path + "[0]"), -as_int(pair[1], path + "[1]")


def comment_text(text: str) -> str:
    """``text`` as the inside of a GRN ``{comment}`` (no braces, one line)."""
    return one_line(text.replace("{", "(").replace("}", ")"))


# ----------------------------------------------------------------------
# locations
def location_place(text: str, path: str) -> str:
    """The GRN place of a JCloisterZone feature location (``N``, ``WE``, ``NL.NR.EL``, the cloister's ``I``,
    or ``CLOISTER`` as JCloisterZone 5.6.3 and earlier write it)."""
    if text in (CLOISTER, OLD_CLOISTER):
        return "C"
    parts = text.split(".")
    if all(p in _EDGE_NAMES for p in parts) and len(parts) == 1:
        mask = _EDGE_NAMES[parts[0]]
        return next(e for e in ("N", "E", "S", "W") if mask & _EDGE_BITS[e])
    if all(p in _HALF_PLACE for p in parts):
        # as grn names a field: the middle of its first whole edge, else its first half edge
        whole = [e for e, a, b in _WHOLE if a in parts and b in parts]
        return whole[0] if whole else _HALF_PLACE[next(h for h in _HALVES if h in parts)]
    raise ConversionProblem(f"location {text!r} is not a place of the base game's features "
                            "(an edge such as N or WE, half edges such as NL.NR, or I, the cloister)", path)


def place_location(places: Sequence[str], kind: str) -> str:
    """The JCloisterZone location of a feature holding these GRN ``places`` (on the board) of a tile."""
    if kind == "cloister":
        return CLOISTER
    if kind == "field":
        return ".".join(h for h in _HALVES if _HALF_PLACE[h] in places)
    mask = 0
    for e, bits in _EDGE_BITS.items():
        if e in places:
            mask |= bits
    return next(name for name, m in _EDGE_NAMES.items() if m == mask)



__all__ = ["MESSAGES", "SMALL", "APP_VERSION", "LIMIT", "GRN_KEY", "CLOISTER", "OLD_CLOISTER", "ROTATIONS", "MEEPLE_ID", "POINTS",
           "PLACES", "mapping_data", "jcz_tile_ids", "grn_tile_of", "slot_colours", "kind_of", "as_object", "as_list",
           "as_str", "as_int", "required", "position_of", "comment_text", "location_place", "place_location"]
