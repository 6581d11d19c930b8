"""Gold for bots: the faces of the cards nobody has seen are what a player cannot know.

A player remembers every card turned (:meth:`GoldState.known_faces`); the
cards never seen are exchangeable: a determinisation deals the faces still
unaccounted for among their places at random.  A decision is the tuple of
places turned over.  Since unseen cards are alike to the player, the
decisions list each pair of remembered cards, each remembered card with an
unseen one and two unseen ones, an unseen card standing for any (R75).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from grn.games.gold.commands import Card, FlipCard
from grn.games.gold.rules import GoldState
from grn.games.gold.selfplay import _choose
from grn.world import Decision, World


class GoldWorld(World):
    """A Gold game with one deal of the unseen cards: ``truth`` maps every face-down place to its face."""

    __slots__ = ("truth",)

    horizon = 12

    def __init__(self, ruleset: Any, engine: GoldState, truth: dict[str, Card]) -> None:
        super().__init__(ruleset, engine)
        self.truth = truth

    @classmethod
    def sample(cls, ruleset: Any, engine: GoldState, rng: random.Random) -> "GoldWorld":
        """Deal the faces nobody has seen among the places nobody has seen."""
        known = engine.known_faces()
        unseen = [p for p in engine.face_down() if p not in known]
        pool = dict(engine.face_down_cards())
        for card in known.values():
            pool[card] -= 1
        faces = [c for c, n in sorted(pool.items(), key=lambda kv: repr(kv[0])) for _ in range(n)]
        rng.shuffle(faces)
        truth = dict(known)
        truth.update(zip(unseen, faces))
        return cls(ruleset, engine.copy(), truth)

    @property
    def state(self) -> GoldState:
        engine = self.engine
        assert isinstance(engine, GoldState)
        return engine

    def copy(self) -> "GoldWorld":
        # the deal never changes within a world: shared, not copied
        return GoldWorld(self.ruleset, self.state.copy(), self.truth)

    def moves(self) -> list[Decision]:
        state = self.state
        known = state.known_faces()
        down = state.face_down()
        seen = [p for p in down if p in known]
        unseen = [p for p in down if p not in known]
        if state.flips_due == 1:
            singles: list[Decision] = [(p,) for p in seen]
            return singles + ([(unseen[0],)] if unseen else [])
        out: list[Decision] = [(a, b) for i, a in enumerate(seen) for b in seen[i + 1:]]
        if unseen:
            out += [(a, unseen[0]) for a in seen]
        if len(unseen) >= 2:
            out.append((unseen[0], unseen[1]))
        return out

    def commands(self, decision: Decision) -> tuple[Any, ...]:
        truth = self.truth
        return tuple(FlipCard(p, truth[p]) for p in decision)  # type: ignore[attr-defined]

    def rollout_move(self, rng: random.Random) -> Decision:
        """Self-play's player: carry out a remembered gold, else turn a card and look for a partner."""
        return tuple(_choose(self.state, self.truth, rng))

    def random_move(self, rng: random.Random) -> Decision:
        """Any face-down cards, at random."""
        state = self.state
        return tuple(rng.sample(state.face_down(), state.flips_due))


def canonical(engine: GoldState, positions: Sequence[str]) -> tuple[str, ...]:
    """A turn's places as the decision the bots list: remembered cards first, unseen ones by their stand-ins."""
    known = engine.known_faces()
    down = engine.face_down()
    unseen = [p for p in down if p not in known]
    order = {p: i for i, p in enumerate(down)}
    seen_part = sorted((p for p in positions if p in known), key=lambda p: order.get(p, 0))
    n_unseen = sum(1 for p in positions if p not in known)
    if n_unseen > len(unseen):  # not a legal turn: keep it as written, the engine will refuse it
        return tuple(positions)
    return tuple(seen_part) + tuple(unseen[:n_unseen])


def words(engine: GoldState, decision: Sequence[str]) -> str:
    """``turn over c3 (red miner 2) and a card not seen yet``."""
    known = engine.known_faces()
    parts = []
    for p in decision:
        card = known.get(p)
        if card is None:
            parts.append("a card not seen yet")
        else:
            what = {"gold": f"gold {card.value}", "dynamite": "dynamite"}.get(card.kind,
                                                                                f"{card.colour} miner {card.value}")
            parts.append(f"{p} ({what})")
    return "turn over " + " and ".join(parts)


__all__ = ["GoldWorld", "canonical", "words"]
