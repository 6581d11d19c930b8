"""Bots' worlds for tile-laying games: the bag's order is what a player cannot see.

The engine knows the bag's contents; a :class:`TileWorld` adds one order of
it (the pile, next tile last).  A determinisation keeps the tiles the player
to move already drew on top (the hand: tiles that fit nowhere, then the tile
to place) and shuffles the rest.  A decision is a whole turn's commands:
the discards, the placement, then the game's follow-ups (a follower, a tent,
an ingot ...), which each game lists in :meth:`TileWorld.followups`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Sequence

from grn.rules.engine import Engine
from grn.games.tiling.board import Placement
from grn.games.tiling.commands import DiscardTile, PlaceTile
from grn.games.tiling.engine import TileEngine
from grn.rules.world import Decision, World, scaled_playouts

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset
    from grn.rules.engine import Event


def tile_hand(actions: Sequence[Command]) -> tuple[str, ...]:
    """The tiles a recorded turn drew, in drawing order (discards, then the tile placed)."""
    return tuple(a.tile for a in actions if isinstance(a, (DiscardTile, PlaceTile)))


#: Random squares and rotations a playout tries for its tile before listing every legal placement.
TRIES = 12


class TileWorld(World):
    """A tile-laying game with one order of its bag: ``pile`` holds tile ids, the next drawn last."""

    __slots__ = ("pile", "claims")

    horizon = 6

    #: Points a position's value credits each player for a follower still in supply (fading as the bag
    #: empties, as :meth:`reserve`): 0, the default, values a position by its projected final scores alone.
    #: A yardstick variant measured in docs/dev/journal/analysis.md, "Validity, round seven" (R233); when it is set,
    #: :meth:`reserve` credits nothing more, so the greedy ranking counts each follower once.
    follower_value = 0.0

    #: Legal placements a playout samples for its tile and weighs by :meth:`quick_worth`, playing the best
    #: (1: the first found, a uniformly random placement, R143).
    playout_samples = 1

    #: Whether a new world's playouts claim as people do (:meth:`claim_playouts`, R443): False, the game's own
    #: playouts, which an analysis plays; a knob for measuring the review with the bot's playouts.
    claims_default = False

    #: How many times a level's playouts the bot's search spends in this game (:meth:`search_playouts`), at most
    #: :attr:`search_cap`: 1 spends the level's own.
    search_scale = 1
    search_cap = 3000

    def __init__(self, ruleset: Ruleset, engine: Engine, pile: list[str]) -> None:
        super().__init__(ruleset, engine)
        self.pile = pile
        #: Whether the playouts claim as people do (:meth:`claim_playouts`, R443): the bot's search, not an analysis.
        self.claims = self.claims_default

    def search_playouts(self, playouts: int) -> int:
        """A level's playouts times :attr:`search_scale`, at most :attr:`search_cap` (never fewer than the
        level's), for the bot's claiming search; an analysis's and ``classic``'s are the level's."""
        return scaled_playouts(playouts, self.search_scale, self.search_cap) if self.claims else playouts

    @classmethod
    def sample(cls, ruleset: Ruleset, engine: TileEngine, rng: random.Random, hand: tuple[str, ...] = ()) -> "TileWorld":
        """A world whose pile is the bag shuffled, with ``hand`` (tile ids, in drawing order) drawn first."""
        rest = dict(engine.bag())
        for tile in hand:
            if rest.get(tile, 0) <= 0:
                raise ValueError(f"tile {tile} of the hand is not in the bag")
            rest[tile] -= 1
        pile = [tid for tid, n in sorted(rest.items()) for _ in range(n)]
        rng.shuffle(pile)
        pile.extend(reversed(hand))
        return cls(ruleset, engine.copy(), pile)

    def copy(self) -> "TileWorld":
        world = type(self)(self.ruleset, self.engine.copy(), list(self.pile))
        world.claims = self.claims
        return world

    def claim_playouts(self) -> None:
        self.claims = True

    @property
    def tiles(self) -> TileEngine:
        """The engine, typed as a tile-laying one."""
        engine = self.engine
        assert isinstance(engine, TileEngine)
        return engine

    def _draw(self) -> tuple[list[DiscardTile], str | None, list[PlaceTile]]:
        """What the player to move draws: the discards, the tile that fits (None: the bag ran out), its placements."""
        engine = self.tiles
        discards: list[DiscardTile] = []
        i = len(self.pile)
        while i:
            i -= 1
            tile = self.pile[i]
            legal = engine.legal_placements(tile)
            if legal:
                return discards, tile, legal
            discards.append(DiscardTile(tile))
        return discards, None, []

    def hand(self) -> tuple[str, ...]:
        discards, tile, _ = self._draw()
        return tuple(d.tile for d in discards) + ((tile,) if tile is not None else ())

    def draws(self) -> list[tuple[float, tuple[str, ...]]]:
        """Every kind of tile the bag held before this turn's draw, weighed by how many are left (the luck of
        the draw, :mod:`grn.analysis.luck`; the tiles of a discard are left out: they are drawn and put back)."""
        return [(float(n), (tile,)) for tile, n in sorted(self.tiles.bag().items()) if n > 0]

    def chance_words(self, step: Any, chosen: Sequence[str]) -> list[str]:
        """The tile drawn is this world's next in the pile (after the tiles ``chosen`` and set aside); another
        chance point as :meth:`grn.rules.world.World.chance_words` says."""
        if step.chance == "bag":
            k = len(chosen)  # each word before a draw is a tile drawn and set aside
            return [self.pile[-1 - k]] if k < len(self.pile) else []
        return super().chance_words(step, chosen)

    def followups(self, placement: PlaceTile) -> list[tuple[Command, ...]]:
        """What may follow ``placement`` in the same turn, each a tuple of commands (``()``: nothing); the same
        as the game's tree of choices offers after it (:meth:`grn.rules.world.World.tree_moves`)."""
        return [()]

    def bare_followup(self, placement: PlaceTile) -> tuple[Command, ...]:
        """The least a turn must add to ``placement`` to be legal (default: nothing), for ranking placements."""
        return ()

    def quick_followup(self, placement: PlaceTile, rng: random.Random) -> tuple[Command, ...]:
        """A follow-up for a playout (default: a random one of :meth:`followups`)."""
        return rng.choice(self.followups(placement))

    def quick_worth(self, placement: PlaceTile, preview: Placement,
                    rng: random.Random) -> tuple[float, tuple[Command, ...]]:
        """A playout's quick worth of ``placement`` to the player to move (``preview``: what it would do), and
        the follow-up that earns it; used when :attr:`playout_samples` > 1.  Default: 0 and
        :meth:`quick_followup`."""
        return 0.0, self.quick_followup(placement, rng)

    def moves(self) -> list[Decision]:
        discards, tile, legal = self._draw()
        head = tuple(discards)
        if tile is None:
            return [head]
        return [head + (p,) + f for p in legal for f in self.followups(p)]

    def shortlist(self, rank: Callable[[Decision], float], limit: int) -> list[tuple[float, Decision]]:
        """Rank the placements alone, then the follow-ups of the best placements: the ``limit`` best decisions,
        at most :meth:`per_placement` of them with one placement so that several placements race (R171).

        ``limit`` 1 (the greedy bot) ranks the follow-ups of the best placement alone, as it always did.
        """
        discards, tile, legal = self._draw()
        head = tuple(discards)
        if tile is None:
            return [(rank(head), head)]
        bare = sorted(((rank(head + (p,) + self.bare_followup(p)), i, p) for i, p in enumerate(legal)),
                      key=lambda t: (-t[0], t[1]))
        cap = self.per_placement(limit)
        best: list[tuple[float, int, int, Decision]] = []
        n = 0
        for j, (_, _, p) in enumerate(bare[:max(1, limit)]):
            for f in self.followups(p):
                d = head + (p,) + f
                best.append((rank(d), n, j, d))
                n += 1
        best.sort(key=lambda t: (-t[0], t[1]))
        chosen: list[tuple[float, int, int, Decision]] = []
        left: list[tuple[float, int, int, Decision]] = []
        taken: dict[int, int] = {}
        for item in best:
            if taken.get(item[2], 0) < cap:
                taken[item[2]] = taken.get(item[2], 0) + 1
                chosen.append(item)
            else:
                left.append(item)
        chosen = (chosen + left)[:limit]
        chosen.sort(key=lambda t: (-t[0], t[1]))
        return [(r, d) for r, _, _, d in chosen]

    @staticmethod
    def per_placement(limit: int) -> int:
        """The most decisions with one placement among a shortlist of ``limit`` (R171)."""
        return max(2, (limit + 2) // 3)

    def random_move(self, rng: random.Random) -> Decision:
        """A random placement of the tile drawn and a random follow-up (as self-play plays)."""
        return self.rollout_move(rng)

    def rollout_move(self, rng: random.Random) -> Decision:
        """A random placement of the next tile and a quick follow-up.

        The placement is drawn by rejection (R143): a random square of the
        frontier and a random rotation, kept when the tile fits there.  That
        is the same distribution as a choice among every legal placement,
        without listing them all (the most expensive step of a playout);
        after :data:`TRIES` misses, or when the tile may fit nowhere, the
        placements are listed.  A game with :attr:`playout_samples` > 1
        draws up to that many placements so and plays the one of the best
        :meth:`quick_worth`, the first drawn on a tie (R170).
        """
        pile = self.pile
        if pile:
            tile = pile[-1]
            engine = self.tiles
            board = engine.board
            design = engine.tileset.by_id.get(tile)
            if design is not None and board.tiles:
                want = self.playout_samples
                found = [(PlaceTile(tile, p.x, p.y, p.rotation), p)
                         for p in board.sample_placements(design, rng.random, max(1, want), TRIES)]
                if found and want <= 1:
                    return (found[0][0],) + self.quick_followup(found[0][0], rng)
                if found:
                    return self._weigh(found, rng)
        return self.listed_move(rng)

    def listed_move(self, rng: random.Random) -> Decision:
        """A playout's move from every legal placement listed (the tile fitted none of the random draws, may fit
        nowhere, or is the first): one at random, or with :attr:`playout_samples` > 1 the best weighed of that
        many."""
        discards, tile_drawn, legal = self._draw()
        head = tuple(discards)
        if tile_drawn is None:
            return head
        if self.playout_samples <= 1:
            p = rng.choice(legal)
            return head + (p,) + self.quick_followup(p, rng)
        engine = self.tiles
        design = engine.tileset.by_id[tile_drawn]
        found = []
        for p in rng.sample(legal, min(self.playout_samples, len(legal))):
            preview = engine.board.preview(design, p.x, p.y, p.rotation, first=not engine.board.tiles)
            if preview is not None:
                found.append((p, preview))
        return head + self._weigh(found, rng) if found else head + (legal[0],) + self.quick_followup(legal[0], rng)

    def _weigh(self, found: list[tuple[PlaceTile, Placement]], rng: random.Random) -> tuple[Command, ...]:
        """The placement of the best :meth:`quick_worth` among ``found`` (the first on a tie), with its follow-up."""
        best: tuple[float, tuple[Command, ...]] | None = None
        for p, preview in found:
            worth, follow = self.quick_worth(p, preview, rng)
            if best is None or worth > best[0]:
                best = (worth, (p,) + follow)
        assert best is not None
        return best[1]

    def play_commands(self, commands: tuple[Command, ...]) -> list[Event]:
        """Play a turn's commands and take its tiles from the pile."""
        events = self.engine.play_turn(self.player, commands)
        for c in commands:
            if isinstance(c, (DiscardTile, PlaceTile)):
                self._take(c.tile)
        return events

    def _take(self, tile: str) -> None:
        pile = self.pile
        if pile and pile[-1] == tile:
            pile.pop()
        else:  # a decision that drew another tile than the pile's next (a recorded turn): keep the sample whole
            pile.remove(tile)

    def reserve(self, player: str) -> float:
        """A follower kept is worth a point while enough tiles are left to use it (fading as the bag empties);
        nothing more when :attr:`follower_value` already credits it in :meth:`value`."""
        return 0.0 if self.follower_value else self._kept(player, 1.0)

    def _kept(self, player: str, worth: float) -> float:
        """``worth`` points a follower in ``player``'s supply, fading after the bag holds fewer than 24 tiles."""
        engine = self.tiles
        supply = getattr(engine, "supply", None)
        if supply is None:
            return 0.0
        seat = engine.players.index(player)
        return float(supply[seat]) * worth * min(1.0, engine.bag_left / 24)

    #: The learned evaluation's features of a tile game with followers (R332), each times the share of the game
    #: left: followers in supply (against followers on a feature that will give them back: a player's followers
    #: are one or the other or :attr:`permanent_kind`'s, so the third is implied), followers in supply times that
    #: share again (their worth falls faster late), whether one is left at all, followers that never come back
    #: (farmers), and the player to move.
    feature_names: tuple[str, ...] = ("supply", "supply_early", "any_left", "permanent", "to_move")

    #: The kind of feature whose followers stay to the end (Carcassonne's fields); None: every follower returns.
    permanent_kind: str | None = None

    def pieces_on_board(self) -> dict[int, int]:
        """Segment id -> the seat of the follower standing there (default: none)."""
        return {}

    def phase(self) -> float:
        """The share of the tiles still in the bag."""
        engine = self.tiles
        left = engine.bag_left
        return left / max(1, left + len(engine.board.tiles))

    def features(self, player: str, upto: int | None = None) -> tuple[float, ...]:
        engine = self.tiles
        supply = getattr(engine, "supply", None)
        f = self.phase()
        if supply is None or f <= 0.0:
            return (0.0,) * len(TileWorld.feature_names)
        seat = engine.players.index(player)
        s = float(supply[seat])
        permanent = 0
        keep = self.permanent_kind
        if keep is not None:
            kinds = engine.board.kind
            permanent = sum(1 for sid, owner in self.pieces_on_board().items() if owner == seat and kinds[sid] == keep)
        return (f * s, f * f * s, f * min(s, 1.0), f * permanent, f if engine.seat == seat else 0.0)

    def value(self) -> dict[str, float]:
        """The projected final scores, plus :attr:`follower_value` a follower kept when that is set."""
        values = super().value()
        if self.follower_value:
            for p in values:
                values[p] += self._kept(p, self.follower_value)
        return values


__all__ = ["TileWorld", "tile_hand"]
