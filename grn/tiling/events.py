"""What every tile-laying game reports alike: a drawn tile that fits nowhere leaves the game."""

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
