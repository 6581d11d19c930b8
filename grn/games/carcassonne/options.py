"""The options of a game of Carcassonne (the ``Options`` tag): The Gold Mines, farmers, two-tile cities."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grn.value import reduce_dataclass


@dataclass(frozen=True, slots=True)
class Options:
    """Game options.

    ``goldmines``: The Gold Mines mini-expansion (its 8 tiles join the bag).
    ``farmers``: farmers and field scoring (on by default, as in tournaments).
    ``smallcity``: the early rule that a completed city of two tiles scores
    1 per tile and 1 per pennant instead of 2 and 2.
    ``basic``: how many copies of the base game's tiles are in the box (a
    JCloisterZone game of two sets; ``basic=2``), and ``goldmines_copies`` of The
    Gold Mines' (``goldmines=2``); docs/rulings.md R86.
    """

    goldmines: bool = False
    farmers: bool = True
    smallcity: bool = False
    basic: int = 1
    goldmines_copies: int = 1

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_dataclass(self)

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
