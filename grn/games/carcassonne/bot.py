"""Carcassonne for bots: a turn's follow-ups (the second gold ingot, a follower) and a playout's quick worth."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from grn.games.carcassonne import playout
from grn.games.carcassonne.completion import Completion
from grn.games.carcassonne.rules import CarcassonneState, ingot_options
from grn.games.carcassonne.terms import CITY, CLOISTER, FIELD
from grn.games.tiling.board import Placement, neighbours
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling import world as tiling_world
from grn.games.tiling.world import TileWorld

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.world import Decision
    from grn.rules.engine import Engine
    from grn.rules.ruleset import Ruleset

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
#: Whether a playout turn lists its tile's legal placements and weighs ``playout_samples`` distinct ones of them
#: (R516), instead of drawing squares and rotations at random until that many fit (R143: repeats and all).
PLAYOUT_LISTS = False
#: The placements a review's playout turn weighs (R516): its tile's legal placements listed, this many distinct
#: ones of them (all when there are no more), each weighed as a claiming playout weighs it, the fields it joins
#: too.  A field fight is won by the one square that joins two fields, which three random draws seldom find.
REVIEW_PLACEMENTS = 20
#: Whether the bot's search plays the review's playouts (R516, adopted by R519: +5.5 points of margin a game
#: against ``classic``) instead of its claiming ones (R443); ``bench/ladder.py --set ...=false`` plays R504's bot.
BOT_FIGHTS = True


class CarcassonneWorld(TileWorld):
    """A Carcassonne game with one order of the bag."""

    __slots__ = ("fields", "fights")

    def __init__(self, ruleset: Ruleset, engine: Engine, pile: list[str]) -> None:
        super().__init__(ruleset, engine, pile)
        #: What the placements weighed at one position share (the playouts' fields, R516).
        self.fields = playout.FieldMemo()
        #: Whether the playouts are the review's (:meth:`review_playouts`, R516).
        self.fights = False

    def copy(self) -> CarcassonneWorld:
        world = super().copy()
        assert isinstance(world, CarcassonneWorld)
        world.fights = self.fights
        return world

    def claim_playouts(self) -> None:
        """The bot's claiming playouts (R443), which since R519 (:data:`BOT_FIGHTS`) are the review's (R516)."""
        if BOT_FIGHTS:
            self.review_playouts()
        else:
            self.claims = True

    def review_playouts(self) -> None:
        """A review's playouts (R516): they claim as the bot's do (R443: a farmer on a field worth it, the last
        follower kept) and fight for fields: each turn weighs :data:`REVIEW_PLACEMENTS` distinct legal placements
        of its tile, the fields each joins counted (``join_gain``), where the bot's weigh three drawn at random."""
        self.claims = True
        self.fights = True

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
        return playout.gain(self.state, completions, seat)

    def _memo(self) -> playout.FieldMemo:
        """This world's memo of the fields at its present position (:class:`~grn.games.carcassonne.playout.FieldMemo`)."""
        memo = self.fields
        memo.at(self.state.board)
        return memo

    def field_worth(self, preview: Placement, local: int) -> float:
        """What a farmer on the new tile's field segment ``local`` is worth to a claiming playout (R443): 3 points
        a city beside the field that is closed now or by the placement, 1.5 an open one (:meth:`field_cities`)."""
        return playout.field_worth(self.state, self._memo(), preview, local)

    def field_cities(self, preview: Placement, local: int) -> tuple[int, int]:
        """The cities beside the field of the new tile's segment ``local`` once the tile is placed: how many are
        closed (a farmer there would score 3 points each if the game ended now) and how many are open."""
        return playout.field_cities(self.state, self._memo(), preview, local)

    def join_gain(self, preview: Placement, seat: int) -> float:
        """What the fields a placement joins change for ``seat`` (R515): the farms' worth (:meth:`field_worth`) the
        seat holds once joined less what it held before, less the mean of that change for the others.  A field is
        held with the most farmers on it (ties all hold); 0 when the placement joins no field a farmer is on."""
        return playout.join_gain(self.state, self._memo(), preview, seat)

    def root_field_worth(self, root: int) -> float:
        """What a farmer on the existing field ``root`` is worth to a claiming playout, as :meth:`field_worth`
        reckons it: 3 points a closed city beside it, 1.5 an open one."""
        return playout.root_field_worth(self.state, self._memo(), root)

    def _claim(self, preview: Placement) -> tuple[float, int]:
        """The best field of the new tile for a farmer (R443): its worth and local segment (-1: none worth it)."""
        return playout.claim(self.state, self._memo(), preview, FARM_CLAIM)

    def quick_worth(self, placement: PlaceTile, preview: Placement,
                    rng: random.Random) -> tuple[float, tuple[Command, ...]]:
        """The points the placement scores at once for the mover (less the opponents' mean), with a follower
        on a feature it completes when that scores more; else a quick follow-up as before (R170).

        A world whose playouts claim (:attr:`claims`, R443) plays as people do: a farmer on a field worth
        :data:`FARM_CLAIM` points or more (its worth, times :data:`FARM_WEIGHT`, added to the placement's), the
        last follower kept for a feature it completes, and no farmer at random.  Weighed in
        :mod:`grn.games.carcassonne.playout` (compiled)."""
        return playout.quick_worth(self.state, self.fields, placement, preview, rng, self.claims, FIELD_JOINS,
                                   FARM_CLAIM, FARM_WEIGHT)

    def rollout_move(self, rng: random.Random) -> Decision:
        """:meth:`TileWorld.rollout_move`, its draws and weighing made in compiled code
        (:func:`~grn.games.carcassonne.playout.sampled_turn`): the same draws, the same move.  A subclass that
        weighs otherwise (its own :meth:`quick_worth`) plays the generic loop."""
        pile = self.pile
        want = self.playout_samples
        if pile and want > 1 and type(self).quick_worth is CarcassonneWorld.quick_worth:
            if self.fights:  # a review's (R516): distinct placements listed, the fields they join weighed
                move = playout.sampled_turn(self.state, self.fields, pile[-1], rng, REVIEW_PLACEMENTS, 0, True, True,
                                            FARM_CLAIM, FARM_WEIGHT, True)
            else:
                move = playout.sampled_turn(self.state, self.fields, pile[-1], rng, want, tiling_world.TRIES,
                                            self.claims, FIELD_JOINS, FARM_CLAIM, FARM_WEIGHT, PLAYOUT_LISTS)
            # None: nothing fitted in the draws (or the board is empty): list the placements, as the generic loop
            return move if move is not None else self.listed_move(rng)
        return super().rollout_move(rng)


__all__ = ["CarcassonneWorld", "FARM_CLAIM", "FARM_WEIGHT", "FIELD_JOINS", "PLAYOUT_LISTS", "REVIEW_PLACEMENTS", "BOT_FIGHTS"]
