"""What a placement completes, worked out before anything changes: the shared value of the scoring and gold layers."""

from __future__ import annotations

from typing import Any, Final, cast

#: The eight squares around a tile, clockwise from the north-west.
AROUND: Final[tuple[tuple[int, int], ...]] = ((-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0))


def seated(followers: Any) -> list[tuple[int, int]]:
    """The board's followers as (seat, segment id): this engine's owners are seats."""
    return cast("list[tuple[int, int]]", followers or [])


class Completion:
    """A feature the turn completes (worked out before anything changes): what scores and what gold it claims."""

    __slots__ = ("kind", "tiles", "followers", "pennants", "group", "sid", "winners")

    def __init__(self, kind: str, tiles: set[tuple[int, int]], followers: list[tuple[int, int]], pennants: int,
                 group: int, sid: int, winners: list[int]) -> None:
        self.kind = kind
        self.tiles = tiles
        self.followers = followers
        self.pennants = pennants
        #: the new tile's segment group (roads, cities) or -1
        self.group = group
        #: the cloister's segment id or -1
        self.sid = sid
        self.winners = winners
