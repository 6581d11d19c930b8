"""What a Carcassonne turn or the final scoring reports: points, followers back, ingots placed and taken."""

from __future__ import annotations

from typing import Final

from grn.rules.engine import Event
from grn.games.tiling.events import ScoreEvent, TileDiscarded  # noqa: F401  (shared by the tile-laying games)
from grn.games.carcassonne.terms import counted


class FollowersReturned(Event):
    """Followers go back to their owners' supplies from a scored ``feature``: ``players`` one entry each."""

    __slots__ = ("feature", "players")
    _fields = ("feature", "players")

    def __init__(self, feature: str, players: tuple[str, ...]) -> None:
        self.feature: Final = feature
        self.players: Final = players

    def _key(self) -> tuple[object, ...]:
        return (self.feature, self.players)

    def describe(self) -> str:
        """E.g. "red's follower goes back from the road"."""
        if len(self.players) == 1:
            return f"{self.players[0]}'s follower goes back from the {self.feature}"
        who = ", ".join(self.players[:-1]) + " and " + self.players[-1]
        return f"the followers of {who} go back from the {self.feature}"

    def __repr__(self) -> str:
        return f"<FollowersReturned {self.feature} {list(self.players)}>"


class IngotsPlaced(Event):
    """Gold ingots set on tiles: ``places`` lists ``(x, y)`` once per ingot."""

    __slots__ = ("places",)
    _fields = ("places",)

    def __init__(self, places: tuple[tuple[int, int], ...]) -> None:
        self.places: Final = places

    def _key(self) -> tuple[object, ...]:
        return (self.places,)

    def describe(self) -> str:
        """E.g. "gold ingots go on 1,0 and 1,1"."""
        return "gold ingots go on " + " and ".join(f"{x},{y}" for x, y in self.places)

    def __repr__(self) -> str:
        return f"<IngotsPlaced {list(self.places)}>"


class IngotTaken(Event):
    """``player`` takes one gold ingot from the tile at ``(x, y)``."""

    __slots__ = ("player", "x", "y")
    _fields = ("player", "x", "y")

    def __init__(self, player: str, x: int, y: int) -> None:
        self.player: Final = player
        self.x: Final = x
        self.y: Final = y

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.x, self.y)

    def describe(self) -> str:
        """E.g. "red takes a gold ingot from 1,0"."""
        return f"{self.player} takes a gold ingot from {self.x},{self.y}"

    def __repr__(self) -> str:
        return f"<IngotTaken {self.player} {self.x},{self.y}>"


class IngotsRemoved(Event):
    """At the end of the game ``count`` ingots still on tiles leave the game."""

    __slots__ = ("count",)
    _fields = ("count",)

    def __init__(self, count: int) -> None:
        self.count: Final = count

    def _key(self) -> tuple[object, ...]:
        return (self.count,)

    def describe(self) -> str:
        """E.g. "3 gold ingots still on tiles are removed from the game"."""
        return f"{counted(self.count, 'gold ingot')} still on tiles {'is' if self.count == 1 else 'are'} removed from the game"

    def __repr__(self) -> str:
        return f"<IngotsRemoved {self.count}>"
