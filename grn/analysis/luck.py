"""The luck of the draw: what the tile a player drew was worth against what the bag could have given.

"Did I lose to the tiles?"  For each turn, :func:`turn_luck` values the best
move with the tile the player drew, and the best move with each tile the bag
could have given instead (every kind of tile in the bag, weighed by how many
of it are left), all from the same position and by the same judge: the move
whose resulting position has the highest expected final margin by the game's
learned evaluation (:meth:`grn.rules.world.World.estimate`, one move deep).  The
luck is the first minus the weighted mean of all: positive when the draw was
better than what the bag held on average, and zero on average over the draws.

Per player, :func:`balance` adds the luck of their own draws, less their
opponents', and the skill (the points lost the review measured, their
opponents' less their own); with the expectation at the start, the two
account for the final margin, and what is left is what neither measures
(the evaluation's error, the other players' draws in a game of more than
two).  GNU Backgammon does the same for dice; docs/analysis.md, "Luck and
skill", gives the figures and how far they add up.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from grn.rules.engine import Engine
from grn.core.value import Value
from grn.rules.world import Decision, World, margin


class TurnLuck(Value):
    """One turn's luck for the player who drew: ``luck`` = ``drawn`` - ``expected`` (points of expected final
    margin); ``drawn`` the best move's worth with the tile drawn, ``expected`` the mean over what the bag held."""

    __slots__ = ("turn", "player", "luck", "drawn", "expected", "draws")
    _fields = ("turn", "player", "luck", "drawn", "expected", "draws")

    def __init__(self, turn: int, player: str, luck: float, drawn: float, expected: float, draws: int) -> None:
        self.turn = turn
        self.player = player
        self.luck = luck
        self.drawn = drawn
        self.expected = expected
        #: How many kinds of draw the bag held.
        self.draws = draws

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __repr__(self) -> str:
        return f"<TurnLuck turn {self.turn} {self.player} {self.luck:+.1f}>"


def best_worth(world: World, player: str) -> float:
    """The highest expected final margin for ``player`` one move deep from ``world`` (the learned evaluation)."""
    def rank(decision: Decision) -> float:
        branch = world.copy()
        branch.play(decision)
        return margin(branch.estimate(), player)
    listed = world.shortlist(rank, 1)
    return listed[0][0] if listed else margin(world.estimate(), player)


def turn_luck(ruleset: Any, engine: Engine, turn: int, player: str, hand: tuple[Any, ...],
              seed: int = 0) -> TurnLuck | None:
    """The luck of the draw of the turn ``turn`` played from ``engine`` by ``player``, who drew ``hand``; None
    where the game has no draw to weigh (:meth:`grn.rules.world.World.draws`)."""
    rng = random.Random(seed)
    actual = ruleset.determinise(engine, random.Random(rng.getrandbits(64)), hand)
    draws = actual.draws()
    if not draws:
        return None
    drawn = best_worth(actual, player)
    total = weight_sum = 0.0
    for weight, other in draws:
        world = ruleset.determinise(engine, random.Random(rng.getrandbits(64)), other)
        total += weight * best_worth(world, player)
        weight_sum += weight
    expected = total / weight_sum
    return TurnLuck(turn, player, drawn - expected, drawn, expected, len(draws))


class Balance(Value):
    """A player's game in three parts (points of final margin): ``luck`` (their draws' luck less their opponents'
    mean), ``skill`` (the opponents' mean points lost less their own), ``expected`` (the margin expected before
    the first move), and ``rest``: the final ``margin`` less the three, with ``se`` its standard error."""

    __slots__ = ("player", "margin", "expected", "luck", "skill", "rest", "se")
    _fields = ("player", "margin", "expected", "luck", "skill", "rest", "se")

    def __init__(self, player: str, margin: float, expected: float, luck: float, skill: float, rest: float,
                 se: float) -> None:
        self.player = player
        self.margin = margin
        self.expected = expected
        self.luck = luck
        self.skill = skill
        self.rest = rest
        self.se = se

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __repr__(self) -> str:
        return (f"<Balance {self.player}: margin {self.margin:+.0f} = expected {self.expected:+.1f} "
                f"+ luck {self.luck:+.1f} + skill {self.skill:+.1f} + rest {self.rest:+.1f} ± {self.se:.1f}>")

    @property
    def adds_up(self) -> bool:
        """Whether luck and skill account for the margin less the expectation within one standard error."""
        return abs(self.rest) <= self.se


def balance(players: Sequence[str], finals: dict[str, float], expected: dict[str, float],
            lucks: Sequence[TurnLuck], losses: Sequence[tuple[str, float, float]]) -> list[Balance]:
    """Each player's :class:`Balance` from the final scores, the margins expected at the start, each turn's luck
    and each turn's (player, points lost, standard error)."""
    out = []
    for p in players:
        others = [q for q in players if q != p]
        share = 1.0 / max(1, len(others))
        luck = sum(t.luck if t.player == p else -share * t.luck for t in lucks)
        skill = sum(-lost if q == p else share * lost for q, lost, _ in losses)
        var = sum((se if q == p else share * se) ** 2 for q, _, se in losses)
        m = margin(finals, p)
        rest = m - expected.get(p, 0.0) - luck - skill
        out.append(Balance(p, m, expected.get(p, 0.0), luck, skill, rest, var ** 0.5))
    return out


__all__ = ["TurnLuck", "Balance", "turn_luck", "best_worth", "balance"]
