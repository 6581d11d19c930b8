"""Carcassonne for bots: a turn's follow-ups (the second gold ingot, a follower) and a playout's quick worth."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from grn.games.carcassonne.commands import PlaceFollower
from grn.games.carcassonne.completion import Completion
from grn.games.carcassonne.rules import CarcassonneState, ingot_options
from grn.games.carcassonne.terms import CITY, CLOISTER, FIELD, ROAD
from grn.games.tiling.board import Placement, neighbours
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.world import TileWorld

if TYPE_CHECKING:
    from grn.core.record import Command

#: A playout that claims (R443) puts a farmer on a field of the new tile when a farmer there would score at least
#: this many points: 3 a city beside it closed now or by the placement, half that an open one (two closed cities).
FARM_CLAIM = 6.0
#: The share of a claimed field's points a claiming playout adds to its placement's worth (a farmer's points
#: come at the end, and the opponent may still contest the field).
FARM_WEIGHT = 0.5
#: Whether a claiming playout also weighs the fields a placement joins (:meth:`CarcassonneWorld.join_gain`,
#: R515): joining a field where the mover has farmers to a contested one takes the majority, as strong players win
#: a field fight; joining the opponent's field to one's own shares it.  Off: a benchmark's knob (``bench/
#: bench_review.py --set``), measured with more placements weighed a turn (``playout_samples``, ``TRIES``).
FIELD_JOINS = False


class CarcassonneWorld(TileWorld):
    """A Carcassonne game with one order of the bag."""

    __slots__ = ()

    #: A playout weighs three placements of its tile by the points they score at once (R170).
    playout_samples = 3

    #: Farmers stay on their fields to the end (the learned evaluation's permanent followers, R332).
    permanent_kind = FIELD

    def pieces_on_board(self) -> dict[int, int]:
        return self.state.follower_at

    #: The tile games' features and Carcassonne's open features held (R485): an open city's points as
    #: it stands and its open edges, a cloister's squares still empty, the open cities beside a farmer's fields;
    #: and a reading of the bag (R504): the points of the open cities held that no tile left can close (an empty
    #: square beside them that nothing in the bag fits), and the player's followers on a city, road or cloister
    #: that can no longer be completed (they never come back).
    feature_names = TileWorld.feature_names + ("city_open", "city_edges", "cloister_gap", "field_cities_open",
                                               "city_dead", "stuck")

    def features(self, player: str, upto: int | None = None) -> tuple[float, ...]:
        base = super().features(player, upto)
        if upto is not None and upto <= len(base):
            return base  # the review weighs the tile games' features alone: the rest are the bot's (R485, R504)
        f = self.phase()
        if f <= 0.0:
            return base + (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        state = self.state
        board = state.board
        seat = state.players.index(player)
        roots: dict[int, list[int]] = {}
        for sid, owner in state.follower_at.items():
            roots.setdefault(board.find(sid), []).append(owner)
        left: set[str] | None = None
        city = edges = gap = dead = stuck = 0.0
        fields: list[int] = []
        for root, owners in roots.items():
            mine = owners.count(seat)
            if not mine:
                continue
            held = mine >= max(owners.count(o) for o in set(owners))
            data = board.data(root)
            kind = data.kind
            if kind == FIELD:
                if held:
                    fields.append(root)
                continue
            empty = points = 0
            if kind == CLOISTER:
                for (x, y) in data.tiles:
                    around = sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (x + dx, y + dy) in board.tiles)
                    empty += 9 - around
                if held:
                    gap += empty
            elif data.open:
                if kind == CITY and held:
                    points = len(data.tiles) + (data.symbols or {}).get("pennants", 0)
                    city += points
                    edges += data.open
            else:
                continue
            if kind == CLOISTER and not empty:
                continue
            if left is None:
                left = set(self.pile)
            if self._dead(root, left):
                stuck += mine
                if kind == CITY and held:
                    dead += points
        open_cities = 0.0
        if fields:
            near = board.bordering()
            seen: set[int] = set()
            for root in fields:
                for c in near.get(root, ()):
                    if c not in seen and board.data(c).kind == CITY and board.data(c).open:
                        seen.add(c)
            open_cities = float(len(seen))
        return base + (f * city, f * edges, f * gap, f * open_cities, f * dead, f * stuck)

    def holes(self, root: int) -> set[tuple[int, int]]:
        """The empty squares a tile must fill to complete the feature whose root is ``root``: those beside a
        cloister, and those across an open edge of a city or road."""
        board = self.state.board
        tiles = board.tiles
        data = board.data(root)
        out: set[tuple[int, int]] = set()
        if data.kind == CLOISTER:
            for (x, y) in data.tiles:
                out.update((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (x + dx, y + dy) not in tiles)
            return out
        find = board.find
        for pos in data.tiles:
            t = tiles[pos]
            around = neighbours(*pos)
            for i, places in enumerate(t.orientation.segment_places):
                if find(t.base + i) != root:
                    continue
                for p in places:
                    npos = around[p // 3]
                    if npos not in tiles:
                        out.add(npos)
        return out

    def _dead(self, root: int, left: set[str]) -> bool:
        """Whether the feature whose root is ``root`` can no longer be completed: a square it needs filled that
        no tile in ``left`` (what the bag holds) fits."""
        board = self.state.board
        return any(board.designs_fitting(x, y).isdisjoint(left) for (x, y) in self.holes(root))

    @property
    def state(self) -> CarcassonneState:
        engine = self.engine
        assert isinstance(engine, CarcassonneState)
        return engine

    def followups(self, placement: PlaceTile) -> list[tuple[Command, ...]]:
        state = self.state
        ingots: list[tuple[Command, ...]] = [(i,) for i in ingot_options(state, placement)] or [()]
        followers: list[tuple[Command, ...]] = [()] + [(f,) for f in state.follower_options(placement)]
        return [i + f for i in ingots for f in followers]

    def bare_followup(self, placement: PlaceTile) -> tuple[Command, ...]:
        """A Gold Mines tile must say where its second ingot goes: the first tile next to it."""
        ingots = ingot_options(self.state, placement)
        return (ingots[0],) if ingots else ()

    def quick_followup(self, placement: PlaceTile, rng: random.Random) -> tuple[Command, ...]:
        state = self.state
        ingots = ingot_options(state, placement)
        head: tuple[Command, ...] = (rng.choice(ingots),) if ingots else ()
        if rng.random() < 0.5:
            followers = state.follower_options(placement)
            if followers:
                return head + (rng.choice(followers),)
        return head

    def _gain(self, completions: list[Completion], seat: int) -> float:
        """What ``completions`` score for ``seat`` less the mean of what they score for the others."""
        state = self.state
        others = max(1, len(state.players) - 1)
        gain = 0.0
        for c in completions:
            if not c.winners:
                continue
            n = len(c.tiles)
            points = n if c.kind == ROAD else 9 if c.kind == CLOISTER else state._city_points(n, c.pennants, True)
            for w in c.winners:
                gain += points if w == seat else -points / others
        return gain

    def field_worth(self, preview: Placement, local: int) -> float:
        """What a farmer on the new tile's field segment ``local`` is worth to a claiming playout (R443): 3 points
        a city beside the field that is closed now or by the placement, 1.5 an open one (:meth:`field_cities`)."""
        closed, open_ = self.field_cities(preview, local)
        return 3.0 * closed + 1.5 * open_

    def field_cities(self, preview: Placement, local: int) -> tuple[int, int]:
        """The cities beside the field of the new tile's segment ``local`` once the tile is placed: how many are
        closed (a farmer there would score 3 points each if the game ended now) and how many are open."""
        state = self.state
        board = state.board
        find = board.find
        design = preview.design
        g = preview.group[local]
        roots = preview.group_roots[g]
        root_group = preview.root_group
        group_open = preview.group_open
        # a city is keyed by the new tile's group when the placement joins it, else by its root
        cities: dict[int, bool] = {}
        for ls in preview.group_segments[g]:
            for bi in design.segments[ls].borders:
                cg = preview.group[bi]
                cities[-1 - cg] = not group_open[cg]
        if roots:
            field = set(roots)
            root_data = board.root_data
            tiles = board.tiles
            seen: set[tuple[int, int]] = set()
            for r in roots:
                data = root_data[r]
                if data is None:
                    continue
                for pos in data.tiles:
                    if pos in seen:
                        continue
                    seen.add(pos)
                    t = tiles[pos]
                    for i, seg in enumerate(t.design.segments):
                        if not seg.borders or find(t.base + i) not in field:
                            continue
                        for bi in seg.borders:
                            c = find(t.base + bi)
                            if c in root_group:
                                cg = root_group[c]
                                cities[-1 - cg] = not group_open[cg]
                            else:
                                cities[c] = board.is_closed(c)
        closed = sum(1 for c in cities.values() if c)
        return closed, len(cities) - closed

    def join_gain(self, preview: Placement, seat: int) -> float:
        """What the fields a placement joins change for ``seat`` (R515): the farms' worth (:meth:`field_worth`) the
        seat holds once joined less what it held before, less the mean of that change for the others.  A field is
        held with the most farmers on it (ties all hold); 0 when the placement joins no field a farmer is on."""
        if not preview.merges:
            return 0.0
        state = self.state
        board = state.board
        find = board.find
        kinds = preview.design.kinds
        farmers: dict[int, list[int]] = {}
        for sid, owner in state.follower_at.items():
            root = find(sid)
            if board.data(root).kind == FIELD:
                farmers.setdefault(root, []).append(owner)
        if not farmers:
            return 0.0
        n = len(state.players)
        change = [0.0] * n
        for g, roots in enumerate(preview.group_roots):
            if len(roots) < 2 or kinds[preview.group_segments[g][0]] != FIELD:
                continue
            farmed = [r for r in roots if r in farmers]
            if not farmed:
                continue
            joined = [0] * n
            for r in farmed:
                owners = farmers[r]
                for o in owners:
                    joined[o] += 1
                top = max(owners.count(o) for o in owners)
                worth = self.root_field_worth(r)
                for o in set(owners):
                    if owners.count(o) == top:
                        change[o] -= worth
            top = max(joined)
            worth = self.field_worth(preview, preview.group_segments[g][0])
            for o in range(n):
                if joined[o] == top:
                    change[o] += worth
        others = max(1, n - 1)
        return change[seat] - (sum(change) - change[seat]) / others

    def root_field_worth(self, root: int) -> float:
        """What a farmer on the existing field ``root`` is worth to a claiming playout, as :meth:`field_worth`
        reckons it: 3 points a closed city beside it, 1.5 an open one."""
        board = self.state.board
        find = board.find
        tiles = board.tiles
        data = board.data(root)
        cities: dict[int, bool] = {}
        for pos in data.tiles:
            t = tiles[pos]
            for i, seg in enumerate(t.design.segments):
                if not seg.borders or find(t.base + i) != root:
                    continue
                for bi in seg.borders:
                    c = find(t.base + bi)
                    if c not in cities:
                        cities[c] = board.is_closed(c)
        closed = sum(1 for c in cities.values() if c)
        return 3.0 * closed + 1.5 * (len(cities) - closed)

    def _claim(self, preview: Placement) -> tuple[float, int]:
        """The best field of the new tile for a farmer (R443): its worth and local segment (-1: none worth it)."""
        state = self.state
        best, where = 0.0, -1
        for i, kind in enumerate(preview.design.kinds):
            if kind != FIELD or state._occupied(preview, i):
                continue
            worth = self.field_worth(preview, i)
            if worth > best:
                best, where = worth, i
        return (best, where) if best >= FARM_CLAIM else (0.0, -1)

    def quick_worth(self, placement: PlaceTile, preview: Placement,
                    rng: random.Random) -> tuple[float, tuple[Command, ...]]:
        """The points the placement scores at once for the mover (less the opponents' mean), with a follower
        on a feature it completes when that scores more; else a quick follow-up as before (R170).

        A world whose playouts claim (:attr:`claims`, R443) plays as people do: a farmer on a field worth
        :data:`FARM_CLAIM` points or more (its worth, times :data:`FARM_WEIGHT`, added to the placement's), the
        last follower kept for a feature it completes, and no farmer at random."""
        state = self.state
        seat = state.seat
        ingots = ingot_options(state, placement)
        head: tuple[Command, ...] = (rng.choice(ingots),) if ingots else ()
        best = self._gain(state._completions(preview, seat, -1), seat)
        follow: tuple[Command, ...] | None = None
        if state.supply[seat] > 0:
            design = preview.design
            for i, kind in enumerate(design.kinds):
                completes = (kind == CLOISTER) or ((kind == ROAD or kind == CITY)
                                                   and not preview.group_open[preview.group[i]])
                if not completes or state._occupied(preview, i):
                    continue
                gain = self._gain(state._completions(preview, seat, i), seat)
                if gain > best:
                    best = gain
                    follow = (PlaceFollower(state._location_name(preview.orientation, i)),)
        if self.claims and FIELD_JOINS and state.options.farmers:
            best += FARM_WEIGHT * self.join_gain(preview, seat)
        if follow is not None:
            return best, head + follow
        if self.claims:
            supply = state.supply[seat]
            if supply < 2:
                return best, head  # the last follower is kept for a feature it completes
            if state.options.farmers:
                worth, where = self._claim(preview)
                if where >= 0:
                    return (best + FARM_WEIGHT * worth,
                            head + (PlaceFollower(state._location_name(preview.orientation, where)),))
            if rng.random() < 0.5:
                kinds = preview.design.kinds
                options = [i for i, kind in enumerate(kinds) if kind != FIELD and not state._occupied(preview, i)]
                if options:
                    return best, head + (PlaceFollower(state._location_name(preview.orientation,
                                                                            rng.choice(options))),)
            return best, head
        if rng.random() < 0.5:
            followers = state.follower_options(placement)
            if followers:
                return best, head + (rng.choice(followers),)
        return best, head


__all__ = ["CarcassonneWorld", "FARM_CLAIM", "FARM_WEIGHT", "FIELD_JOINS"]
