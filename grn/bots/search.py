"""Monte-Carlo evaluation of a player's candidate decisions over determinised worlds.

Each *round* draws one world from what the player to move knows
(:meth:`grn.rules.ruleset.Ruleset.determinise`) and plays every candidate still in
the race in that same world, each followed by the same quick playout
(common random numbers: the luck of the draw is shared, so differences
between candidates are measured with less noise), truncated after the
world's ``horizon`` turns and scored by the projected final margin
(:meth:`grn.rules.world.World.value`, :func:`grn.rules.world.margin`).  Successive
halving drops the worse half of the candidates at rounds 4, 8, 16, ...
(candidates in ``keep`` always stay: the played move of an analysis).  The
search stops when the budget of playouts or of seconds is spent, always at
the end of a round, and never later than the first round past the budget.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from grn.rules.engine import Engine
from grn.rules.evaluation import EVALUATION
from grn.rules.world import Decision, World, margin, rollout

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset

#: Rounds before the first halving (each candidate is played in at least this many worlds).
FIRST_HALVING = 4


@dataclass(frozen=True, slots=True)
class Estimate:
    """A candidate's expected final margin for the player to move: ``mean`` points, ``se`` one standard error."""

    decision: Decision
    mean: float
    se: float
    playouts: int
    samples: tuple[float, ...] = ()
    #: Each playout's chance to place first for the player to move (:meth:`grn.rules.world.World.outcome`), beside
    #: ``samples`` (R333).
    wins: tuple[float, ...] = ()

    def __repr__(self) -> str:
        return f"<Estimate {self.mean:+.1f}±{self.se:.1f} over {self.playouts} playouts>"

    @property
    def win(self) -> float:
        """The chance to place first (the mean of :attr:`wins`; NaN without them)."""
        return sum(self.wins) / len(self.wins) if self.wins else math.nan

    @property
    def win_se(self) -> float:
        """The standard error of :attr:`win`."""
        return _se(self.wins)


def _se(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.inf if n == 0 else 0.0
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return math.sqrt(var / n)


def _paired(xs: Sequence[float], ys: Sequence[float], whole: float) -> tuple[float, float]:
    """The mean of ``x - y`` over the rounds both were played in, with its standard error; ``whole`` (the
    difference of the means, with an infinite error) when they share none."""
    n = min(len(xs), len(ys))
    if n == 0:
        return whole, math.inf
    diffs = [x - y for x, y in zip(xs[:n], ys[:n])]
    return sum(diffs) / n, _se(diffs)


def paired_difference(a: Estimate, b: Estimate) -> tuple[float, float]:
    """``a - b`` over the rounds both were played in, with its standard error (the worlds are shared)."""
    return _paired(a.samples, b.samples, a.mean - b.mean)


def paired_win_difference(a: Estimate, b: Estimate) -> tuple[float, float]:
    """``a``'s chance to win minus ``b``'s over the rounds both were played in, with its standard error."""
    return _paired(a.wins, b.wins, a.win - b.win)


def greedy_rank(worlds: Sequence[World], player: str) -> Callable[[Decision], float]:
    """A decision's immediate worth to ``player``: the projected final margin right after it (plus what the
    player keeps for later), averaged over ``worlds``."""
    def rank(decision: Decision) -> float:
        total = 0.0
        for w in worlds:
            branch = w.copy()
            branch.play(decision)
            total += margin(branch.value(), player) + branch.reserve(player)
        return total / len(worlds)
    return rank


def make_worlds(ruleset: Ruleset, engine: Engine, hand: tuple[str, ...], rng: random.Random, count: int) -> list[World]:
    """``count`` determinisations of ``engine`` for the player to move."""
    return [ruleset.determinise(engine, random.Random(rng.getrandbits(64)), hand) for _ in range(count)]


def candidate_moves(worlds: Sequence[World], player: str, width: int, *,
                    from_position: bool = False) -> list[Decision]:
    """The decisions a search weighs: the ``width`` best by the greedy ranking over ``worlds`` (greedy's own
    choice first), then the world's reactive decisions (:meth:`grn.rules.world.World.reactions`); the world's
    :meth:`~grn.rules.world.World.lead`, when it has one, moves to the front (R201).  With ``from_position`` (an
    analysis, R225) the world's own list read from the position (:meth:`grn.rules.world.World.candidates`) replaces
    the greedy ranking when the world gives one."""
    own = worlds[0].candidates(width) if from_position else None
    listed = own if own is not None else [d for _, d in worlds[0].shortlist(greedy_rank(worlds, player), width)]
    moves = listed + [d for d in worlds[0].reactions() if d not in listed]
    lead = worlds[0].lead()
    if lead is None:
        return moves
    if own is not None:  # one decision of each effect: the lead stands for its own (R225)
        same = worlds[0].effect(lead)
        return [lead] + [d for d in moves if worlds[0].effect(d) != same]
    return [lead] + [d for d in moves if d != lead]


def with_played(world: World, candidates: list[Decision], played: Decision) -> list[Decision]:
    """``candidates`` with the move played among them: in the place of the candidate of its effect
    (:meth:`grn.rules.world.World.effect`, R225), else last."""
    if played in candidates:
        return candidates
    same = world.effect(played)
    for i, d in enumerate(candidates):
        if world.effect(d) == same:
            return candidates[:i] + [played] + candidates[i + 1:]
    return candidates + [played]


def evaluate(ruleset: Ruleset, engine: Engine, hand: tuple[str, ...], candidates: Sequence[Decision], *,
             seed: int, playouts: int | None = None, seconds: float | None = None,
             keep: Sequence[Decision] = (), horizon: int | None = None,
             opponents: bool = False, first_halving: int = FIRST_HALVING, learned: bool = True,
             claims: bool = False, evaluation: str = EVALUATION, review: bool = False) -> list[Estimate]:
    """Estimate every candidate's expected final margin for the player to move at ``engine``.

    ``hand`` is what that player holds privately (:meth:`grn.rules.ruleset.Ruleset.hand_of`); ``seed`` makes the
    result reproducible (with a playout budget; a time budget depends on the machine's speed).  With
    ``opponents`` the playouts play the other players' turns by the world's model of them
    (:meth:`grn.rules.world.World.opponent_move`: a bot facing a known kind of player, R200), else as the player
    to move plays (an analysis judges a player against any opponent).  The race halves the candidates first
    after ``first_halving`` rounds (an analysis passes the game's :attr:`grn.rules.world.World.first_halving`,
    R226), then at every power of two.  With ``learned`` (the default) a playout's end is valued by the game's
    learned evaluation (:meth:`grn.rules.world.World.estimate`, R332), else by its projected scores alone
    (:meth:`grn.rules.world.World.value`: the engine of round one, the ``classic`` level); ``evaluation`` names
    the file of that evaluation (the bot's own, R485, or the review's).  With ``claims`` the
    playouts play as people claim (:meth:`grn.rules.world.World.claim_playouts`, R443: the bot's search; an analysis
    keeps the game's playouts); with ``review`` they play as a review's (:meth:`grn.rules.world.World.review_playouts`,
    R516: an analysis at every level but ``classic``).  Returns one
    :class:`Estimate` per candidate, in the order given.
    """
    if playouts is None and seconds is None:
        raise ValueError("a search needs a budget: playouts or seconds")
    player = engine.current_player
    order = list(dict.fromkeys(candidates))
    alive = list(order)
    kept = set(keep)
    samples: dict[Decision, list[float]] = {d: [] for d in order}
    wins: dict[Decision, list[float]] = {d: [] for d in order}
    used = 0
    start = time.perf_counter()
    rng = random.Random(seed)
    rounds = 0
    searcher = player if opponents else None
    while alive:
        world = ruleset.determinise(engine, random.Random(rng.getrandbits(64)), hand)
        if claims:
            world.claim_playouts()
        if review:
            world.review_playouts()
        depth = world.horizon if horizon is None else horizon
        playout_seed = rng.getrandbits(64)
        for d in alive:
            branch = world.copy()
            branch.play(d)
            rollout(branch, random.Random(playout_seed), depth, searcher)
            m, w = branch.outcome(player, learned, evaluation)
            samples[d].append(m)
            if w is not None:
                wins[d].append(w)
            used += 1
        rounds += 1
        if len(order) == 1 and rounds >= 16:
            break  # a forced move: its estimate is all there is to know
        if playouts is not None and used >= playouts:
            break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
        if rounds >= first_halving and rounds & (rounds - 1) == 0 and len(alive) > 2:
            ranked = sorted(alive, key=lambda d: -sum(samples[d]) / len(samples[d]))
            survivors = set(ranked[:max(2, (len(ranked) + 1) // 2)]) | (kept & set(alive))
            alive = [d for d in alive if d in survivors]
    return [Estimate(d, sum(xs) / len(xs), _se(xs), len(xs), tuple(xs), tuple(wins[d])) for d in order
            for xs in (samples[d],)]


def best_of(estimates: Sequence[Estimate]) -> Estimate:
    """The candidate with the highest mean among those played in the most worlds (the race's finalists)."""
    most = max(e.playouts for e in estimates)
    finalists = [e for e in estimates if e.playouts == most]
    return max(finalists, key=lambda e: e.mean)


__all__ = ["Estimate", "candidate_moves", "with_played", "evaluate", "best_of", "greedy_rank", "make_worlds",
           "paired_difference", "paired_win_difference"]
