"""Gold Rush for bots: a turn's follow-ups (a cowboy, a tent, mining) and the value of unknown mining tokens."""

from __future__ import annotations

import random
from typing import Any, Sequence

from grn.games.goldrush.commands import Mine, RevealTokens
from grn.games.goldrush.rules import GoldRushState
from grn.tiling.commands import PlaceTile
from grn.tiling.world import TileWorld


class GoldRushWorld(TileWorld):
    """A Gold Rush game with one order of the bag.

    Mining tokens taken face down count at the mean of the faces still
    unaccounted for: what a player can expect of them (R71).
    """

    __slots__ = ()

    @property
    def state(self) -> GoldRushState:
        engine = self.engine
        assert isinstance(engine, GoldRushState)
        return engine

    def followups(self, placement: PlaceTile) -> list[tuple[Any, ...]]:
        return [() if f is None else (f,) for f in self.state.legal_followups(placement)]

    def quick_followup(self, placement: PlaceTile, rng: random.Random) -> tuple[Any, ...]:
        # most playout turns do nothing in step 2; listing the options costs as much as the placement
        if rng.random() < 0.5:
            return ()
        return rng.choice(self.followups(placement))

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


def decision_of(actions: Sequence[Any]) -> tuple[Any, ...]:
    """A recorded turn without what its scoring revealed: mined and handed-out token faces."""
    out: list[Any] = []
    for a in actions:
        if isinstance(a, RevealTokens):
            continue
        out.append(Mine() if isinstance(a, Mine) else a)
    return tuple(out)


__all__ = ["GoldRushWorld", "decision_of"]
