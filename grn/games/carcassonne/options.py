"""The options of a game of Carcassonne (the ``Options`` tag): The Gold Mines, farmers, two-tile cities."""

from __future__ import annotations

import re
from typing import Any, Final

from grn.core.record import Record
from grn.rules.ruleset import SetupProblem
from grn.core.value import Value


class Options(Value):
    """Game options.

    ``goldmines``: The Gold Mines mini-expansion (its 8 tiles join the bag).
    ``farmers``: farmers and field scoring (on by default, as in tournaments).
    ``smallcity``: the early rule that a completed city of two tiles scores
    1 per tile and 1 per pennant instead of 2 and 2.
    ``basic``: how many copies of the base game's tiles are in the box (a
    JCloisterZone game of two sets; ``basic=2``), and ``goldmines_copies`` of The
    Gold Mines' (``goldmines=2``); docs/rulings.md R86.
    """

    __slots__ = ("goldmines", "farmers", "smallcity", "basic", "goldmines_copies")
    _fields = ("goldmines", "farmers", "smallcity", "basic", "goldmines_copies")

    def __init__(self, goldmines: bool = False, farmers: bool = True, smallcity: bool = False, basic: int = 1,
                 goldmines_copies: int = 1) -> None:
        self.goldmines: Final = goldmines
        self.farmers: Final = farmers
        self.smallcity: Final = smallcity
        self.basic: Final = basic
        self.goldmines_copies: Final = goldmines_copies

    def _key(self) -> tuple[object, ...]:
        return (self.goldmines, self.farmers, self.smallcity, self.basic, self.goldmines_copies)

    def words(self) -> dict[str, str]:
        """The Options tag's words for these options (what self-play writes)."""
        out = {"farmers": "on" if self.farmers else "off"}
        if self.goldmines:
            out["goldmines"] = "on" if self.goldmines_copies == 1 else str(self.goldmines_copies)
        if self.smallcity:
            out["smallcity"] = "on"
        if self.basic != 1:
            out["basic"] = str(self.basic)
        return out


OPTIONS_HELP = ("goldmines (or goldmines=N copies), farmers=on|off, smallcity (a completed two-tile city scores 1 "
                "per tile and pennant) and basic=N (copies of the base game's tiles)")
#: The most copies of a tile set a game may hold.
MAX_COPIES = 9


_START = re.compile(r"^\s*([A-Za-z0-9]{1,12})(?:@(-?\d{1,3}),(-?\d{1,3}))?(?::(0|90|180|270))?\s*$")


def start_of(record: Record) -> tuple[str, int, int, int] | None:
    """The start tile a record declares in its ``Start`` tag (``TILE``, ``TILE@X,Y``, ``TILE@X,Y:R``), or None
    for the base game's (D at 0,0 unturned).  A tag that cannot be read is a :class:`SetupProblem`."""
    text = record.tag("Start")
    if text is None:
        return None
    m = _START.match(text)
    if m is None:
        raise SetupProblem(f"Start tag: write the start tile as TILE, TILE@X,Y or TILE@X,Y:ROTATION (such as "
                           f"\"D@0,0\" or \"K@0,0:90\"), not {text!r}", "start", tag="Start")
    tile, x, y, rot = m.groups()
    return tile, int(x or 0), int(y or 0), int(rot or 0)


def parse_options(words: dict[str, str]) -> Options:
    """Carcassonne :class:`Options` from the ``Options`` tag's words (a bare word means on)."""
    kwargs: dict[str, Any] = {}
    for key, value in words.items():
        if key not in ("goldmines", "farmers", "smallcity", "basic"):
            raise SetupProblem(f"Options tag: unknown option {key!r}: the options are {OPTIONS_HELP}",
                               "options", tag="Options")
        copies = key in ("goldmines", "basic") and len(value) == 1 and value.isascii() and value.isdigit()
        if key == "basic":
            if not copies or not 1 <= int(value) <= MAX_COPIES:
                raise SetupProblem(f"Options tag: basic is the number of copies of the base game's tiles, 1 to "
                                   f"{MAX_COPIES}, not {value!r}", "options", tag="Options")
            kwargs["basic"] = int(value)
        elif copies:
            if not int(value) <= MAX_COPIES:  # pragma: no cover - one digit
                raise SetupProblem(f"Options tag: goldmines=N takes 0 to {MAX_COPIES} copies", "options",
                                   tag="Options")
            kwargs["goldmines"] = int(value) > 0
            kwargs["goldmines_copies"] = max(1, int(value))
        elif value not in ("on", "off"):
            what = "on, off or a number of copies" if key == "goldmines" else "on or off"
            raise SetupProblem(f"Options tag: {key} must be {what}, not {value!r}", "options", tag="Options")
        else:
            kwargs[key] = value == "on"
    return Options(**kwargs)
