"""The options of a game of Gold Rush (the ``Options`` tag): farmers, and the scoring cowboy house rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grn.value import reduce_dataclass


@dataclass(frozen=True, slots=True)
class Options:
    """Game options.

    ``farmers``: play with farmers and prairie scoring (the rulebook advises
    without for a first game).  ``cowboys``: cowboys each player may place;
    4 by the rules (the fifth is the scoring marker), 5 with the house rule.
    """

    farmers: bool = True
    cowboys: int = 4

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_dataclass(self)
