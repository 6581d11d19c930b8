"""What every tile-laying game reports alike: points scored for a feature, a drawn tile that fits nowhere."""

from __future__ import annotations

from typing import Final

from grn.engine import Event


class TileDiscarded(Event):
    """``player`` drew ``tile``, which fits nowhere, and discarded it."""

    __slots__ = ("player", "tile")
    _fields = ("player", "tile")

    def __init__(self, player: str, tile: str) -> None:
        self.player: Final = player
        self.tile: Final = tile

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.tile)

    def describe(self) -> str:
        """E.g. "red discards tile 17 (it fits nowhere)"."""
        return f"{self.player} discards tile {self.tile} (it fits nowhere)"

    def __repr__(self) -> str:
        return f"<TileDiscarded {self.player} {self.tile}>"


class ScoreEvent(Event):
    """``player`` scores ``points`` for a ``feature`` (the game's word: 'road', 'railroad', 'gold', ...).

    ``detail`` says what was scored in words; ``final`` marks the final scoring.
    """

    __slots__ = ("player", "points", "feature", "detail", "final")
    _fields = ("player", "points", "feature", "detail", "final")

    def __init__(self, player: str, points: int, feature: str, detail: str, final: bool = False) -> None:
        self.player: Final = player
        self.points: Final = points
        self.feature: Final = feature
        self.detail: Final = detail
        self.final: Final = final

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.points, self.feature, self.detail, self.final)

    def describe(self) -> str:
        """E.g. "blue scores 8 for a completed city of 3 tiles with one pennant"."""
        return f"{self.player} scores {self.points} for {self.detail}"

    def __repr__(self) -> str:
        return f"<ScoreEvent {self.player} +{self.points} {self.feature}{' final' if self.final else ''}>"
