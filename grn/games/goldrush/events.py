"""What a Gold Rush turn or the final scoring reports: points, tokens taken, cowboys and tents returned.

Each is a small immutable :class:`~grn.rules.engine.Event` with a sentence for
``--explain`` and the page (:meth:`describe`).
"""

from __future__ import annotations

from typing import Any, Final, Sequence

from grn.rules.engine import Event
from grn.games.tiling.events import ScoreEvent, TileDiscarded  # noqa: F401  (shared by the tile-laying games)
from grn.games.goldrush.terms import counted


def _values_text(values: Sequence[int | None]) -> str:
    return ", ".join("?" if v is None else str(v) for v in values)


class TokensTaken(Event):
    """``player`` takes ``count`` mining tokens from a completed mountain (faces as revealed, None unknown).

    ``ids`` (the tokens' places in the supply) take no part in equality.
    """

    __slots__ = ("player", "count", "values", "ids")
    _fields = ("player", "count", "values", "ids")

    def __init__(self, player: str, count: int, values: tuple[int | None, ...], ids: tuple[int, ...] = ()) -> None:
        self.player: Final = player
        self.count: Final = count
        self.values: Final = values
        self.ids: Final = ids

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.count, self.values)

    def describe(self) -> str:
        """E.g. "yellow takes 6 mining tokens (2, 2, ?, 1, 3, 0)"."""
        return f"{self.player} takes {counted(self.count, 'mining token')} ({_values_text(self.values)})"

    def __repr__(self) -> str:
        return f"<TokensTaken {self.player} {self.count} [{_values_text(self.values)}]>"


class TokenMined(Event):
    """``player`` takes the top mining token of the mountain where their tent stands (step 2c).

    ``id`` (the token's place in the supply) takes no part in equality.
    """

    __slots__ = ("player", "value", "id")
    _fields = ("player", "value", "id")

    def __init__(self, player: str, value: int | None, id: int = -1) -> None:
        self.player: Final = player
        self.value: Final = value
        self.id: Final = id

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.value)

    def describe(self) -> str:
        """E.g. "red mines a token (2)"."""
        return f"{self.player} mines a token ({'?' if self.value is None else self.value})"

    def __repr__(self) -> str:
        return f"<TokenMined {self.player} {'?' if self.value is None else self.value}>"


class TokensPlaced(Event):
    """``count`` mining tokens go on the mountain of the tile at ``(x, y)``; ``wanted`` its nugget symbols."""

    __slots__ = ("x", "y", "count", "wanted", "where")
    _fields = ("x", "y", "count", "wanted", "where")

    def __init__(self, x: int, y: int, count: int, wanted: int, where: str = "") -> None:
        self.x: Final = x
        self.y: Final = y
        self.count: Final = count
        self.wanted: Final = wanted
        #: The mountain's place on a tile with more than one (``N``), as the notation names it; else "".
        self.where: Final = where

    def _key(self) -> tuple[object, ...]:
        return (self.x, self.y, self.count, self.wanted, self.where)

    def to_json(self) -> dict[str, Any]:
        """The fields; ``where`` only on a tile with more than one mountain."""
        out = super().to_json()
        if not self.where:
            del out["where"]
        return out

    def describe(self) -> str:
        """E.g. "2 mining tokens go on the mountain at 1,0" (``at 2,0:N`` on a tile with two mountains)."""
        verb = "goes" if self.count == 1 else "go"
        at = f"{self.x},{self.y}" + (f":{self.where}" if self.where else "")
        text = f"{counted(self.count, 'mining token')} {verb} on the mountain at {at}"
        if self.count < self.wanted:
            text += f" (the supply is out: {self.wanted} were due)"
        return text

    def __repr__(self) -> str:
        return f"<TokensPlaced {self.x},{self.y} {self.count}/{self.wanted}>"


class TokensReturned(Event):
    """``count`` tokens leave a mountain without a taker: back to the supply, or out of the game (final)."""

    __slots__ = ("count", "final")
    _fields = ("count", "final")

    def __init__(self, count: int, final: bool = False) -> None:
        self.count: Final = count
        self.final: Final = final

    def _key(self) -> tuple[object, ...]:
        return (self.count, self.final)

    def describe(self) -> str:
        """E.g. "3 mining tokens go back to the supply"."""
        if self.final:
            verb = "is" if self.count == 1 else "are"
            return f"{counted(self.count, 'mining token')} left on mountains {verb} removed from the game"
        verb = "goes" if self.count == 1 else "go"
        return f"{counted(self.count, 'mining token')} {verb} back to the supply (no gold miner on the mountain)"

    def __repr__(self) -> str:
        return f"<TokensReturned {self.count}{' final' if self.final else ''}>"


class FollowerReturned(Event):
    """A cowboy of ``player`` comes back from a completed ``feature`` ('railroad', 'mountain', 'city')."""

    __slots__ = ("player", "feature")
    _fields = ("player", "feature")

    def __init__(self, player: str, feature: str) -> None:
        self.player: Final = player
        self.feature: Final = feature

    def _key(self) -> tuple[object, ...]:
        return (self.player, self.feature)

    def describe(self) -> str:
        """E.g. "blue's railwayman returns to the supply"."""
        role = {"railroad": "railwayman", "mountain": "gold miner", "city": "merchant"}.get(self.feature, "cowboy")
        return f"{self.player}'s {role} returns to the supply"

    def __repr__(self) -> str:
        return f"<FollowerReturned {self.player} {self.feature}>"


class TentReturned(Event):
    """The tent of ``player`` comes back (its mountain was completed, or the game ended)."""

    __slots__ = ("player",)
    _fields = ("player",)

    def __init__(self, player: str) -> None:
        self.player: Final = player

    def _key(self) -> tuple[object, ...]:
        return (self.player,)

    def describe(self) -> str:
        """E.g. "red's tent returns to the supply"."""
        return f"{self.player}'s tent returns to the supply"

    def __repr__(self) -> str:
        return f"<TentReturned {self.player}>"
