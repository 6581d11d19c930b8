"""A playout's quick worth of a placement in Carcassonne (R170, R443, R515), compiled with mypyc.

A playout turn weighs several placements of its tile (``CarcassonneWorld.playout_samples``) and plays the one
worth most: the points it scores at once, a follower on a feature it completes, and, in a playout that claims
as people do, a farmer on a field worth claiming and the fields it joins.  Forty placements a turn are what a
field fight needs (R515); weighed in interpreted Python they cost six times a review, so the weighing lives here,
and what every placement of one turn asks again (the cities beside an existing field, who holds the farmed fields)
is worked out once a position (:class:`FieldMemo`).  The knobs stay in :mod:`grn.games.carcassonne.bot`, which
passes them in.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from grn.games.carcassonne.commands import PlaceFollower
from grn.games.carcassonne.completion import Completion
from grn.games.carcassonne.rules import CarcassonneState, ingot_options
from grn.games.carcassonne.terms import CITY, CLOISTER, FIELD, ROAD
from grn.games.tiling.board import Board, Placement
from grn.games.tiling.commands import PlaceTile

if TYPE_CHECKING:
    from grn.core.record import Command


class FieldMemo:
    """What every placement weighed at one position asks again: the cities beside each existing field, and the
    farmers on each farmed field.  Kept per board and per its size (a position's segments only grow, and a
    playout's followers change only with a placement), so a new position starts it afresh."""

    def __init__(self) -> None:
        self.board: Board | None = None
        self.size = -1
        #: field root -> the roots of the cities beside it
        self.cities: dict[int, list[int]] = {}
        #: farmed field root -> the seats of its farmers (one entry a farmer); None: not yet worked out
        self.farmers: dict[int, list[int]] | None = None

    def at(self, board: Board) -> None:
        """Start afresh unless the memo was made at this very position of ``board``."""
        size = len(board.parent)
        if board is not self.board or size != self.size:
            self.board = board
            self.size = size
            self.cities = {}
            self.farmers = None

    def field_cities(self, board: Board, root: int) -> list[int]:
        """The roots of the cities beside the existing field ``root``."""
        got = self.cities.get(root)
        if got is not None:
            return got
        found: set[int] = set()
        data = board.root_data[root]
        if data is not None:
            find = board.find
            tiles = board.tiles
            for pos in data.tiles:
                t = tiles[pos]
                base = t.base
                i = 0
                for seg in t.design.segments:
                    if seg.borders and find(base + i) == root:
                        for bi in seg.borders:
                            found.add(find(base + bi))
                    i += 1
        out = sorted(found)
        self.cities[root] = out
        return out

    def farmed(self, state: CarcassonneState) -> dict[int, list[int]]:
        """Each field root a farmer stands on, with the seats of its farmers."""
        got = self.farmers
        if got is not None:
            return got
        board = state.board
        find = board.find
        out: dict[int, list[int]] = {}
        for sid, owner in state.follower_at.items():
            root = find(sid)
            if board.data(root).kind == FIELD:
                if root in out:
                    out[root].append(owner)
                else:
                    out[root] = [owner]
        self.farmers = out
        return out


def gain(state: CarcassonneState, completions: list[Completion], seat: int) -> float:
    """What ``completions`` score for ``seat`` less the mean of what they score for the others."""
    others = max(1, len(state.players) - 1)
    total = 0.0
    for c in completions:
        if not c.winners:
            continue
        n = len(c.tiles)
        points = float(n if c.kind == ROAD else 9 if c.kind == CLOISTER else state._city_points(n, c.pennants, True))
        for w in c.winners:
            if w == seat:
                total += points
            else:
                total -= points / others
    return total


def field_cities(state: CarcassonneState, memo: FieldMemo, preview: Placement, local: int) -> tuple[int, int]:
    """The cities beside the field of the new tile's segment ``local`` once the tile is placed: how many are
    closed (a farmer there would score 3 points each if the game ended now) and how many are open."""
    board = state.board
    design = preview.design
    group = preview.group
    group_open = preview.group_open
    root_group = preview.root_group
    g = group[local]
    # a city is keyed by the new tile's group when the placement joins it, else by its root
    cities: dict[int, bool] = {}
    for ls in preview.group_segments[g]:
        for bi in design.segments[ls].borders:
            cg = group[bi]
            cities[-1 - cg] = group_open[cg] == 0
    for r in preview.group_roots[g]:
        for c in memo.field_cities(board, r):
            if c in root_group:
                cg = root_group[c]
                cities[-1 - cg] = group_open[cg] == 0
            else:
                cities[c] = board.is_closed(c)
    closed = 0
    for shut in cities.values():
        if shut:
            closed += 1
    return closed, len(cities) - closed


def field_worth(state: CarcassonneState, memo: FieldMemo, preview: Placement, local: int) -> float:
    """What a farmer on the new tile's field segment ``local`` is worth to a claiming playout (R443): 3 points a
    city beside the field that is closed now or by the placement, 1.5 an open one."""
    closed, open_ = field_cities(state, memo, preview, local)
    return 3.0 * closed + 1.5 * open_


def root_field_worth(state: CarcassonneState, memo: FieldMemo, root: int) -> float:
    """What a farmer on the existing field ``root`` is worth to a claiming playout, as :func:`field_worth`
    reckons it: 3 points a closed city beside it, 1.5 an open one."""
    board = state.board
    closed = 0
    cities = memo.field_cities(board, root)
    for c in cities:
        if board.is_closed(c):
            closed += 1
    return 3.0 * closed + 1.5 * (len(cities) - closed)


def join_gain(state: CarcassonneState, memo: FieldMemo, preview: Placement, seat: int) -> float:
    """What the fields a placement joins change for ``seat`` (R515): the farms' worth the seat holds once joined
    less what it held before, less the mean of that change for the others.  A field is held with the most
    farmers on it (ties all hold); 0 when the placement joins no field a farmer is on."""
    if not preview.merges:
        return 0.0
    farmers = memo.farmed(state)
    if not farmers:
        return 0.0
    kinds = preview.design.kinds
    n = len(state.players)
    change = [0.0] * n
    g = 0
    for roots in preview.group_roots:
        if len(roots) < 2 or kinds[preview.group_segments[g][0]] != FIELD:
            g += 1
            continue
        joined = [0] * n
        any_farmed = False
        for r in roots:
            owners = farmers.get(r)
            if owners is None:
                continue
            any_farmed = True
            counts = [0] * n
            for o in owners:
                joined[o] += 1
                counts[o] += 1
            top = max(counts)
            worth = root_field_worth(state, memo, r)
            for o in range(n):
                if counts[o] == top:
                    change[o] -= worth
        if any_farmed:
            top = max(joined)
            worth = field_worth(state, memo, preview, preview.group_segments[g][0])
            for o in range(n):
                if joined[o] == top:
                    change[o] += worth
        g += 1
    others = max(1, n - 1)
    return change[seat] - (sum(change) - change[seat]) / others


def claim(state: CarcassonneState, memo: FieldMemo, preview: Placement, threshold: float) -> tuple[float, int]:
    """The best field of the new tile for a farmer (R443): its worth and local segment; (0, -1) when none is
    worth ``threshold`` points."""
    best = 0.0
    where = -1
    i = 0
    for kind in preview.design.kinds:
        if kind == FIELD and not state._occupied(preview, i):
            worth = field_worth(state, memo, preview, i)
            if worth > best:
                best = worth
                where = i
        i += 1
    if best >= threshold:
        return best, where
    return 0.0, -1


def quick_worth(state: CarcassonneState, memo: FieldMemo, placement: PlaceTile, preview: Placement,
                rng: random.Random, claims: bool, joins: bool, farm_claim: float,
                farm_weight: float) -> tuple[float, tuple[Command, ...]]:
    """The points ``placement`` scores at once for the mover (less the opponents' mean), with a follower on a
    feature it completes when that scores more; else a quick follow-up (R170).

    ``claims`` (R443): play as people do: a farmer on a field worth ``farm_claim`` points or more (its worth,
    times ``farm_weight``, added to the placement's), the last follower kept for a feature it completes, and no
    farmer at random; ``joins`` (R515, with ``claims``) also weighs the fields the placement joins."""
    seat = state.seat
    ingots = ingot_options(state, placement)
    head: tuple[Command, ...] = (rng.choice(ingots),) if ingots else ()
    best = gain(state, state._completions(preview, seat, -1), seat)
    follow: tuple[Command, ...] | None = None
    supply = state.supply[seat]
    design = preview.design
    kinds = design.kinds
    if supply > 0:
        group = preview.group
        group_open = preview.group_open
        i = 0
        for kind in kinds:
            completes = kind == CLOISTER or ((kind == ROAD or kind == CITY) and group_open[group[i]] == 0)
            if completes and not state._occupied(preview, i):
                g = gain(state, state._completions(preview, seat, i), seat)
                if g > best:
                    best = g
                    follow = (PlaceFollower(state._location_name(preview.orientation, i)),)
            i += 1
    farmers = state.options.farmers
    if claims and joins and farmers:
        memo.at(state.board)
        best += farm_weight * join_gain(state, memo, preview, seat)
    if follow is not None:
        return best, head + follow
    if claims:
        if supply < 2:
            return best, head  # the last follower is kept for a feature it completes
        if farmers:
            memo.at(state.board)
            worth, where = claim(state, memo, preview, farm_claim)
            if where >= 0:
                return (best + farm_weight * worth,
                        head + (PlaceFollower(state._location_name(preview.orientation, where)),))
        if rng.random() < 0.5:
            options: list[int] = []
            i = 0
            for kind in kinds:
                if kind != FIELD and not state._occupied(preview, i):
                    options.append(i)
                i += 1
            if options:
                return best, head + (PlaceFollower(state._location_name(preview.orientation, rng.choice(options))),)
        return best, head
    if rng.random() < 0.5:
        followers = state.follower_options(placement)
        if followers:
            return best, head + (rng.choice(followers),)
    return best, head


def sampled_turn(state: CarcassonneState, memo: FieldMemo, tile: str, rng: random.Random, want: int, tries: int,
                 claims: bool, joins: bool, farm_claim: float, farm_weight: float,
                 listed: bool = False) -> tuple[Command, ...] | None:
    """A playout turn placing ``tile``: up to ``want`` legal placements drawn by rejection (a random square of the
    frontier and a random rotation, kept when the tile fits there, at most ``tries`` draws: R143), each weighed by
    :func:`quick_worth`, the best played (the first drawn on a tie, R170), with its follow-up.  None when the
    tile is unknown, the board empty or no draw fitted: the caller lists the placements instead.  The same draws
    from ``rng``, in the same order, as ``TileWorld.rollout_move`` makes them."""
    board = state.board
    design = state.tileset.by_id.get(tile)
    if design is None or not board.tiles:
        return None
    found: list[tuple[PlaceTile, Placement]] = []
    if listed:
        legal = board.legal_positions(design)
        picks = legal if len(legal) <= want else rng.sample(legal, want)
        for x, y, r in picks:
            preview = board.preview(design, x, y, r)
            if preview is not None:
                found.append((PlaceTile(tile, x, y, r), preview))
    else:
        found = [(PlaceTile(tile, p.x, p.y, p.rotation), p)
                 for p in board.sample_placements(design, rng.random, want, tries)]
    if not found:
        return None
    best = 0.0
    chosen: tuple[Command, ...] = ()
    first = True
    for p, preview in found:
        worth, follow = quick_worth(state, memo, p, preview, rng, claims, joins, farm_claim, farm_weight)
        if first or worth > best:
            first = False
            best = worth
            chosen = (p,) + follow
    return chosen


__all__ = ["FieldMemo", "sampled_turn", "gain", "field_cities", "field_worth", "root_field_worth", "join_gain", "claim",
           "quick_worth"]
