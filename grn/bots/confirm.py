"""Measuring a move's loss again, on fresh worlds, until its judgement is settled (R141, R180, R181).

A search's race picks its best move as the highest of several noisy means
(the winner's curse), and two races with different seeds may pick different
moves of about equal worth.  :func:`confirm_loss` takes the race's leading
*contenders* and the move played, plays them again on fresh common worlds
(:func:`grn.bots.search.evaluate`, every move kept to the end of a batch),
keeps the contender that leads on those worlds, and goes on doubling the
rounds while the loss best - played is within ``z`` standard errors of a
*boundary* (a judgement threshold): most moves are far from every threshold
and stop after the first batch; a move whose loss sits near one gets up to
``max_rounds`` rounds, so two runs with different seeds judge it alike far
more often than a fixed budget would.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from grn.bots.search import Estimate, evaluate, paired_difference
from grn.rules.engine import Engine
from grn.rules.world import Decision

if TYPE_CHECKING:
    from grn.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The best contender and the move played measured again: their estimates (on the same fresh worlds), the
    loss ``best - played`` with its standard error, the rounds played, and whether the loss ended clear of
    every boundary (False: the round cap stopped it)."""

    best: Estimate
    played: Estimate
    lost: float
    se: float
    rounds: int
    settled: bool
    #: Every playout the confirmation made (the contenders dropped after the first batch included).
    playouts: int = 0
    #: Whether the rounds reached the cap (``max_rounds``, or the edge's own cap past it), settled or not: the
    #: loss was measured as far as the budget allows (R275 names such a loss near a threshold it straddles).
    capped: bool = False
    #: The first batch's estimates of every contender and of the move played, on common worlds: which moves
    #: are as good as the best (R334).
    first: tuple[Estimate, ...] = ()

    def __repr__(self) -> str:
        state = "settled" if self.settled else "capped"
        return f"<Confirmation lost {self.lost:+.2f}±{self.se:.2f} over {self.rounds} rounds, {state}>"


def _estimate(decision: Decision, xs: Sequence[float], wins: Sequence[float] = ()) -> Estimate:
    n = len(xs)
    mean = sum(xs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    return Estimate(decision, mean, se, n, tuple(xs), tuple(wins))


def settled(lost: float, se: float, boundaries: Sequence[float], z: float) -> bool:
    """Whether the interval ``lost ± z·se`` leaves out every boundary (the judgement cannot flip by noise)."""
    return all(abs(lost - b) > z * se for b in boundaries)


def _close(lead: Estimate, other: Estimate, z: float) -> bool:
    """Whether ``other`` is not clearly behind ``lead`` on their common worlds (within ``z`` standard errors)."""
    gap, se = paired_difference(lead, other)
    return gap <= z * se


def confirm_loss(ruleset: Ruleset, engine: Engine, hand: tuple[str, ...], contenders: Sequence[Decision],
                 played: Decision, *, seed: int, rounds: int, max_rounds: int, boundaries: Sequence[float],
                 z: float, seconds: float | None = None, eliminate: bool = False,
                 edges: Sequence[float] = (), edge_rounds: int | None = None,
                 edge_z: float | None = None, edge_bound_z: float | None = None,
                 learned: bool = True, review: bool = False) -> Confirmation:
    """The loss of ``played`` against the best of ``contenders``, measured on fresh common worlds.

    The first batch plays every contender and the move played ``rounds`` times (or for ``seconds``); the
    contender with the best mean there is the best move, and only it and the move played go on.  While the
    loss is within ``z`` standard errors of one of ``boundaries``, the rounds are doubled, up to
    ``max_rounds`` (with ``seconds``: the seconds are doubled, up to ``seconds × max_rounds / rounds``).
    With ``eliminate`` (R228) a contender goes on beside the leader until it is clearly behind it (by more
    than ``z`` standard errors of their paired difference), and the leader is chosen again after every batch.
    ``edges`` are the boundaries whose judgement counts most (an analysis: the mistake threshold).  A loss
    still within ``z`` standard errors of one of them at ``max_rounds`` goes on doubling up to
    ``edge_rounds`` (R255; default: no further); with ``edge_z`` (R256) a loss is clear of an edge, and a
    contender clearly behind the leader, only by ``edge_z`` standard errors (default ``z``): a loss that stops
    early on the wrong side of the edge, or a best move dropped on the first batch's noise, is judged apart
    by two runs as surely as a coin toss at the cap.  With ``edge_bound_z`` (R276: the judgement of R275, a
    loss past an edge only when ``lost - edge_bound_z × se`` is) an edge is settled above once that bound is
    past it (and by ``edge_z``), and settled below once the loss's upper bound (``edge_z``) lies under what the
    bound would need at the edge's cap (the edge plus ``edge_bound_z`` times the standard error the cap would
    give): such a loss can no longer be judged past the edge, so its rounds stop.  Reproducible from ``seed``
    with a rounds budget.  ``learned`` and ``review`` are :func:`grn.bots.search.evaluate`'s (R332, R516).

    Kept whole: the first batch, the doubling and the elimination share one race's samples,
    rounds and contenders; split, each part would take and return them all.
    """
    if not contenders:
        raise ValueError("a confirmation needs a contender besides the move played")
    if played in contenders:
        raise ValueError("the move played is not its own contender")
    rng = random.Random(seed)
    alive = list(dict.fromkeys(contenders))
    samples: dict[Decision, list[float]] = {d: [] for d in alive + [played]}
    wins: dict[Decision, list[float]] = {d: [] for d in alive + [played]}
    done, spent, used = 0, 0.0, 0
    first: list[Estimate] | None = None
    batch, batch_seconds = rounds, seconds
    cap_seconds = None if seconds is None else seconds * max_rounds / max(1, rounds)
    edge_cap = max(max_rounds, edge_rounds or 0)
    ze = z if edge_z is None else edge_z
    plain = [b for b in boundaries if b not in edges]
    edge_seconds = None if seconds is None else seconds * edge_cap / max(1, rounds)
    while True:
        moves = alive + [played]
        got = evaluate(ruleset, engine, hand, moves, seed=rng.getrandbits(64),
                       playouts=None if seconds is not None else batch * len(moves), seconds=batch_seconds,
                       keep=moves, learned=learned, review=review)
        for e in got:
            samples[e.decision].extend(e.samples)
            wins[e.decision].extend(e.wins)
        done += got[-1].playouts
        used += sum(e.playouts for e in got)
        spent += batch_seconds or 0.0
        # the leader on the fresh worlds is the best move; the others stop here (a contender about as good as
        # the leader gives about the same loss, so which of them leads does not move the judgement), or, with
        # ``eliminate``, only once they are clearly behind it (R228)
        best = max(alive, key=lambda d: sum(samples[d]) / len(samples[d]))
        if eliminate:
            lead = _estimate(best, samples[best])
            alive = [d for d in alive if d == best or _close(lead, _estimate(d, samples[d]), max(z, ze))]
        else:
            alive = [best]
        if first is None:  # every contender and the move played on the first batch's common worlds (R334)
            first = [_estimate(d, samples[d], wins[d]) for d in moves]
        b, p = _estimate(best, samples[best], wins[best]), _estimate(played, samples[played], wins[played])
        lost, se = paired_difference(b, p)
        at_edges = [b for b in boundaries if b in edges]
        if edge_bound_z is None:
            clear = settled(lost, se, plain, z) and settled(lost, se, at_edges, ze)
            edge = edge_cap > max_rounds and not settled(lost, se, edges, z)
        else:
            # R276: the rounds the edge's cap would give, as a share of those played (seconds: of those spent)
            left = edge_cap / done if seconds is None else (edge_seconds or 0.0) / max(spent, 1e-9)
            reach = edge_bound_z * se / math.sqrt(max(1.0, left))
            decided = [e for e in edges if lost - max(ze, edge_bound_z) * se >= e or lost + ze * se < e + reach]
            clear = settled(lost, se, plain, z) and all(e in decided for e in at_edges)
            edge = edge_cap > max_rounds and any(e not in decided for e in edges)
        if clear:
            break
        # R255: past the cap only a loss near an edge goes on, up to the edge's own cap
        if seconds is None:
            if done >= max_rounds and (not edge or done >= edge_cap):
                break
            batch = min(done, (max_rounds if done < max_rounds else edge_cap) - done)
        else:
            assert cap_seconds is not None and batch_seconds is not None and edge_seconds is not None
            if spent >= cap_seconds * 0.999 and (not edge or spent >= edge_seconds * 0.999):
                break
            batch_seconds = min(spent, (cap_seconds if spent < cap_seconds * 0.999 else edge_seconds) - spent)
    capped = done >= max_rounds if seconds is None else spent >= (cap_seconds or 0.0) * 0.999
    return Confirmation(b, p, lost, se, done, clear, used, capped, tuple(first or ()))


__all__ = ["Confirmation", "confirm_loss", "settled"]
