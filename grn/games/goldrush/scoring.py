"""Scoring in Gold Rush: completed railroads, mountains and cities (step 3), and the final scoring.

Rulings (docs/rulings.md): within a turn railroads score first, then
mountains, then cities, each kind by the first place (clockwise from NNW) it
holds on the new tile; a completed mountain without a gold miner returns its
tokens to the bottom of the supply; at the end tents and tokens left on
mountains leave the game before the incomplete features score.
"""

from __future__ import annotations

from typing import Any, cast

from grn.core.errors import IllegalAction
from grn.games.goldrush.actions import Step2
from grn.games.goldrush.events import (
    FollowerReturned, ScoreEvent, TentReturned, TokensReturned, TokensTaken,
)
from grn.rules.engine import Event
from grn.games.goldrush.terms import CITY, MOUNTAIN, PRAIRIE, RAIL, SEC_FINAL, counted as _n
from grn.games.tiling.board import FeatureData, Placement

#: The fields scoring adds.
SCORING_FIELDS: tuple[str, ...] = ("final_done",)


class Scoring(Step2):
    """Gold Rush's scoring of completed features and at the end of the game."""

    __slots__ = SCORING_FIELDS

    #: The final scoring is done.
    final_done: bool

    def _finished(self) -> bool:
        return self.final_done or self.bag_left == 0

    def score_ranges(self) -> dict[str, tuple[int, int]]:
        """Lowest and highest possible score per player once unknown token faces are counted.

        Before :meth:`final_scoring` this adds the whole gold; after it, only
        the unknown faces (the known ones are in :attr:`scores`).
        """
        pool: list[int] = []
        for v, n in sorted(self._token_counts.items()):
            pool += [v] * max(0, n - self.known.get(v, 0))
        out = {}
        for p, s, g in zip(self.players, self._scores, self.gold().values()):
            base = s if self.final_done else s + g.known
            u = g.unknown
            low = sum(pool[:u])
            high = sum(pool[len(pool) - u:]) if u else 0
            out[p] = (base + low, base + high)
        return out

    def _return_followers(self, root: int, feature: str, events: list[Event]) -> None:
        followers: list[tuple[int, int]] = self.board.remove_followers(root)  # type: ignore[assignment]  # owners are seats
        for s, sid in followers:
            self.supply[s] = self.supply[s] + 1
            self.cowboy_at.pop(sid, None)
            events.append(FollowerReturned(self.players[s], feature))

    def _score_completed(self, p: Placement, targets: list[int], events: list[Event],
                         reveal: tuple[int | None, ...] | None) -> None:
        board = self.board
        o = p.orientation
        segments = p.design.segments
        rails: list[tuple[int, int]] = []
        mountains: list[tuple[int, int]] = []
        for g, segs in enumerate(p.group_segments):
            if p.group_open[g]:
                continue
            kind = segments[segs[0]].kind
            if kind == RAIL or kind == MOUNTAIN:
                key = min(o.segment_places[ls][0] for ls in segs)
                (rails if kind == RAIL else mountains).append((key, targets[g]))
        cities: dict[int, int] = {}
        rails.sort()
        root_data: list[FeatureData] = board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
        for key, r in rails:
            for c in root_data[r].links or ():
                cr = board.find(c)
                if board.kind[cr] == CITY and cr not in cities:
                    cities[cr] = key
        for ls, seg in enumerate(segments):
            if seg.kind == CITY:
                cr = board.find(p.base + ls)
                if cr not in cities:
                    cities[cr] = 12
        done_cities = []
        for cr, key in cities.items():
            links = root_data[cr].links or []
            if links and all(root_data[board.find(rs)].open == 0 for rs in links):
                done_cities.append((key, cr))
        done_cities.sort()
        values = iter(reveal) if reveal is not None else None
        for _, r in rails:
            self._score_rail(r, events)
        for _, r in sorted(mountains):
            self._score_mountain(r, events, values)
        for _, r in done_cities:
            self._score_city(r, events, final=False)

    def _score_rail(self, r: int, events: list[Event], final: bool = False) -> None:
        board = self.board
        data: FeatureData = board.root_data[r]  # type: ignore[assignment]  # roots hold a FeatureData
        followers = data.followers
        if followers:
            tiles = len(data.tiles)
            loco = (data.symbols or {}).get("locomotives", 0)
            if final:
                pts = tiles
                detail = f"an incomplete railroad of {_n(tiles, 'tile')}"
            else:
                pts = tiles * (2 if loco == 1 else 1)
                detail = f"a completed railroad of {_n(tiles, 'tile')}"
                if loco:
                    detail += f" with {_n(loco, 'locomotive', words=True)}"
                    if loco > 1:
                        detail += " (no doubling)"
            for s in self._majority(followers):
                self._scores[s] = self._scores[s] + pts
                events.append(ScoreEvent(self.players[s], pts, "railroad", detail, final,
                                         (("tiles", tiles), ("locomotives", loco))))
        if not final:
            self._return_followers(r, "railroad", events)

    def _score_mountain(self, r: int, events: list[Event], values: Any, final: bool = False) -> None:
        board = self.board
        data: FeatureData = board.root_data[r]  # type: ignore[assignment]  # roots hold a FeatureData
        followers = data.followers or []
        nug = (data.symbols or {}).get("nuggets", 0)
        tiles = len(data.tiles)
        winners = self._majority(followers)
        if not final:
            stack = self.stacks.pop(r, [])
            if stack:
                if winners:
                    taken: dict[int, tuple[list[int], list[int | None]]] = {}
                    i = 0
                    while stack:
                        s = winners[i % len(winners)]
                        tid = stack.pop()
                        v = next(values) if values is not None else None
                        if v is not None:
                            self._learn_face(tid, v)
                        got = taken.get(s)
                        if got is None:
                            got = taken[s] = ([], [])
                        got[0].append(tid)
                        got[1].append(v)
                        i += 1
                    for s, (ids, vals) in taken.items():
                        self.hands[s].extend(ids)
                        events.append(TokensTaken(self.players[s], len(ids), tuple(vals), tuple(ids)))
                else:
                    self.token_supply[0:0] = stack[::-1]
                    events.append(TokensReturned(len(stack)))
            detail = f"a completed mountain of {_n(tiles, 'tile')} with {_n(nug, 'gold nugget')}"
        else:
            detail = f"an incomplete mountain of {_n(tiles, 'tile')} with {_n(nug, 'gold nugget')}"
        for s in winners:
            self._scores[s] = self._scores[s] + nug
            events.append(ScoreEvent(self.players[s], nug, "mountain", detail, final,
                                     (("tiles", tiles), ("nuggets", nug))))
        if not final:
            for s in range(len(self.players)):
                t = self.tent[s]
                if t >= 0 and board.find(t) == r:
                    self.tent[s] = -1
                    del self.tent_at[t]
                    events.append(TentReturned(self.players[s]))
            self._return_followers(r, "mountain", events)

    def _score_city(self, r: int, events: list[Event], final: bool) -> None:
        board = self.board
        root_data: list[FeatureData] = board.root_data  # type: ignore[assignment]  # roots hold a FeatureData
        data = root_data[r]
        followers = data.followers
        if followers:
            done = {board.find(rs) for rs in data.links or ()}
            k = sum(1 for rr in done if root_data[rr].open == 0)
            pts = 3 * k
            detail = (f"an incomplete city with {_n(k, 'completed railroad')}" if final
                      else f"a completed city with {_n(k, 'completed railroad')}")
            for s in self._majority(followers):
                self._scores[s] = self._scores[s] + pts
                events.append(ScoreEvent(self.players[s], pts, "city", detail, final, (("railroads", k),)))
        if not final:
            self._return_followers(r, "city", events)

    def final_scoring(self) -> list[Event]:
        """Score the end of the game (may be called once; normally when :attr:`is_over`).

        Tents and tokens still on mountains leave the game; then incomplete
        railroads (1 per tile), mountains (1 per nugget, majority), cities (3
        per completed railroad), farmers (2 per tipi camp + 4 per herd of
        horses, majority; with ``Options.farmers``), then gold: each player's
        known token faces (see :meth:`gold` and :meth:`score_ranges` for the
        unknown ones).
        """
        if self.final_done:
            raise IllegalAction("the final scoring is already done", rule="Final Scoring", section=SEC_FINAL)
        events: list[Event] = []
        board = self.board
        for s in range(len(self.players)):
            t = self.tent[s]
            if t >= 0:
                self.tent[s] = -1
                events.append(TentReturned(self.players[s]))
        self.tent_at.clear()
        left = sum(len(st) for st in self.stacks.values())
        self.stacks.clear()
        if left:
            events.append(TokensReturned(left, final=True))
        kinds = board.kind
        root_data = cast("list[FeatureData]", board.root_data)  # roots hold a FeatureData
        # the features holding cowboys, in one pass over the segments (final scoring moves no cowboy, so
        # the kinds' passes below see the same ones), oldest first
        parent = board.parent
        roots = [r for r in range(len(parent)) if parent[r] == r and root_data[r].followers]
        for r in roots:
            if kinds[r] == RAIL:
                self._score_rail(r, events, final=True)
        for r in roots:
            if kinds[r] == MOUNTAIN:
                self._score_mountain(r, events, None, final=True)
        for r in roots:
            if kinds[r] == CITY:
                self._score_city(r, events, final=True)
        if self.options.farmers:
            for r in roots:
                if kinds[r] == PRAIRIE and (followers := root_data[r].followers):
                    symbols = root_data[r].symbols or {}
                    tipis, horses = symbols.get("tipis", 0), symbols.get("horses", 0)
                    pts = 2 * tipis + 4 * horses
                    detail = (f"a prairie with {_n(tipis, 'tipi camp') if tipis else 'no tipi camp'} and "
                              + (f"{_n(horses, 'herd')} of wild horses" if horses else "no wild horses"))
                    for s in self._majority(followers):
                        self._scores[s] = self._scores[s] + pts
                        events.append(ScoreEvent(self.players[s], pts, "prairie", detail, True,
                                                 (("tipis", tipis), ("horses", horses))))
        for s, (p, g) in enumerate(self.gold().items()):
            if not g.count:
                continue
            faces: dict[int, int] = {}
            for t in self.hands[s]:
                v = self.token_value.get(t)
                if v is not None:
                    faces[v] = faces.get(v, 0) + 1
            parts = [f"{c}x{v}" for v, c in sorted(faces.items(), key=lambda kv: (kv[0] == 0, kv[0]))]
            if g.unknown:
                parts.append(f"{g.unknown} unknown")
            detail = f"{_n(g.count, 'mining token')} ({' + '.join(parts)})"
            self._scores[s] = self._scores[s] + g.known
            events.append(ScoreEvent(p, g.known, "gold", detail, True, (("tokens", g.count),)))
        self.final_done = True
        return events
