"""Gold Rush for bots: a turn's follow-ups (a cowboy, a tent, mining) and the value of unknown mining tokens."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from grn.core.errors import IllegalAction
from grn.games.goldrush.commands import Mine, RevealTokens
from grn.games.goldrush.rules import GoldRushState, TokenMined, TokensTaken
from grn.games.goldrush.terms import PRAIRIE
from grn.games.tiling.commands import PlaceTile
from grn.games.tiling.world import TileWorld

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset
    from grn.games.tiling.engine import TileEngine

#: A claiming playout (R443) puts a farmer on a prairie of the new tile worth at least this many points at the end
#: (2 a tipi camp, 4 a herd of wild horses, as it stands once the tile is placed).
PRAIRIE_CLAIM = 8.0


class GoldRushWorld(TileWorld):
    """A Gold Rush game with one order of the bag.

    Mining tokens taken face down count at the mean of the faces still
    unaccounted for: what a player can expect of them (R71).
    """

    __slots__ = ("faces",)

    #: Farmers stay on their prairies to the end (the learned evaluation's permanent cowboys, R332).
    permanent_kind = PRAIRIE
    #: The tile games' features and one of Gold Rush's own: the tent still in the supply.
    feature_names = TileWorld.feature_names + ("tent_in_supply",)

    def pieces_on_board(self) -> dict[int, int]:
        return self.state.cowboy_at

    def features(self, player: str, upto: int | None = None) -> tuple[float, ...]:
        state = self.state
        seat = state.players.index(player)
        return super().features(player, upto) + (self.phase() if state.tent[seat] < 0 and not state.is_over else 0.0,)

    def __init__(self, ruleset: Ruleset, engine: GoldRushState, pile: list[str], faces: dict[int,
                 int] | None = None) -> None:
        super().__init__(ruleset, engine, pile)
        #: token id -> face, for the tokens whose face nobody has seen (drawn with the bag's order)
        self.faces = faces if faces is not None else {}

    @classmethod
    def sample(cls, ruleset: Ruleset, engine: TileEngine, rng: random.Random, hand: tuple[str,
               ...] = ()) -> "GoldRushWorld":
        world = super().sample(ruleset, engine, rng, hand)
        assert isinstance(world, GoldRushWorld)
        state = world.state
        pool: list[int] = []
        for v, n in sorted(state._token_counts.items()):
            pool += [v] * max(0, n - state.known.get(v, 0))
        rng.shuffle(pool)
        unseen = [t for t in range(state.tileset.token_total) if t not in state.token_value]
        world.faces = dict(zip(unseen, pool))
        return world

    def copy(self) -> "GoldRushWorld":
        world = GoldRushWorld(self.ruleset, self.state.copy(), list(self.pile), self.faces)
        world.claims = self.claims
        return world

    def recorded(self, decision: Any) -> tuple[Any, ...]:
        """The turn as a table that knows the token faces writes it: the mined token's face, the faces handed out."""
        actions = list(self.commands(decision))
        _, events = self.state.after(self.player, actions)
        handed: list[int | None] = []
        for e in events:
            if isinstance(e, TokenMined):
                actions = [Mine(self.faces.get(e.id)) if isinstance(a, Mine) else a for a in actions]
            elif isinstance(e, TokensTaken):
                handed += [self.faces.get(i) for i in e.ids]
        if handed:
            actions.append(RevealTokens(tuple(handed)))
        return tuple(actions)

    @property
    def state(self) -> GoldRushState:
        engine = self.engine
        assert isinstance(engine, GoldRushState)
        return engine

    def followups(self, placement: PlaceTile) -> list[tuple[Command, ...]]:
        return [() if f is None else (f,) for f in self.state.legal_followups(placement)]

    def quick_followup(self, placement: PlaceTile, rng: random.Random) -> tuple[Command, ...]:
        """Half the time nothing, else a random cowboy or mining: listing every tent costs a playout three
        times what the placement costs, and a tent pays only turns later.  A world whose playouts claim (R443)
        keeps its last cowboy, puts a farmer on a prairie worth :data:`PRAIRIE_CLAIM` points or more, and none
        on a prairie at random."""
        if rng.random() < 0.5 and not self.claims:
            return ()
        state = self.state
        p = state._preview(placement, state._design(placement.tile, None))
        options: list[Any] = list(state._cowboy_options(state.seat, p))
        if self.claims:  # R443: the last cowboy kept, a prairie claimed when worth it, none at random
            if state.supply[state.seat] < 2:
                options = []
            else:
                kinds = p.design.kinds
                locals_ = [state._segment_of(p.design, p.orientation, 0, c.location) for c in options]
                prairies = [(self.prairie_worth(p, ls), i) for i, ls in enumerate(locals_) if kinds[ls] == PRAIRIE]
                if prairies and max(prairies)[0] >= PRAIRIE_CLAIM:
                    return (options[max(prairies)[1]],)
                options = [c for c, ls in zip(options, locals_) if kinds[ls] != PRAIRIE]
            if rng.random() < 0.5:
                return ()
        if state.tent[state.seat] >= 0:
            try:
                state._check_mine(state.seat, p, Mine(), state._alloc_tokens(p.design))
            except IllegalAction:
                pass
            else:
                options.append(Mine())
        return (rng.choice(options),) if options else ()

    def prairie_worth(self, p: Any, local: int) -> float:
        """What a farmer on the new tile's prairie segment ``local`` would score at the end as it stands once the
        tile is placed: 2 points a tipi camp, 4 a herd of wild horses on the whole prairie (R443)."""
        state = self.state
        root_data = state.board.root_data
        design = p.design
        g = p.group[local]
        tipis = horses = 0
        for r in p.group_roots[g]:
            data = root_data[r]
            symbols = (data.symbols if data is not None else None) or {}
            tipis += symbols.get("tipis", 0)
            horses += symbols.get("horses", 0)
        for ls in p.group_segments[g]:
            tipis += design.segments[ls].count("tipis")
            horses += design.segments[ls].count("horses")
        return 2.0 * tipis + 4.0 * horses

    def value(self) -> dict[str, float]:
        state = self.state
        projected = state.copy()
        if not projected.final_done:
            projected.final_scoring()
        pool: list[int] = []
        for v, n in state._token_counts.items():
            pool += [v] * max(0, n - state.known.get(v, 0))
        mean = sum(pool) / len(pool) if pool else 0.0
        gold = projected.gold()
        return {p: s + gold[p].unknown * mean for p, s in projected.scores.items()}


def decision_of(actions: Sequence[Command]) -> tuple[Command, ...]:
    """A recorded turn without what its scoring revealed: mined and handed-out token faces."""
    out: list[Command] = []
    for a in actions:
        if isinstance(a, RevealTokens):
            continue
        out.append(Mine() if isinstance(a, Mine) else a)
    return tuple(out)


__all__ = ["GoldRushWorld", "decision_of", "PRAIRIE_CLAIM"]
