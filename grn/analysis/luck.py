"""The luck of the draw and a balance that adds up: what each turn's draw and move did to the expected margin.

"Did I lose to the tiles?"  Every figure here comes from one judge, the
analysis's own playouts (quick players for :attr:`grn.rules.world.World.horizon`
turns, then the game's learned evaluation, :meth:`grn.rules.world.World.estimate`),
read as each player's expected final score, so that the figures of
successive turns chain (R410):

* ``V0``, the position **before the draw**: each round draws a tile from what
  the bag holds (:meth:`grn.rules.world.World.draws`, weighed by how many are
  left), then plays out, the draw's own turn included;
* ``Q``, **with the tile drawn**: the same rounds (the same seeds: common
  random numbers) with the tile the player got;
* the **luck** of the turn is ``Q - V0``: zero on average over what the bag
  could have given, by construction, since the rounds of ``V0`` draw from it;
* after the move, the position before the next player's draw is the next
  turn's ``V0``: the same function of the same position and seed, so
  ``V0`` of turn k+1 *is* the value of the move played at turn k, and over a
  game the turns telescope to the final margin less the expectation before
  the first draw;
* what a turn adds beyond its draw, ``V0(k+1) - Q(k)``, is the move played
  against what a quick player would have done with the same tile: the points
  lost (the review's own, against the best move found) plus the best move's
  worth above a quick player's (the **edge**: what the position offered, read
  on the same worlds as the move played, ``B - P`` measured here beside it).

Where chance comes inside the move (Gold: the player chooses a card, then its face
is turned, R453), the chain runs the other way round within the turn, every
stage on the turn's own rounds (:meth:`grn.rules.world.World.turn_stages`,
:func:`staged`): V0, a quick player's whole turn; the player's first choice,
played on as a quick player would; the face it showed (luck); the player's own
second choice; its face (luck).  A stage shows a face by
:meth:`grn.rules.world.World.revealing`: the same world, the face known.

Per player, :func:`balance` sets the final margin out as ``expected + luck +
skill + edge + rest``, where skill is the review's points lost (the
opponents' mean less the player's own) and the rest is the difference between
the review's points lost and the same losses measured here: estimation noise,
with its standard error.  docs/analysis.md, "Luck and skill", gives the
figures.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Sequence

from grn.rules.engine import Engine
from grn.core.value import Value
from grn.rules.world import Decision, World, margin

if TYPE_CHECKING:
    from grn.core.record import Command
    from grn.rules.ruleset import Ruleset

#: Rounds of the luck's playouts per playout of the level's budget (R410): the default level's 160 playouts give 20.
ROUNDS_SHARE = 8
#: The fewest rounds (a standard error from fewer would mean little).
MIN_ROUNDS = 8


def rounds_for(playouts: int | None, scale: int = 1) -> int:
    """The luck's rounds a turn for a level of ``playouts`` playouts a move (a time budget: the default level's),
    times the game's ``scale`` (:attr:`grn.rules.ruleset.Ruleset.luck_rounds_scale`, R457)."""
    return max(MIN_ROUNDS, (playouts or 160) // ROUNDS_SHARE) * max(1, scale)


Pairs = tuple[tuple[str, float], ...]


class TurnLuck(Value):
    """One turn's luck for the player who drew and what the balance needs of it (points of expected final margin).

    ``luck`` = ``drawn`` - ``expected`` for the player who moved, with its standard error ``se``; ``draws``
    the kinds of tile the bag held.  For every player (margins, each from their own seat): ``before`` the
    expected margin before the draw (V0), ``by_player`` the luck of this draw to them with ``se_by_player``,
    and, when the review's best move is not the move played, ``lost_by_player`` the best move's expected
    margin less the move played's, measured on this turn's worlds, with ``lost_se_by_player``.
    """

    __slots__ = ("turn", "player", "luck", "drawn", "expected", "draws", "se", "before", "by_player",
                 "se_by_player", "lost_by_player", "lost_se_by_player")
    _fields = ("turn", "player", "luck", "drawn", "expected", "draws", "se", "before", "by_player",
               "se_by_player", "lost_by_player", "lost_se_by_player")

    def __init__(self, turn: int, player: str, luck: float, drawn: float, expected: float, draws: int,
                 se: float = 0.0, before: Pairs = (), by_player: Pairs = (), se_by_player: Pairs = (),
                 lost_by_player: Pairs = (), lost_se_by_player: Pairs = ()) -> None:
        self.turn = turn
        self.player = player
        self.luck = luck
        self.drawn = drawn
        self.expected = expected
        #: How many kinds of draw the bag held.
        self.draws = draws
        self.se = se
        self.before = before
        self.by_player = by_player
        self.se_by_player = se_by_player
        self.lost_by_player = lost_by_player
        self.lost_se_by_player = lost_se_by_player

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __repr__(self) -> str:
        return f"<TurnLuck turn {self.turn} {self.player} {self.luck:+.1f}±{self.se:.1f}>"


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def _scores(world: World, learned: bool) -> dict[str, float]:
    return world.estimate() if learned else world.value()


def _round_seeds(seed: int, rounds: int) -> list[tuple[int, int, int]]:
    """Each round's seeds: (the draw, the world, the playout), the same for every position of one key."""
    rng = random.Random(seed)
    return [(rng.getrandbits(64), rng.getrandbits(64), rng.getrandbits(64)) for _ in range(rounds)]


def before_draw(ruleset: Ruleset, engine: Engine, seed: int, rounds: int, learned: bool = True,
                hand: tuple[str, ...] | None = None, decision: Decision | None = None, *,
                review: bool = False) -> list[dict[str, float]]:
    """Each round's expected final scores of the position ``engine`` before the draw of the player to move: a
    tile drawn from the bag (or ``hand``, the tiles the player got), then quick players for the world's horizon
    and the learned evaluation (without ``learned``: the projected scores, the ``classic`` level).

    With ``decision`` the player to move plays it first, with ``hand``, and the rounds are those of
    the position after it, before the *next* draw (the seed is then that position's): the value of a move, read
    as the next turn will read its own position.  With ``review`` the quick players are the review's
    (:meth:`grn.rules.world.World.review_playouts`, R516), as the search's are.
    """
    out = []
    for draw_seed, world_seed, playout_seed in _round_seeds(seed, rounds):
        if decision is not None:
            world = ruleset.determinise(engine, random.Random(world_seed), hand or ())
            world.play(decision)
            out.append(_one(ruleset, world.engine, draw_seed, world_seed, playout_seed, learned, None, review))
            continue
        out.append(_one(ruleset, engine, draw_seed, world_seed, playout_seed, learned, hand, review))
    return out


def _one(ruleset: Ruleset, engine: Engine, draw_seed: int, world_seed: int, playout_seed: int, learned: bool,
         hand: tuple[str, ...] | None, review: bool = False) -> dict[str, float]:
    """One round from ``engine`` before its draw: ``hand`` drawn (None: a draw from the bag by its weights)."""
    if hand is None:
        probe = ruleset.determinise(engine, random.Random(world_seed), ())
        if probe.is_over:
            return _scores(probe, learned)
        draws = probe.draws()
        if draws:
            total = sum(w for w, _ in draws)
            pick = random.Random(draw_seed).random() * total
            hand = draws[-1][1]
            for w, h in draws:
                pick -= w
                if pick < 0:
                    hand = h
                    break
        else:
            hand = ()
    world = ruleset.determinise(engine, random.Random(world_seed), hand)
    if review:
        world.review_playouts()
    world.play_out(random.Random(playout_seed), world.horizon)
    return _scores(world, learned)


def _margins(rows: Sequence[dict[str, float]], players: Sequence[str]) -> dict[str, list[float]]:
    return {p: [margin(r, p) for r in rows] for p in players}


def staged(ruleset: Ruleset, engine: Engine, seed: int, rounds: int, learned: bool, decision: Decision,
           shown: Sequence[tuple[Any, Any]] = (), *, review: bool = False) -> list[dict[str, float]]:
    """Each round's expected final scores once the player to move at ``engine`` takes ``decision`` in the
    round's world showing ``shown`` (:meth:`World.revealing`; place, face pairs), then quick players for the
    world's horizon: a stage of a turn whose chance comes inside the move (R453).  The rounds are
    :func:`before_draw`'s (the same seeds: the same worlds, the same playouts), the world not dealt again after
    the decision, so that two stages of a turn differ only by what the stage changed."""
    out = []
    for draw_seed, world_seed, playout_seed in _round_seeds(seed, rounds):
        world = ruleset.determinise(engine, random.Random(world_seed), ())
        if shown:
            world = world.revealing(shown, random.Random(draw_seed))
        if review:
            world.review_playouts()
        world.play(decision)
        world.play_out(random.Random(playout_seed), world.horizon)
        out.append(_scores(world, learned))
    return out


def _turned_luck(ruleset: Ruleset, engine: Engine, turn: int, player: str, stages: Sequence[Any], *, seed: int,
                 rounds: int, learned: bool, played: Decision | None, best: Decision | None,
                 kinds: int, review: bool = False) -> TurnLuck:
    """The luck of the faces turned inside a move (R453): the chain of :meth:`World.turn_stages` read on this
    turn's rounds, from V0 (a quick player's whole turn) through each choice and each face; the luck is the sum
    of the chance stages' steps, round by round (its error from the rounds' sums).  The review's best move and
    the move played, when they differ, are read on the same rounds (R455)."""
    players = list(engine.scores)
    v0 = _margins(before_draw(ruleset, engine, seed, rounds, learned, review=review), players)
    luck_rows = {p: [0.0] * rounds for p in players}
    previous = v0
    if not any(chance for _, _, chance in stages):
        stages = ()  # every card turned was seen before: no luck, and nothing to play for it
    for decision, shown, chance in stages:
        here = _margins(staged(ruleset, engine, seed, rounds, learned, decision, shown, review=review), players)
        if chance:
            for p in players:
                luck_rows[p] = [acc + a - b for acc, a, b in zip(luck_rows[p], here[p], previous[p])]
        previous = here
    before = tuple((p, sum(v0[p]) / rounds) for p in players)
    luck = {p: _mean_se(luck_rows[p]) for p in players}
    lost: Pairs = ()
    lost_se: Pairs = ()
    if best is not None and played is not None and best != played:
        b = _margins(staged(ruleset, engine, seed, rounds, learned, best, review=review), players)
        pl = _margins(staged(ruleset, engine, seed, rounds, learned, played, review=review), players)
        diff = {p: _mean_se([x - y for x, y in zip(b[p], pl[p])]) for p in players}
        lost = tuple((p, diff[p][0]) for p in players)
        lost_se = tuple((p, diff[p][1]) for p in players)
    expected = dict(before)[player]
    own, own_se = luck[player]
    return TurnLuck(turn, player, own, expected + own, expected, kinds, own_se, before,
                    tuple((p, luck[p][0]) for p in players), tuple((p, luck[p][1]) for p in players), lost, lost_se)


def turn_luck(ruleset: Ruleset, engine: Engine, turn: int, player: str, hand: tuple[str, ...], *, seed: int,
              next_seed: int, rounds: int, learned: bool = True, played: Decision | None = None,
              best: Decision | None = None, actions: Sequence[Command] = (), review: bool = False) -> TurnLuck | None:
    """The luck of the draw of the turn ``turn`` played from ``engine`` by ``player``, who drew ``hand``, and
    what the balance needs of it (R410); None where the game has no chance to weigh (:meth:`World.draws`, and
    :meth:`World.turn_stages` of the recorded turn ``actions``: Gold's cards turned, R453).

    ``seed`` is this turn's luck seed, ``next_seed`` the next turn's (the move's value is read with it, as the
    next turn reads its position); ``played`` and ``best`` the review's move played and best move: when they
    differ, both are played on the next position's worlds (a turn whose chance comes inside the move: on this
    turn's, R455) and their difference kept beside the review's.  ``review``: the review's playouts (R516).
    """
    probe = ruleset.determinise(engine, random.Random(seed), hand)
    draws = probe.draws()
    if not draws:
        stages = probe.turn_stages(actions) if actions else []
        if not stages:
            return None
        return _turned_luck(ruleset, engine, turn, player, stages, seed=seed, rounds=rounds, learned=learned,
                            played=played, best=best,
                            kinds=sum(len(v) for v in ruleset.unseen(engine, hand).values()), review=review)
    players = list(engine.scores)
    v0 = _margins(before_draw(ruleset, engine, seed, rounds, learned, review=review), players)
    if hand:
        q = _margins(before_draw(ruleset, engine, seed, rounds, learned, hand, review=review), players)
    else:  # nothing drawn this turn: no luck
        q = v0
    before = tuple((p, sum(v0[p]) / rounds) for p in players)
    luck = {p: _mean_se([a - b for a, b in zip(q[p], v0[p])]) for p in players}
    lost: Pairs = ()
    lost_se: Pairs = ()
    if best is not None and played is not None and best != played:
        b = _margins(before_draw(ruleset, engine, next_seed, rounds, learned, hand, best, review=review), players)
        pl = _margins(before_draw(ruleset, engine, next_seed, rounds, learned, hand, played, review=review), players)
        diff = {p: _mean_se([x - y for x, y in zip(b[p], pl[p])]) for p in players}
        lost = tuple((p, diff[p][0]) for p in players)
        lost_se = tuple((p, diff[p][1]) for p in players)
    expected = dict(before)[player]
    own, own_se = luck[player]
    return TurnLuck(turn, player, own, expected + own, expected, len(draws), own_se, before,
                    tuple((p, luck[p][0]) for p in players), tuple((p, luck[p][1]) for p in players), lost, lost_se)


def final_values(ruleset: Ruleset, engine: Engine, seed: int, rounds: int, learned: bool = True, *,
                 review: bool = False) -> dict[str, float]:
    """Each player's margin expected at ``engine``, the position after the last turn, read as a turn's ``V0``
    (exact when the game is over: its final scores); ``review``: the review's playouts (R516)."""
    rows = before_draw(ruleset, engine, seed, 1 if engine.is_over else rounds, learned, review=review)
    players = list(engine.scores)
    return {p: sum(margin(r, p) for r in rows) / len(rows) for p in players}


class Balance(Value):
    """A player's game in parts (points of final margin): ``expected`` (before the first draw), ``luck`` (their
    draws' less what their opponents' did to them), ``skill`` (the opponents' mean points lost less their own),
    ``edge`` (the best moves' worth above a quick player's with the same tile, their turns' less their
    opponents'), and ``rest``: the final ``margin`` less the four, the review's points lost less the same
    losses measured by the luck's worlds (estimation noise), with ``se`` its standard error; ``luck_se`` is the
    luck's."""

    __slots__ = ("player", "margin", "expected", "luck", "skill", "rest", "se", "edge", "luck_se")
    _fields = ("player", "margin", "expected", "luck", "skill", "rest", "se", "edge", "luck_se")

    def __init__(self, player: str, margin: float, expected: float, luck: float, skill: float, rest: float,
                 se: float, edge: float = 0.0, luck_se: float = 0.0) -> None:
        self.player = player
        self.margin = margin
        self.expected = expected
        self.luck = luck
        self.skill = skill
        self.rest = rest
        self.se = se
        self.edge = edge
        self.luck_se = luck_se

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __repr__(self) -> str:
        return (f"<Balance {self.player}: margin {self.margin:+.0f} = expected {self.expected:+.1f} "
                f"+ luck {self.luck:+.1f} + skill {self.skill:+.1f} + edge {self.edge:+.1f} "
                f"+ rest {self.rest:+.1f} ± {self.se:.1f}>")

    @property
    def adds_up(self) -> bool:
        """Whether luck, skill and edge account for the margin less the expectation within one standard error."""
        return abs(self.rest) <= self.se


def balance(players: Sequence[str], final: dict[str, float], lucks: Sequence[TurnLuck],
            losses: Sequence[tuple[str, float, float]]) -> list[Balance]:
    """Each player's :class:`Balance` from their final margins (``final``, by player), every turn's
    :class:`TurnLuck` in turn order (the game's first turn first) and each turn's review (player, points lost,
    standard error), beside ``lucks``."""
    out = []
    for p in players:
        others = max(1, len(players) - 1)
        start = dict(lucks[0].before)[p] if lucks else final[p]
        luck = edge = skill = rest = 0.0
        var = luck_var = 0.0
        for i, (t, (q, lost, lost_se)) in enumerate(zip(lucks, losses)):
            after = dict(lucks[i + 1].before)[p] if i + 1 < len(lucks) else final[p]
            drew = dict(t.by_player)[p]
            luck += drew
            luck_var += dict(t.se_by_player)[p] ** 2
            move = after - (dict(t.before)[p] + drew)  # the move against a quick player's, to the next draw
            measured = dict(t.lost_by_player).get(p, 0.0)  # B - P on the luck's worlds, in p's margin
            measured_se = dict(t.lost_se_by_player).get(p, 0.0)
            review = -lost if q == p else lost / others  # the review's points lost, in p's margin
            skill += review
            edge += move + measured
            rest += -measured - review
            var += measured_se ** 2 + (lost_se if q == p else lost_se / others) ** 2
        out.append(Balance(p, final[p], start, luck, skill, rest, math.sqrt(var), edge, math.sqrt(luck_var)))
    return out


__all__ = ["TurnLuck", "Balance", "turn_luck", "before_draw", "staged", "final_values", "balance", "rounds_for",
           "ROUNDS_SHARE", "MIN_ROUNDS"]
