"""Gold Rush's mining tokens: the face-down supply, the stacks on mountains, the players' hands, known faces.

"Place a Mining token facedown on the mountain" for each gold nugget symbol of
a new tile; stacks merge when mountains join; a completed mountain hands its
stack out (:mod:`.scoring`); faces become known when a record states them.

Rulings (docs/rulings.md): merged stacks pile the oldest mountain at the
bottom and the new tile's tokens on top; when the supply runs out a tile gets
only the tokens left (its nugget symbols still score).
"""

from __future__ import annotations

from typing import Any, Final

from grn.core.errors import IllegalAction, Span
from grn.games.goldrush.events import TokensPlaced
from grn.games.goldrush.terms import MOUNTAIN, SEC_DIST, SEC_GENERAL
from grn.games.tiling.board import Placement
from grn.games.tiling.engine import TileEngine
from grn.games.tiling.tiles import TileDesign, TileSet
from grn.core.value import Value


class GoldCount(Value):
    """A player's mining tokens: the total of the known faces and how many faces are unknown.

    A plain value class, not a frozen dataclass: the final scoring and the Result check make one per
    player, and a compiled frozen dataclass sets each field through Python.
    """

    __slots__ = ("known", "unknown", "count")
    _fields = ("known", "unknown", "count")

    def __init__(self, known: int, unknown: int, count: int) -> None:
        self.known: Final = known
        self.unknown: Final = unknown
        self.count: Final = count

    def _key(self) -> tuple[object, ...]:
        return (self.known, self.unknown, self.count)

    def __repr__(self) -> str:
        return f"GoldCount(known={self.known!r}, unknown={self.unknown!r}, count={self.count!r})"


_NUGGETS: Final[dict[int, tuple[TileSet, dict[str, tuple[tuple[int, int], ...]]]]] = {}


def _nuggets_of(tileset: TileSet) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per tile id, its mountain segments with nugget symbols (worked out once per tile set)."""
    hit = _NUGGETS.get(id(tileset))
    if hit is not None and hit[0] is tileset:
        return hit[1]
    table = {t.id: tuple((i, seg.count("nuggets")) for i, seg in enumerate(t.segments)
                         if seg.kind == MOUNTAIN and seg.count("nuggets"))
             for t in tileset.tiles}
    _NUGGETS[id(tileset)] = (tileset, table)
    return table


#: The fields the mining tokens add to a :class:`~grn.games.tiling.engine.TileEngine`.
TOKEN_FIELDS: tuple[str, ...] = ("token_supply", "stacks", "hands", "token_value", "known", "_nuggets",
                                 "_token_counts")


class MiningTokens(TileEngine):
    """A tile-laying game with Gold Rush's mining tokens."""

    __slots__ = TOKEN_FIELDS

    #: Face-down supply, token ids; pop() draws the next.
    token_supply: list[int]
    #: Feature root of a mountain -> its stack of token ids, bottom first.
    stacks: dict[int, list[int]]
    #: Per seat, the token ids taken.
    hands: list[list[int]]
    #: Token id -> its face, once a record states it.
    token_value: dict[int, int]
    #: Face -> how many tokens with that face are known.
    known: dict[int, int]
    _nuggets: dict[str, tuple[tuple[int, int], ...]]
    _token_counts: dict[int, int]

    def _start_tokens(self) -> None:
        """An untouched supply: ``tileset.tokens`` face down, none known."""
        tileset = self.tileset
        self.token_supply = list(range(tileset.token_total - 1, -1, -1))  # pop() draws token 0, 1, 2, ...
        self.stacks = {}
        self.hands = [[] for _ in self.players]
        self.token_value = {}
        self.known = {}
        self._nuggets = _nuggets_of(tileset)
        self._token_counts = tileset.token_counts

    @property
    def token_supply_count(self) -> int:
        """Face-down mining tokens left in the supply."""
        return len(self.token_supply)

    @property
    def tokens_held(self) -> dict[str, int]:
        """Mining tokens in front of each player."""
        return {p: len(h) for p, h in zip(self.players, self.hands)}

    def token_info(self) -> dict[str, Any]:
        """Where the mining tokens are: supply, on mountains, held per player, known faces."""
        return {"supply": len(self.token_supply),
                "on_mountains": sum(len(st) for st in self.stacks.values()),
                "held": self.tokens_held,
                "known": dict(sorted(self.known.items()))}

    def gold(self) -> dict[str, GoldCount]:
        """Each player's mining tokens: known total, unknown count, count."""
        out = {}
        for p, hand in zip(self.players, self.hands):
            known = unknown = 0
            for t in hand:
                v = self.token_value.get(t)
                if v is None:
                    unknown += 1
                else:
                    known += v
            out[p] = GoldCount(known, unknown, len(hand))
        return out

    def _learn_face(self, token: int, value: int) -> None:
        """A record states the face of a token."""
        self.token_value[token] = value
        self.known[value] = self.known.get(value, 0) + 1

    def _alloc_tokens(self, design: TileDesign) -> list[tuple[int, int, int]]:
        """(local segment, tokens placed, nuggets) for a new tile, limited by the supply (ruling)."""
        out = []
        left = len(self.token_supply)
        for ls, k in self._nuggets[design.id]:
            got = k if k <= left else left
            left -= got
            out.append((ls, got, k))
        return out

    def _put_tokens(self, p: Placement, targets: list[int],
                    alloc: list[tuple[int, int, int]] | None = None) -> list[TokensPlaced]:
        """After board.place: merge the stacks of joined mountains, then pile the new tile's tokens on top."""
        stacks = self.stacks
        for g, roots in enumerate(p.group_roots):
            if len(roots) > 1 and stacks:
                merged: list[int] = []
                for r in roots:
                    st = stacks.pop(r, None)
                    if st:
                        merged += st
                if merged:
                    stacks[targets[g]] = merged
        events = []
        supply = self.token_supply
        allocated = self._alloc_tokens(p.design) if alloc is None else alloc
        for ls, got, want in allocated:
            t = targets[p.group[ls]]
            st = stacks.get(t)
            if st is None:
                st = stacks[t] = []
            for _ in range(got):
                st.append(supply.pop())
            # a tile with two mountains: say which one, as the notation names it (2,0:N)
            where = self._location_name(p.orientation, ls) if len(allocated) > 1 else ""
            events.append(TokensPlaced(p.x, p.y, got, want, where))
        return events

    def _post_stack(self, p: Placement, g: int, alloc: list[tuple[int, int, int]]) -> int:
        """Tokens on the mountain of group ``g`` once the tile is placed."""
        stacks = self.stacks
        n = sum(len(stacks[r]) for r in p.group_roots[g] if r in stacks)
        for ls, got, _ in alloc:
            if p.group[ls] == g:
                n += got
        return n

    def _check_value(self, value: int | None, extra: dict[int, int], span: Span | None, what: str,
                     section: str) -> None:
        if value is None:
            return
        total = self._token_counts.get(value)
        if total is None:
            raise IllegalAction(f"{what}: there is no mining token worth {value}",
                                rule="Mining tokens show 1, 2, 3 or 5 nuggets, or gravel (0)", section=SEC_GENERAL,
                                span=span, hint="token values: " + ", ".join(map(str, sorted(self._token_counts))))
        used = self.known.get(value, 0) + extra.get(value, 0)
        if used >= total:
            raise IllegalAction(f"{what}: all {total} tokens worth {value} are already accounted for",
                                rule="the box holds " + ", ".join(f"{n}x{v}" for v, n in sorted(self._token_counts.items())),
                                section=SEC_DIST, span=span)
        extra[value] = extra.get(value, 0) + 1
