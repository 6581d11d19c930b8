"""The options of a game of Gold Rush (the ``Options`` tag): farmers, and the scoring cowboy house rule."""

from __future__ import annotations

from typing import Final

from grn.core.value import Value


class Options(Value):
    """Game options.

    ``farmers``: play with farmers and prairie scoring (the rulebook advises
    without for a first game).  ``cowboys``: cowboys each player may place;
    4 by the rules (the fifth is the scoring marker), 5 with the house rule.
    """

    __slots__ = ("farmers", "cowboys")
    _fields = ("farmers", "cowboys")

    def __init__(self, farmers: bool = True, cowboys: int = 4) -> None:
        self.farmers: Final = farmers
        self.cowboys: Final = cowboys

    def _key(self) -> tuple[object, ...]:
        return (self.farmers, self.cowboys)
