"""What every tile-laying game reports alike: points scored for a feature, a drawn tile that fits nowhere."""

from __future__ import annotations

from typing import Any, Final

from grn.rules.engine import Event


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

    ``detail`` says what was scored in words; ``final`` marks the final scoring.  ``counts`` says it as
    numbers, ``(name, count)`` pairs such as ``(("tiles", 4), ("pennants", 1))``: what the points were
    counted from, for searches (``grn archive search --event "type=ScoreEvent tiles>=10"``).  They restate
    ``detail``, so they take no part in equality.
    """

    __slots__ = ("player", "points", "feature", "detail", "final", "counts")
    _fields = ("player", "points", "feature", "detail", "final", "counts")

    def __init__(self, player: str, points: int, feature: str, detail: str, final: bool = False,
                 counts: tuple[tuple[str, int], ...] = ()) -> None:
        self.player: Final = player
        self.points: Final = points
        self.feature: Final = feature
        self.detail: Final = detail
        self.final: Final = final
        self.counts: Final = counts

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.points, self.feature, self.detail, self.final)

    def nothing_for(self) -> str | None:
        return f"{self.player} ({self.detail})" if self.points == 0 else None

    def describe(self) -> str:
        """E.g. "blue scores 8 for a completed city of 3 tiles with one pennant"."""
        return f"{self.player} scores {self.points} for {self.detail}"

    def to_json(self) -> dict[str, Any]:
        """The fields, with each count as a field of its own (``"tiles": 4``)."""
        out: dict[str, Any] = {"type": "ScoreEvent", "player": self.player, "points": self.points,
                               "feature": self.feature, "detail": self.detail, "final": self.final}
        for name, count in self.counts:
            out.setdefault(name, count)
        return out

    def __repr__(self) -> str:
        return f"<ScoreEvent {self.player} +{self.points} {self.feature}{' final' if self.final else ''}>"
